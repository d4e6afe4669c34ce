#include "modules/gpu/load_hoisting.h"

#include <map>
#include <set>

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
         instruction.op == Opcode::tex || instruction.op == Opcode::tld4;
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
      return instruction.op == Opcode::tex || instruction.op == Opcode::tld4;
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
    case Opcode::suld:  // a surface may alias global memory; its loads are left in place too
    case Opcode::sust:
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

// Reorders instructions [first, end) of one basic block: a list schedule of its dependences that
// takes, of the instructions ready, the first that feeds a far load, or else the first.
// - Registers: each instruction waits for the latest writer of every register it reads or writes
//   and for the readers of a register it writes since that register's latest write; the other
//   register dependences follow from those.
// - An instruction that keeps its place waits for everything since the one before it, and
//   everything after it waits for it.
// - A far load feeds itself, and an instruction that feeds one (and does not keep its place)
//   makes every instruction it waits for through its registers feed one too: the latest writers
//   of what it reads or writes, and the readers of what it overwrites.
void hoist_in_block(std::vector<Instruction>& instructions, uint32_t first, uint32_t end) {
  const uint32_t count = end - first;
  std::vector<std::vector<uint32_t>> successors(count);
  std::vector<uint32_t> waiting_for(count, 0);
  const auto depend = [&](uint32_t earlier, uint32_t later) {
    successors[earlier].push_back(later);
    ++waiting_for[later];
  };
  std::vector<bool> fixed(count);
  // What each waits for through its registers (read after write, write after read or write),
  // within its run: what comes before the latest instruction that keeps its place is done first
  // whatever the order.
  std::vector<std::vector<uint32_t>> register_predecessors(count);
  std::map<uint32_t, uint32_t> last_writer;
  std::map<uint32_t, std::vector<uint32_t>> readers_since_write;
  uint32_t since_fixed = 0;  // the first instruction after the latest that keeps its place
  const auto depend_through_register = [&](uint32_t earlier, uint32_t later) {
    if (earlier >= since_fixed) register_predecessors[later].push_back(earlier);
    depend(earlier, later);
  };
  for (uint32_t j = 0; j < count; ++j) {
    const Instruction& instruction = instructions[first + j];
    const InstructionRegisters used = instruction_registers(instruction);
    fixed[j] = keeps_its_place(instruction);
    for (const uint32_t* reg = used.sources_begin(); reg != used.sources_end(); ++reg) {
      const auto writer = last_writer.find(*reg);
      if (writer != last_writer.end()) depend_through_register(writer->second, j);
    }
    for (const uint32_t* reg = used.destinations_begin(); reg != used.destinations_end(); ++reg) {
      const auto writer = last_writer.find(*reg);
      if (writer != last_writer.end()) depend_through_register(writer->second, j);
      for (uint32_t reader : readers_since_write[*reg])
        if (reader != j) depend_through_register(reader, j);
    }
    if (since_fixed > 0) depend(since_fixed - 1, j);
    if (fixed[j]) {
      for (uint32_t i = since_fixed; i < j; ++i) depend(i, j);
      since_fixed = j + 1;
    }
    for (const uint32_t* reg = used.sources_begin(); reg != used.sources_end(); ++reg)
      readers_since_write[*reg].push_back(j);
    for (const uint32_t* reg = used.destinations_begin(); reg != used.destinations_end(); ++reg) {
      last_writer[*reg] = j;
      readers_since_write[*reg].clear();
    }
  }

  std::vector<bool> feeds_load(count, false);
  for (uint32_t j = count; j-- > 0;) {
    if (is_far_load(instructions[first + j])) feeds_load[j] = true;
    if (!feeds_load[j] || fixed[j]) continue;
    for (uint32_t i : register_predecessors[j]) feeds_load[i] = true;
  }

  std::set<uint32_t> ready_feeders, ready_others;
  const auto make_ready = [&](uint32_t i) {
    (feeds_load[i] ? ready_feeders : ready_others).insert(i);
  };
  for (uint32_t i = 0; i < count; ++i)
    if (waiting_for[i] == 0) make_ready(i);
  std::vector<Instruction> block;
  block.reserve(count);
  while (!ready_feeders.empty() || !ready_others.empty()) {
    std::set<uint32_t>& from = ready_feeders.empty() ? ready_others : ready_feeders;
    const uint32_t next = *from.begin();
    from.erase(from.begin());
    for (uint32_t successor : successors[next])
      if (--waiting_for[successor] == 0) make_ready(successor);
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
