#include "modules/gpu/register_pressure.h"

#include <algorithm>
#include <vector>

#include "modules/gpu/ptx/control_flow.h"
#include "modules/gpu/register_set.h"
#include "modules/gpu/scoreboard.h"

namespace ohmvp::gpu {

namespace {

constexpr uint32_t k_unknown = UINT32_MAX;

class PressureAnalysis {
 public:
  explicit PressureAnalysis(const Module& module)
      : m_module(module),
        m_pressure(module.functions.size(), k_unknown),
        m_on_chain(module.functions.size(), false) {}

  uint32_t of(uint32_t f) {
    if (m_pressure[f] != k_unknown) return m_pressure[f];
    if (m_on_chain[f]) return 0;  // recursion: the outer activation counts it
    m_on_chain[f] = true;
    const uint32_t pressure = function_pressure(m_module.functions[f]);
    m_on_chain[f] = false;
    return m_pressure[f] = pressure;
  }

 private:
  uint32_t callee_pressure(const Instruction& call) {
    uint32_t most = 0;
    if (call.operands[0].kind == Operand::Kind::reg) {
      for (const uint32_t target : m_module.address_taken)
        if (!m_module.functions[target].is_kernel) most = std::max(most, of(target));
      return most;
    }
    for (uint8_t i = 0; i < call.operand_count; ++i)
      if (call.operands[i].kind == Operand::Kind::function &&
          call.operands[i].target < m_module.functions.size())
        most = std::max(most, of(call.operands[i].target));
    return most;
  }

  uint32_t function_pressure(const Function& function) {
    if (function.instructions.empty()) return 0;
    const uint32_t count = function.register_count;
    const auto slots = [&](const RegisterSet& set) {
      uint32_t total = 0;
      set.for_each([&](uint32_t reg) { total += register_slots(function.register_types[reg]); });
      return total;
    };
    std::vector<InstructionRegisters> registers;
    registers.reserve(function.instructions.size());
    for (const Instruction& instruction : function.instructions)
      registers.push_back(instruction_registers(instruction));
    // Live before `pc` from live after it.
    const auto step_back = [&](uint32_t pc, RegisterSet& live) {
      const InstructionRegisters& r = registers[pc];
      if (function.instructions[pc].guard_reg == no_register)
        for (const uint32_t* reg = r.destinations_begin(); reg != r.destinations_end(); ++reg)
          if (*reg < count) live.remove(*reg);
      for (const uint32_t* reg = r.sources_begin(); reg != r.sources_end(); ++reg)
        if (*reg < count) live.add(*reg);
    };

    const ControlFlowGraph cfg = build_control_flow(function);
    std::vector<RegisterSet> live_in(cfg.blocks.size(), RegisterSet(count, false));
    const auto live_out = [&](uint32_t b) {
      RegisterSet out(count, false);
      for (const uint32_t s : cfg.blocks[b].successors)
        if (s < cfg.blocks.size()) out.unite(live_in[s]);
      return out;
    };
    for (bool changed = true; changed;) {
      changed = false;
      for (uint32_t b = uint32_t(cfg.blocks.size()); b-- > 0;) {
        RegisterSet live = live_out(b);
        for (uint32_t pc = cfg.blocks[b].end; pc-- > cfg.blocks[b].first;) step_back(pc, live);
        if (live != live_in[b]) {
          live_in[b] = std::move(live);
          changed = true;
        }
      }
    }

    uint32_t pressure = 0;
    for (uint32_t b = 0; b < cfg.blocks.size(); ++b) {
      RegisterSet live = live_out(b);
      for (uint32_t pc = cfg.blocks[b].end; pc-- > cfg.blocks[b].first;) {
        const Instruction& instruction = function.instructions[pc];
        // While it runs: what stays live after it and what it writes.
        RegisterSet during = live;
        const InstructionRegisters& r = registers[pc];
        for (const uint32_t* reg = r.destinations_begin(); reg != r.destinations_end(); ++reg)
          if (*reg < count) during.add(*reg);
        uint32_t held = slots(during);
        if (instruction.op == Opcode::call) held = slots(live) + callee_pressure(instruction);
        step_back(pc, live);
        pressure = std::max({pressure, held, slots(live)});
      }
    }
    return pressure;
  }

  const Module& m_module;
  std::vector<uint32_t> m_pressure;
  std::vector<bool> m_on_chain;
};

}  // namespace

uint32_t register_slots(DataType type) {
  if (type == DataType::pred) return 0;
  return type_bytes(type) > 4 ? 2 : 1;
}

uint32_t live_registers_per_thread(const Module& module, uint32_t function) {
  return PressureAnalysis(module).of(function);
}

}  // namespace ohmvp::gpu
