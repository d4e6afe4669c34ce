#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "modules/gpu/ptx/instruction.h"

namespace ohmvp::gpu {

// The carry flag that add.cc/addc/sub.cc/subc/mad.cc/madc pass along, tracked by the scoreboard
// like a register. It is not a PTX register index; the scoreboard keeps it after the last one.
constexpr uint32_t k_carry_register = UINT32_MAX - 1;

// The registers an instruction writes and reads, for issue and the scoreboard. `_` operands
// and absent vector elements are left out; a register may appear more than once as a source.
struct InstructionRegisters {
  static constexpr size_t k_max_destinations = 8;
  static constexpr size_t k_max_sources = 32;

  std::array<uint32_t, k_max_destinations> destinations{};
  std::array<uint32_t, k_max_sources> sources{};
  uint8_t destination_count = 0;
  uint8_t source_count = 0;

  // Every register above as bits of a Scoreboard's pending words, for a scoreboard of
  // `words_register_count` registers (see set_hazard_words): word index and bits, one entry per
  // word touched. word_count 0 with words_register_count UINT32_MAX: not set, or more words than
  // there are entries, or a register outside that count (the scoreboard then checks register by
  // register, and throws for the one outside).
  static constexpr size_t k_max_words = 4;
  struct Word {
    uint32_t index = 0;
    uint64_t bits = 0;
  };
  std::array<Word, k_max_words> words{};
  uint8_t word_count = 0;
  uint32_t words_register_count = UINT32_MAX;

  const uint32_t* destinations_begin() const { return destinations.data(); }
  const uint32_t* destinations_end() const { return destinations.data() + destination_count; }
  const uint32_t* sources_begin() const { return sources.data(); }
  const uint32_t* sources_end() const { return sources.data() + source_count; }
};

// Which operands are written and which read, by opcode:
// - st, red, bar, bra, call, ret, exit, trap, brkpt, nanosleep, membar, fence, prefetch and
//   wmma.store.d write no register: all their register operands are sources.
// - Every other instruction writes operand 0 (a register or, for ld/ldu/tex/atom/wmma loads and
//   mov unpack, every register of a vector) and reads the rest; setp and shfl.sync also write
//   `dest_pred`.
// - The base register of an address operand, the registers of vector sources and the guard
//   predicate are sources.
// - `.cc` writes the carry pseudo-register, addc/subc/madc read it.
InstructionRegisters instruction_registers(const Instruction& instruction);

// Fills `registers.words` for scoreboards reset to `register_count` registers (the carry flag
// is bit register_count), so that has_hazard() tests whole words instead of each register.
void set_hazard_words(InstructionRegisters& registers, uint32_t register_count);

// One warp's pending register writes. reserve() at issue marks the destinations pending,
// release() at writeback clears them; has_hazard() is true while an instruction would read a
// pending register (RAW) or write one (WAW). Sized per warp with reset(); no allocation after
// that unless a later warp uses a function with more registers.
class Scoreboard {
 public:
  void reset(uint32_t register_count);

  // Inline: the warp schedulers ask it for every candidate warp every cycle.
  bool has_hazard(const InstructionRegisters& registers) const {
    if (registers.words_register_count == m_register_count) {
      for (uint8_t i = 0; i < registers.word_count; ++i)
        if (m_pending[registers.words[i].index] & registers.words[i].bits) return true;
      return false;
    }
    for (const uint32_t* reg = registers.sources_begin(); reg != registers.sources_end(); ++reg)
      if (pending(*reg)) return true;
    for (const uint32_t* reg = registers.destinations_begin(); reg != registers.destinations_end();
         ++reg)
      if (pending(*reg)) return true;
    return false;
  }
  bool pending(uint32_t reg) const {
    const size_t i = index(reg);
    return (m_pending[i / 64] >> (i % 64)) & 1;
  }
  uint32_t pending_count() const { return m_pending_count; }
  // Counts the writes released since reset(): a hazard seen at one count holds until it changes
  // (reserve() only adds pending registers).
  uint64_t release_count() const { return m_release_count; }

  // Throws SimulationError when a destination is already pending (issue must check first).
  // Inline for the usual single destination: every issue of a result reserves it.
  void reserve(const InstructionRegisters& registers) {
    if (registers.destination_count != 1) return reserve_many(registers);
    const size_t i = index(registers.destinations[0]);
    if (is_set(i)) throw_pending(registers.destinations[0]);
    set(i);
    ++m_pending_count;
  }
  // Throws SimulationError when a destination is not pending. Inline like reserve().
  void release(const InstructionRegisters& registers) {
    if (registers.destination_count != 1) return release_many(registers);
    release(registers.destinations[0]);
  }
  void release(uint32_t reg) {
    const size_t i = index(reg);
    if (!is_set(i)) throw_not_pending(reg);
    clear(i);
    --m_pending_count;
    ++m_release_count;
  }

 private:
  size_t index(uint32_t reg) const {
    if (reg == k_carry_register) return m_register_count;
    if (reg >= m_register_count) throw_outside(reg);
    return reg;
  }
  [[noreturn]] void throw_outside(uint32_t reg) const;
  [[noreturn]] void throw_pending(uint32_t reg) const;
  [[noreturn]] void throw_not_pending(uint32_t reg) const;
  void reserve_many(const InstructionRegisters& registers);
  void release_many(const InstructionRegisters& registers);
  bool is_set(size_t i) const { return (m_pending[i / 64] >> (i % 64)) & 1; }
  void set(size_t i) { m_pending[i / 64] |= uint64_t{1} << (i % 64); }
  void clear(size_t i) { m_pending[i / 64] &= ~(uint64_t{1} << (i % 64)); }

  std::vector<uint64_t> m_pending;  // one bit per register, then the carry flag
  uint32_t m_register_count = 0;
  uint32_t m_pending_count = 0;
  uint64_t m_release_count = 0;
};

}  // namespace ohmvp::gpu
