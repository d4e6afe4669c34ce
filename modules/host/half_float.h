#pragma once

#include <cstdint>

namespace ohmvp {

// IEEE 754 binary16 conversions, as cvt.rn.f16.f32 / cvt.f32.f16 perform them: round to nearest
// even, overflow to infinity, subnormals kept, NaN stays NaN (quiet).
uint16_t double_to_half_bits(double value);
inline uint16_t float_to_half_bits(float value) {
  return double_to_half_bits(value);
}
float half_bits_to_float(uint16_t bits);

}  // namespace ohmvp
