#include "modules/gpu/load_hoisting.h"

#include <algorithm>

#include "modules/gpu/ptx/control_flow.h"
#include "modules/gpu/scoreboard.h"

namespace ohmvp::gpu {

namespace {

bool is_ordered(const Instruction& instruction) {
  switch (instruction.mod.order) {
    case MemoryOrder::none:
    case MemoryOrder::weak:
      return instruction.mod.scope != MemoryScope::none;
    default:
      return true;
  }
}

bool is_load(const Instruction& instruction) {
  return instruction.op == Opcode::ld || instruction.op == Opcode::ldu ||
         instruction.op == Opcode::tex;
}

// A load whose data comes from beyond the SM (global, local, or generic, which on the shipped
// kernels is global), whose latency is worth covering. Shared-memory and constant-bank loads
// answer in tens of cycles and are left near their use.
bool is_far_load(const Instruction& instruction) {
  if (!is_load(instruction) || is_ordered(instruction)) return false;
  switch (instruction.space) {
    case StateSpace::global:
    case StateSpace::local:
    case StateSpace::generic:
      return true;
    default:
      return instruction.op == Opcode::tex;
  }
}

bool reads_clock(const Instruction& instruction) {
  for (uint8_t i = 0; i < instruction.operand_count; ++i) {
    const Operand& operand = instruction.operands[i];
    if (operand.kind != Operand::Kind::special) continue;
    switch (operand.special) {
      case SpecialRegister::clock:
      case SpecialRegister::clock64:
      case SpecialRegister::clock_hi:
      case SpecialRegister::globaltimer:
      case SpecialRegister::globaltimer_lo:
      case SpecialRegister::globaltimer_hi:
        return true;
      default:
        break;
    }
  }
  return false;
}

// Whether `instruction` keeps its place in its block, everything else staying on its side.
bool keeps_its_place(const Instruction& instruction) {
  if (is_load(instruction)) return is_ordered(instruction);
  switch (instruction.op) {
    case Opcode::st:
    case Opcode::atom:
    case Opcode::red:
    case Opcode::bar:
    case Opcode::membar:
    case Opcode::fence:
    case Opcode::bra:
    case Opcode::call:
    case Opcode::ret:
    case Opcode::exit:
    case Opcode::trap:
    case Opcode::brkpt:
    case Opcode::nanosleep:
    case Opcode::shfl:
    case Opcode::vote:
    case Opcode::activemask:
    case Opcode::match:
    case Opcode::redux:
    case Opcode::alloca_:
    case Opcode::stacksave:
    case Opcode::stackrestore:
    case Opcode::unsupported:
      return true;
    default:
      return is_tensor_core_op(instruction.op) || reads_clock(instruction);
  }
}

bool contains(const uint32_t* begin, const uint32_t* end, uint32_t reg) {
  return std::find(begin, end, reg) != end;
}

bool reads(const InstructionRegisters& instruction, uint32_t reg) {
  return contains(instruction.sources_begin(), instruction.sources_end(), reg);
}

bool writes(const InstructionRegisters& instruction, uint32_t reg) {
  return contains(instruction.destinations_begin(), instruction.destinations_end(), reg);
}

// Whether `later` must stay after `earlier` because of the registers the two use: it reads what
// `earlier` writes, or writes what `earlier` reads or writes.
bool depends_on(const InstructionRegisters& later, const InstructionRegisters& earlier) {
  for (const uint32_t* reg = earlier.destinations_begin(); reg != earlier.destinations_end(); ++reg)
    if (reads(later, *reg) || writes(later, *reg)) return true;
  for (const uint32_t* reg = later.destinations_begin(); reg != later.destinations_end(); ++reg)
    if (reads(earlier, *reg)) return true;
  return false;
}

// Reorders instructions [first, end) of one basic block: a list schedule of the block's
// dependence graph that issues, of the instructions ready, first the far loads and what computes
// their addresses and guards, then the rest, each group in the order written.
void hoist_in_block(std::vector<Instruction>& instructions, uint32_t first, uint32_t end) {
  const uint32_t count = end - first;
  std::vector<InstructionRegisters> registers;
  std::vector<bool> fixed;  // ordered with every other instruction of the block
  registers.reserve(count);
  fixed.reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    registers.push_back(instruction_registers(instructions[first + i]));
    fixed.push_back(keeps_its_place(instructions[first + i]));
  }

  // Far loads, and the latest writer of every register a load-feeding instruction reads.
  std::vector<bool> feeds_load(count, false);
  for (uint32_t j = count; j-- > 0;) {
    if (is_far_load(instructions[first + j])) feeds_load[j] = true;
    if (!feeds_load[j] || fixed[j]) continue;
    for (const uint32_t* reg = registers[j].sources_begin(); reg != registers[j].sources_end();
         ++reg)
      for (uint32_t i = j; i-- > 0;)
        if (writes(registers[i], *reg)) {
          feeds_load[i] = true;
          break;
        }
  }

  std::vector<std::vector<uint32_t>> successors(count);
  std::vector<uint32_t> waiting_for(count, 0);
  for (uint32_t j = 0; j < count; ++j)
    for (uint32_t i = 0; i < j; ++i)
      if (fixed[i] || fixed[j] || depends_on(registers[j], registers[i])) {
        successors[i].push_back(j);
        ++waiting_for[j];
      }

  std::vector<bool> placed(count, false);
  std::vector<Instruction> block;
  block.reserve(count);
  for (uint32_t step = 0; step < count; ++step) {
    uint32_t next = count;
    for (uint32_t i = 0; i < count; ++i) {
      if (placed[i] || waiting_for[i] != 0) continue;
      if (next == count || (feeds_load[i] && !feeds_load[next])) next = i;
      if (feeds_load[next]) break;
    }
    placed[next] = true;
    for (uint32_t successor : successors[next]) --waiting_for[successor];
    block.push_back(std::move(instructions[first + next]));
  }
  std::move(block.begin(), block.end(), instructions.begin() + first);
}

}  // namespace

void hoist_loads(Function& function) {
  if (!function.defined || function.instructions.empty()) return;
  const ControlFlowGraph graph = build_control_flow(function);
  for (const BasicBlock& block : graph.blocks)
    hoist_in_block(function.instructions, block.first, block.end);
}

void hoist_loads(Module& module) {
  for (Function& function : module.functions) hoist_loads(function);
}

}  // namespace ohmvp::gpu
