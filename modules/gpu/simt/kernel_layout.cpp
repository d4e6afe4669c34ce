#include "modules/gpu/simt/kernel_layout.h"

#include "modules/common/demangle.h"
#include "modules/common/errors.h"

namespace ohmvp::gpu {

namespace {

// Why a function without a body cannot be called: a device runtime function beyond the kernel
// launch (<<<>>> in device code, built with -rdc, runs) or any other external function.
std::string why_no_body(const std::string& callee) {
  if (callee.rfind("__cudaCDP", 0) == 0 || callee.rfind("cuda", 0) == 0)
    return "a device runtime function the model does not run (of dynamic parallelism only <<<>>> "
           "into the NULL, tail-launch and fire-and-forget streams runs)";
  return "which has no body (external functions are not supported)";
}

}  // namespace

KernelLayout::KernelLayout(const Module& module, const std::string& kernel_name,
                           uint64_t call_stack_bytes)
    : m_module(&module), m_call_stack_bytes(call_stack_bytes) {
  m_kernel = static_cast<uint32_t>(&module.kernel(kernel_name) - module.functions.data());
  m_slots.resize(module.functions.size());
  m_param_kinds.assign(module.symbols.size(), ParamKind::not_param);
  m_param_offsets.assign(module.symbols.size(), 0);

  // 0 new, 1 on the path, 2 done as reached through a pointer only, 3 done.
  std::vector<uint8_t> state(module.functions.size(), 0);
  visit(m_kernel, state, false);

  for (uint32_t f = 0; f < module.functions.size(); ++f) {
    if (!m_slots[f].reachable) continue;
    const Function& function = module.functions[f];
    Slot& slot = m_slots[f];
    slot.register_base = m_total_registers;
    m_total_registers += function.register_count;
    if (!function.is_kernel) {
      slot.params_offset = m_param_arena_bytes;
      m_param_arena_bytes = align_up(m_param_arena_bytes + function.param_bytes, 16);
      slot.returns_offset = m_param_arena_bytes;
      m_param_arena_bytes = align_up(m_param_arena_bytes + function.return_bytes, 16);
    }
    slot.call_site_offset = m_param_arena_bytes;
    m_param_arena_bytes = align_up(m_param_arena_bytes + function.call_param_bytes, 16);
    slot.local_base = m_local_bytes;
    m_local_bytes = align_up(m_local_bytes + function.local_bytes, 16);

    for (uint32_t s : function.params) {
      m_param_kinds[s] =
          function.is_kernel ? ParamKind::kernel_argument : ParamKind::function_argument;
      m_param_offsets[s] = (function.is_kernel ? 0 : slot.params_offset) + module.symbols[s].offset;
    }
    for (uint32_t s : function.return_params) {
      m_param_kinds[s] = ParamKind::function_return;
      m_param_offsets[s] = slot.returns_offset + module.symbols[s].offset;
    }
  }
  for (uint32_t s = 0; s < module.symbols.size(); ++s) {
    const Symbol& symbol = module.symbols[s];
    if (symbol.space == StateSpace::param && m_param_kinds[s] == ParamKind::not_param &&
        symbol.function >= 0 && m_slots[symbol.function].reachable) {
      m_param_kinds[s] = ParamKind::call_site;
      m_param_offsets[s] = m_slots[symbol.function].call_site_offset + symbol.offset;
    }
  }
  if (m_kernel < module.static_shared_bytes.size()) {
    m_static_shared = module.static_shared_bytes[m_kernel];
    m_extern_shared = module.extern_shared_offset(m_kernel);
  }
}

void KernelLayout::refuse_unsupported(const Function& function, uint32_t pc) const {
  const UnsupportedInstruction& unsupported = function.unsupported_at(pc);
  const uint32_t line = function.instructions[pc].source_line;
  const std::string kernel = demangle(m_module->functions[m_kernel].name);
  std::string where = "kernel '" + kernel + "' cannot run '" + unsupported.text + "'";
  if (!function.is_kernel) where += " in '" + demangle(function.name) + "'";
  throw ConfigError(m_module->file + ":" + std::to_string(line) + ": " + where + ": " +
                    unsupported.reason);
}

void KernelLayout::visit(uint32_t f, std::vector<uint8_t>& state, bool through_pointer) {
  const Function& function = m_module->functions[f];
  if (state[f] == 1) {  // a cycle: recursion
    m_recursive = true;
    return;
  }
  // One reached through a pointer before is checked again when it is called directly.
  if (state[f] == 3 || (state[f] == 2 && through_pointer)) return;
  state[f] = 1;
  m_slots[f].reachable = true;
  for (uint32_t pc = 0; pc < function.instructions.size(); ++pc) {
    const Instruction& instruction = function.instructions[pc];
    if (instruction.op == Opcode::alloca_ || instruction.op == Opcode::stacksave)
      m_uses_alloca = true;
    // Reached only through a function pointer, it faults if it runs (as a missing body does).
    if (instruction.op == Opcode::unsupported && !through_pointer) refuse_unsupported(function, pc);
    if (instruction.op != Opcode::call) continue;
    if (instruction.operands[0].kind == Operand::Kind::reg) {  // indirect: any address taken
      for (const uint32_t target : m_module->address_taken)
        if (!m_module->functions[target].instructions.empty() &&
            !m_module->functions[target].is_kernel)
          visit(target, state, true);
      continue;
    }
    for (uint32_t i = 0; i < instruction.operand_count; ++i) {
      const Operand& operand = instruction.operands[i];
      if (operand.kind != Operand::Kind::function) continue;
      if (operand.target >= m_module->functions.size())
        throw ConfigError(m_module->file + ":" + std::to_string(instruction.source_line) +
                          ": call to an unknown function");
      const Function& callee = m_module->functions[operand.target];
      if (callee.is_heap_call() || callee.is_parameter_buffer_call()) m_uses_heap = true;
      if (callee.is_device_launch_call() || callee.is_last_error_call()) m_launches_kernels = true;
      if (callee.is_runtime_call()) continue;  // the interpreter's; no body to lay out
      if (callee.instructions.empty()) {
        if (through_pointer) continue;  // e.g. free in a vtable's destructor: faults if called
        throw ConfigError(m_module->file + ":" + std::to_string(instruction.source_line) +
                          ": kernel '" + demangle(m_module->functions[m_kernel].name) +
                          "' calls '" + demangle(callee.name) + "', " + why_no_body(callee.name));
      }
      visit(operand.target, state, through_pointer);
    }
  }
  state[f] = through_pointer ? 2 : 3;
}

}  // namespace ohmvp::gpu
