#include "modules/gpu/register_zeroing.h"

#include <numeric>

#include "modules/gpu/ptx/control_flow.h"
#include "modules/gpu/register_set.h"

namespace ohmvp::gpu {

namespace {

bool reads_other_lanes(const Instruction& instruction) {
  if (is_tensor_core_op(instruction.op)) return true;
  switch (instruction.op) {
    case Opcode::shfl:
    case Opcode::vote:
    case Opcode::match:
    case Opcode::redux:
      return true;
    case Opcode::bar:
      return instruction.mod.barrier == BarrierMode::reduce;
    default:
      return false;
  }
}

std::vector<uint32_t> every_row(const KernelLayout& layout) {
  std::vector<uint32_t> rows(layout.total_registers());
  std::iota(rows.begin(), rows.end(), 0u);
  return rows;
}

}  // namespace

std::vector<uint32_t> registers_to_zero(const KernelLayout& layout,
                                        const std::vector<InstructionRegisters>& registers) {
  const Module& module = layout.module();
  const uint32_t kernel = layout.kernel_index();
  for (uint32_t f = 0; f < module.functions.size(); ++f)
    if (f != kernel && layout.reachable(f)) return every_row(layout);
  const Function& function = module.functions[kernel];
  for (const Instruction& instruction : function.instructions)
    if (instruction.op == Opcode::call || reads_other_lanes(instruction)) return every_row(layout);

  const uint32_t count = function.register_count;
  const auto writes = [&](uint32_t pc, RegisterSet& written) {
    if (function.instructions[pc].guard_reg != no_register) return;
    const InstructionRegisters& r = registers[pc];
    for (const uint32_t* reg = r.destinations_begin(); reg != r.destinations_end(); ++reg)
      if (*reg < count) written.add(*reg);
  };
  const ControlFlowGraph cfg = build_control_flow(function);
  // written_out[b]: registers written on every path from the entry to the end of block b.
  std::vector<RegisterSet> written_out(cfg.blocks.size(), RegisterSet(count, true));
  const auto written_in = [&](uint32_t b) {
    RegisterSet in(count, b != 0);
    for (const uint32_t p : cfg.blocks[b].predecessors)
      if (p < cfg.blocks.size()) in.intersect(written_out[p]);
    return in;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t b = 0; b < cfg.blocks.size(); ++b) {
      RegisterSet out = written_in(b);
      for (uint32_t pc = cfg.blocks[b].first; pc < cfg.blocks[b].end; ++pc) writes(pc, out);
      if (out != written_out[b]) {
        written_out[b] = std::move(out);
        changed = true;
      }
    }
  }
  RegisterSet read_first(count, false);
  for (uint32_t b = 0; b < cfg.blocks.size(); ++b) {
    RegisterSet written = written_in(b);
    for (uint32_t pc = cfg.blocks[b].first; pc < cfg.blocks[b].end; ++pc) {
      const InstructionRegisters& r = registers[pc];
      for (const uint32_t* reg = r.sources_begin(); reg != r.sources_end(); ++reg)
        if (*reg < count && !written.has(*reg)) read_first.add(*reg);
      writes(pc, written);
    }
  }
  std::vector<uint32_t> rows;
  const uint32_t base = layout.register_base(kernel);
  for (uint32_t reg = 0; reg < count; ++reg)
    if (read_first.has(reg)) rows.push_back(base + reg);
  return rows;
}

}  // namespace ohmvp::gpu
