#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace ohmvp {

// "0x1f400": how messages write an address.
inline std::string hex_text(uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
  return text;
}

}  // namespace ohmvp
