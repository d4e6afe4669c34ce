#pragma once

#include <cstdint>
#include <optional>

namespace ohmvp {

// A copy the media must perform when the gap moves: the line at `from` goes to `to` (the old
// gap), and `from` becomes the new gap.
struct GapMove {
  uint64_t from;
  uint64_t to;
};

// Start-Gap wear levelling over one region (Qureshi et al., MICRO 2009): N logical lines live in
// N + 1 physical lines, one of which (the gap) holds nothing. Two registers replace a mapping
// table: PA = (LA + Start) mod N, plus one if PA >= Gap. Every psi writes the gap moves down by
// one line (the line above it is copied into it); when it reaches line 0 the line N is copied
// into 0, the gap returns to N and Start advances, so every (N + 1) * psi writes all logical
// lines have shifted by one physical line.
class StartGap {
 public:
  // lines >= 1, psi >= 1 (std::invalid_argument otherwise).
  StartGap(uint64_t lines, uint32_t psi);

  uint64_t to_physical(uint64_t logical) const {
    uint64_t physical = logical + m_start;
    if (physical >= m_lines) physical -= m_lines;
    return physical >= m_gap ? physical + 1 : physical;
  }

  // Counts one write to the region. On every psi-th one the gap moves; the returned copy is what
  // the media must now do (the registers already describe the new mapping).
  std::optional<GapMove> count_write() {
    if (++m_writes_since_move < m_psi) return std::nullopt;
    m_writes_since_move = 0;
    return move_gap();
  }

  // Sets the registers directly, for tests that walk every (Start, Gap). start < lines,
  // gap <= lines (std::invalid_argument otherwise).
  void set_registers(uint64_t start, uint64_t gap);

  uint64_t lines() const { return m_lines; }
  uint64_t physical_lines() const { return m_lines + 1; }
  uint64_t start() const { return m_start; }
  uint64_t gap() const { return m_gap; }
  uint64_t moves() const { return m_moves; }

 private:
  GapMove move_gap();

  uint64_t m_lines;
  uint32_t m_psi;
  uint64_t m_start = 0;
  uint64_t m_gap;
  uint32_t m_writes_since_move = 0;
  uint64_t m_moves = 0;
};

}  // namespace ohmvp
