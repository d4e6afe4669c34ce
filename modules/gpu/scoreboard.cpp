#include "modules/gpu/scoreboard.h"

#include <algorithm>
#include <string>

#include "modules/common/errors.h"

namespace ohmvp::gpu {

namespace {

// Whether the instruction's first operand is what it writes. bar.red writes its reduction there;
// the other barriers and stackrestore only read theirs.
bool writes_first_operand(const Instruction& instruction) {
  switch (instruction.op) {
    case Opcode::bar:
      return instruction.mod.barrier == BarrierMode::reduce;
    case Opcode::st:
    case Opcode::sust:
    case Opcode::red:
    case Opcode::bra:
    case Opcode::call:
    case Opcode::ret:
    case Opcode::exit:
    case Opcode::trap:
    case Opcode::brkpt:
    case Opcode::nanosleep:
    case Opcode::membar:
    case Opcode::fence:
    case Opcode::prefetch:
    case Opcode::wmma_store_d:
    case Opcode::stackrestore:
      return false;
    default:
      return true;
  }
}

void add(std::array<uint32_t, InstructionRegisters::k_max_destinations>& list, uint8_t& count,
         uint32_t reg) {
  if (reg == no_register) return;
  if (count == list.size())
    throw SimulationError("instruction_registers: more than " + std::to_string(list.size()) +
                          " destination registers");
  list[count++] = reg;
}

void add(std::array<uint32_t, InstructionRegisters::k_max_sources>& list, uint8_t& count,
         uint32_t reg) {
  if (reg == no_register) return;
  if (count == list.size())
    throw SimulationError("instruction_registers: more than " + std::to_string(list.size()) +
                          " source registers");
  list[count++] = reg;
}

// Calls `use` for each register an operand names: a register, a vector's elements, or an
// address's base register.
template <class Use>
void for_each_register(const Operand& operand, Use use) {
  switch (operand.kind) {
    case Operand::Kind::reg:
    case Operand::Kind::address:
      use(operand.reg);
      break;
    case Operand::Kind::vector:
      for (uint8_t i = 0; i < operand.vector_count && i < operand.vector_regs.size(); ++i)
        use(operand.vector_regs[i]);
      break;
    default:
      break;
  }
}

}  // namespace

InstructionRegisters instruction_registers(const Instruction& instruction) {
  InstructionRegisters r;
  const bool has_destination = writes_first_operand(instruction) && instruction.operand_count > 0;
  const auto add_destination = [&](uint32_t reg) { add(r.destinations, r.destination_count, reg); };
  const auto add_source = [&](uint32_t reg) { add(r.sources, r.source_count, reg); };
  for (uint8_t i = 0; i < instruction.operand_count; ++i) {
    const Operand& operand = instruction.operands[i];
    // An address in the destination position (never produced by the parser) is still a read.
    if (i == 0 && has_destination && operand.kind != Operand::Kind::address)
      for_each_register(operand, add_destination);
    else
      for_each_register(operand, add_source);
  }
  if (has_destination) add_destination(instruction.dest_pred);
  add_source(instruction.guard_reg);
  if (instruction.mod.carry_in) add_source(k_carry_register);
  if (instruction.mod.carry_out) add_destination(k_carry_register);
  return r;
}

void set_hazard_words(InstructionRegisters& registers, uint32_t register_count) {
  registers.word_count = 0;
  registers.words_register_count = UINT32_MAX;
  const auto note = [&](uint32_t reg) {
    const uint32_t bit = reg == k_carry_register ? register_count : reg;
    if (bit > register_count || (reg != k_carry_register && reg == register_count)) return false;
    InstructionRegisters::Word* word = registers.words.data();
    InstructionRegisters::Word* const end = word + registers.word_count;
    while (word != end && word->index != bit / 64) ++word;
    if (word == end) {
      if (registers.word_count == InstructionRegisters::k_max_words) return false;
      *word = {bit / 64, 0};
      ++registers.word_count;
    }
    word->bits |= uint64_t{1} << (bit % 64);
    return true;
  };
  bool fits = true;
  for (const uint32_t* reg = registers.sources_begin(); reg != registers.sources_end(); ++reg)
    fits = fits && note(*reg);
  for (const uint32_t* reg = registers.destinations_begin(); reg != registers.destinations_end();
       ++reg)
    fits = fits && note(*reg);
  if (!fits) {
    registers.word_count = 0;
    return;
  }
  registers.words_register_count = register_count;
}

void Scoreboard::reset(uint32_t register_count) {
  m_register_count = register_count;
  m_pending.assign(size_t{register_count} / 64 + 1, 0);
  m_pending_count = 0;
  ++m_release_count;
}

void Scoreboard::throw_outside(uint32_t reg) const {
  throw SimulationError("scoreboard: register " + std::to_string(reg) + " is outside the warp's " +
                        std::to_string(m_register_count) + " registers");
}

void Scoreboard::throw_pending(uint32_t reg) const {
  throw SimulationError("scoreboard: register " + std::to_string(reg) +
                        " reserved while a write to it is pending");
}

void Scoreboard::throw_not_pending(uint32_t reg) const {
  throw SimulationError("scoreboard: release of register " + std::to_string(reg) +
                        " that has no pending write");
}

void Scoreboard::reserve_many(const InstructionRegisters& registers) {
  const uint32_t* begin = registers.destinations_begin();
  const uint32_t* end = registers.destinations_end();
  for (const uint32_t* reg = begin; reg != end; ++reg)
    if (pending(*reg)) throw_pending(*reg);
  // A register named twice among one instruction's destinations is reserved once.
  for (const uint32_t* reg = begin; reg != end; ++reg) {
    if (!pending(*reg)) {
      set(index(*reg));
      ++m_pending_count;
    }
  }
}

void Scoreboard::release_many(const InstructionRegisters& registers) {
  const uint32_t* begin = registers.destinations_begin();
  const uint32_t* end = registers.destinations_end();
  for (const uint32_t* reg = begin; reg != end; ++reg) {
    if (std::find(begin, reg, *reg) != reg) continue;
    release(*reg);
  }
}

}  // namespace ohmvp::gpu
