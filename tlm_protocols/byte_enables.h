#pragma once

#include <cstdint>
#include <tlm>
#include <vector>

namespace ohmvp {

// A payload's byte enables with the pattern repeated to one entry per data byte (empty when it
// has none), so that a payload split into pieces can give each piece its own slice.
inline std::vector<uint8_t> unrolled_byte_enables(const tlm::tlm_generic_payload& payload) {
  std::vector<uint8_t> enables;
  const uint8_t* pattern = payload.get_byte_enable_ptr();
  if (pattern == nullptr) return enables;
  const uint32_t period = payload.get_byte_enable_length();
  enables.resize(payload.get_data_length());
  for (uint32_t i = 0; i < enables.size(); ++i) enables[i] = pattern[i % period];
  return enables;
}

}  // namespace ohmvp
