#pragma once

#include <cstdint>

namespace ohmvp {

// 1, 2, 4, 8, ...; not 0.
constexpr bool is_power_of_two(uint64_t value) {
  return value != 0 && (value & (value - 1)) == 0;
}

}  // namespace ohmvp
