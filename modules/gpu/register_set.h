#pragma once

#include <cstdint>
#include <vector>

#include "modules/gpu/lane_mask.h"

namespace ohmvp::gpu {

// A set of a function's registers, one bit each, for the dataflow analyses over its code.
class RegisterSet {
 public:
  RegisterSet(uint32_t count, bool full) : m_words((count + 63) / 64, full ? ~uint64_t{0} : 0) {}
  bool has(uint32_t reg) const { return (m_words[reg / 64] >> (reg % 64)) & 1; }
  void add(uint32_t reg) { m_words[reg / 64] |= uint64_t{1} << (reg % 64); }
  void remove(uint32_t reg) { m_words[reg / 64] &= ~(uint64_t{1} << (reg % 64)); }
  void intersect(const RegisterSet& other) {
    for (size_t i = 0; i < m_words.size(); ++i) m_words[i] &= other.m_words[i];
  }
  void unite(const RegisterSet& other) {
    for (size_t i = 0; i < m_words.size(); ++i) m_words[i] |= other.m_words[i];
  }
  bool operator!=(const RegisterSet& other) const { return m_words != other.m_words; }

  template <typename Visit>
  void for_each(Visit visit) const {
    for (size_t i = 0; i < m_words.size(); ++i)
      for_each_lane(m_words[i], [&](uint32_t bit) { visit(static_cast<uint32_t>(i * 64 + bit)); });
  }

 private:
  std::vector<uint64_t> m_words;
};

}  // namespace ohmvp::gpu
