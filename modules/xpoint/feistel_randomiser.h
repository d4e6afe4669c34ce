#pragma once

#include <cstdint>

namespace ohmvp {

// A static bijection of [0, lines) keyed by a seed, placed in front of Start-Gap so that
// spatially clustered hot lines land in different regions and far apart within one
// (Qureshi et al., "Randomized Start-Gap"). A balanced four-round Feistel network permutes
// [0, 2^(2h)), the smallest even power of two >= lines; values that fall outside [0, lines) are
// mapped again until they fall inside (cycle walking), which keeps it a bijection of [0, lines).
// No table: a few multiplications per translation.
class FeistelRandomiser {
 public:
  static constexpr unsigned rounds = 4;

  // lines >= 1 (std::invalid_argument otherwise).
  FeistelRandomiser(uint64_t lines, uint64_t seed);

  uint64_t forward(uint64_t line) const {
    do line = permute(line);
    while (line >= m_lines);
    return line;
  }
  uint64_t inverse(uint64_t line) const {
    do line = unpermute(line);
    while (line >= m_lines);
    return line;
  }

  uint64_t lines() const { return m_lines; }

 private:
  uint64_t round(uint64_t half, unsigned r) const;
  uint64_t permute(uint64_t value) const;
  uint64_t unpermute(uint64_t value) const;

  uint64_t m_lines;
  unsigned m_half_bits;
  uint64_t m_half_mask;
  uint64_t m_keys[rounds];
};

}  // namespace ohmvp
