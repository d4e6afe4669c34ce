#pragma once

#include <cstdint>

#include "modules/common/bit_cast.h"

namespace ohmvp::gpu {

// Floats as register images: an .f32 in the low 32 bits of a register, an .f64 in all 64.
inline float as_f32(uint64_t bits) {
  return bit_cast<float>(static_cast<uint32_t>(bits));
}
inline double as_f64(uint64_t bits) {
  return bit_cast<double>(bits);
}
inline uint64_t f32_bits(float value) {
  return bit_cast<uint32_t>(value);
}
inline uint64_t f64_bits(double value) {
  return bit_cast<uint64_t>(value);
}

// The NaN the arithmetic instructions give for any NaN result.
constexpr uint64_t canonical_f32_nan = 0x7fffffff;
constexpr uint64_t canonical_f64_nan = 0x7fffffffffffffffULL;

}  // namespace ohmvp::gpu
