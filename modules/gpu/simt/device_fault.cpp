#include "modules/gpu/simt/device_fault.h"

#include "modules/common/demangle.h"
#include "modules/common/hex_text.h"
#include "modules/gpu/ptx/program.h"
#include "modules/gpu/simt/execution_context.h"

namespace ohmvp::gpu {

const char* fault_kind_name(FaultKind kind) {
  switch (kind) {
    case FaultKind::none:
      return "no fault";
    case FaultKind::misaligned_address:
      return "misaligned address";
    case FaultKind::out_of_window:
      return "address out of bounds";
    case FaultKind::unmapped_address:
      return "unmapped device address";
    case FaultKind::trap:
      return "trap";
    case FaultKind::breakpoint:
      return "breakpoint";
    case FaultKind::unsupported:
      return "unsupported instruction";
    case FaultKind::invalid_texture:
      return "invalid texture handle";
    case FaultKind::texture_geometry:
      return "texture of another geometry";
    case FaultKind::bad_control_flow:
      return "bad control flow";
    case FaultKind::assertion:
      return "assertion";
    case FaultKind::stack_overflow:
      return "call stack overflow";
    case FaultKind::invalid_surface:
      return "invalid surface handle";
    case FaultKind::surface_bounds:
      return "surface access out of bounds";
    case FaultKind::invalid_launch:
      return "invalid kernel launch from the device";
    case FaultKind::invalid_barrier:
      return "invalid barrier";
  }
  return "fault";
}

namespace {

const char* space_name(StateSpace space) {
  switch (space) {
    case StateSpace::generic:
      return "generic";
    case StateSpace::reg:
      return "reg";
    case StateSpace::param:
      return "param";
    case StateSpace::global:
      return "global";
    case StateSpace::shared:
      return "shared";
    case StateSpace::local:
      return "local";
    case StateSpace::const_:
      return "const";
    case StateSpace::tex:
      return "tex";
  }
  return "?";
}

// A module string (a symbol's initializer up to its first NUL), or "?" for none.
std::string module_string(const Module& module, uint32_t symbol) {
  if (symbol >= module.symbols.size()) return "?";
  const std::vector<uint8_t>& bytes = module.symbols[symbol].initializer;
  std::string text;
  for (const uint8_t byte : bytes) {
    if (byte == 0) break;
    text += static_cast<char>(byte);
  }
  return text;
}

// " `in[i] >= 0` failed (k.cu:5, in 'void k(const int *)')", as CUDA's assert prints it.
std::string describe_assertion(const DeviceFault::AssertionSite& site, const Module& module) {
  return " `" + module_string(module, site.expression) + "` failed (" +
         module_string(module, site.file) + ":" + std::to_string(site.line) + ", in '" +
         module_string(module, site.function) + "')";
}

// Whether `function` reads %envreg1 or %envreg2, where cooperative groups finds the grid
// workspace; its grid_group::sync() traps when there is none.
bool reads_grid_workspace(const Function& function) {
  for (const Instruction& instruction : function.instructions)
    for (uint8_t i = 0; i < instruction.operand_count; ++i) {
      const Operand& operand = instruction.operands[i];
      if (operand.kind == Operand::Kind::special && operand.special == SpecialRegister::envreg &&
          (operand.component == 1 || operand.component == 2))
        return true;
    }
  return false;
}

// What an access beyond the CTA's shared memory missed: its size, and where each part comes from.
std::string describe_shared_window(const ExecutionContext& context) {
  const size_t dynamic = context.dynamic_shared_bytes;
  return ": the CTA's shared memory is " + std::to_string(context.shared_bytes) + " bytes (" +
         std::to_string(context.shared_bytes - dynamic) +
         " of the kernel's __shared__ variables, " + std::to_string(dynamic) +
         " dynamic: the launch's shared_bytes, which an extern __shared__ array needs)";
}

}  // namespace

std::optional<uint64_t> DeviceFault::global_address() const {
  const bool access = kind == FaultKind::unmapped_address || kind == FaultKind::misaligned_address;
  if (!access || (space != StateSpace::global && space != StateSpace::generic)) return std::nullopt;
  return address;
}

std::string describe_fault(const DeviceFault& fault, const Module& module,
                           const std::string& kernel, const ExecutionContext& context,
                           const Dim3& thread) {
  // `kernel` is the name the launch gave, which may be a shorter form of the mangled one.
  const Function& launched = module.kernel(kernel);
  std::string where;
  if (fault.function < module.functions.size()) {
    const Function& function = module.functions[fault.function];
    uint32_t line = 0;
    if (fault.pc < function.instructions.size()) line = function.instructions[fault.pc].source_line;
    where = module.file + ":" + std::to_string(line) + ", pc " + std::to_string(fault.pc);
    if (&function != &launched) where += " in '" + demangle(function.name) + "'";
  }
  std::string message = "device fault in kernel '" + demangle(launched.name) + "' (" + where +
                        "): " + fault_kind_name(fault.kind);
  if (fault.kind == FaultKind::misaligned_address || fault.kind == FaultKind::out_of_window ||
      fault.kind == FaultKind::unmapped_address ||
      (fault.kind == FaultKind::bad_control_flow && fault.address != 0)) {
    message += " " + hex_text(fault.address) + " (" + std::string(space_name(fault.space)) + ")";
  }
  if (fault.kind == FaultKind::assertion) message += describe_assertion(fault.assertion, module);
  if (fault.kind == FaultKind::trap && fault.function < module.functions.size() &&
      reads_grid_workspace(module.functions[fault.function]))
    message +=
        " (the code reads cooperative groups' grid workspace: this_grid().sync() traps unless "
        "the launch is cooperative: a workload launch's \"cooperative\": true, "
        "LaunchConfig::cooperative in C++, cudaLaunchCooperativeKernel in CUDA)";
  if (fault.detail && *fault.detail) message += std::string(": ") + fault.detail;
  if (fault.kind == FaultKind::out_of_window && fault.space == StateSpace::shared)
    message += describe_shared_window(context);
  const Dim3& cta = context.cta;
  message += " at CTA (" + std::to_string(cta.x) + "," + std::to_string(cta.y) + "," +
             std::to_string(cta.z) + ") thread (" + std::to_string(thread.x) + "," +
             std::to_string(thread.y) + "," + std::to_string(thread.z) + ")";
  return message;
}

}  // namespace ohmvp::gpu
