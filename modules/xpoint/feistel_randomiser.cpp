#include "modules/xpoint/feistel_randomiser.h"

#include <stdexcept>

#include "modules/common/random.h"

namespace ohmvp {

FeistelRandomiser::FeistelRandomiser(uint64_t lines, uint64_t seed) : m_lines(lines) {
  if (lines == 0) throw std::invalid_argument("FeistelRandomiser: needs at least one line");
  unsigned bits = 0;
  while (bits < 64 && (uint64_t{1} << bits) < lines) ++bits;
  m_half_bits = (bits + 1) / 2;
  if (m_half_bits == 0) m_half_bits = 1;
  m_half_mask = (uint64_t{1} << m_half_bits) - 1;
  for (unsigned r = 0; r < rounds; ++r) m_keys[r] = mix64(seed * rounds + r + 1);
}

uint64_t FeistelRandomiser::round(uint64_t half, unsigned r) const {
  return mix64(half ^ m_keys[r]) & m_half_mask;
}

uint64_t FeistelRandomiser::permute(uint64_t value) const {
  uint64_t left = value >> m_half_bits;
  uint64_t right = value & m_half_mask;
  for (unsigned r = 0; r < rounds; ++r) {
    const uint64_t next = left ^ round(right, r);
    left = right;
    right = next;
  }
  return (left << m_half_bits) | right;
}

uint64_t FeistelRandomiser::unpermute(uint64_t value) const {
  uint64_t left = value >> m_half_bits;
  uint64_t right = value & m_half_mask;
  for (unsigned r = rounds; r-- > 0;) {
    const uint64_t previous = right ^ round(left, r);
    right = left;
    left = previous;
  }
  return (left << m_half_bits) | right;
}

}  // namespace ohmvp
