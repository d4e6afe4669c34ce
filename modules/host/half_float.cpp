#include "modules/host/half_float.h"

#include <cmath>

#include "modules/common/bit_cast.h"

namespace ohmvp {

uint16_t double_to_half_bits(double value) {
  const uint64_t bits = bit_cast<uint64_t>(value);
  const uint16_t sign = static_cast<uint16_t>((bits >> 48) & 0x8000u);
  if (std::isnan(value)) return sign | 0x7E00u;
  const double magnitude = std::fabs(value);
  if (magnitude >= 65520.0) return sign | 0x7C00u;  // rounds past the largest finite half
  if (magnitude < 0x1.0p-14) {
    // Subnormal range: a multiple of 2^-24; nearbyint rounds half to even in the default mode.
    const double units = std::nearbyint(magnitude * 0x1.0p24);
    return sign | static_cast<uint16_t>(units);  // 1024 units is the smallest normal: still right
  }
  int exponent;
  const double fraction = std::frexp(magnitude, &exponent);  // magnitude = fraction * 2^exponent
  // 11 significant bits: scale the fraction [0.5, 1) to [1024, 2048) and round to even.
  double significand = std::nearbyint(fraction * 2048.0);
  if (significand == 2048.0) {
    significand = 1024.0;
    ++exponent;
  }
  const int biased = exponent - 1 + 15;
  if (biased >= 31) return sign | 0x7C00u;
  return sign | static_cast<uint16_t>((biased << 10) | (static_cast<uint16_t>(significand) - 1024));
}

float half_bits_to_float(uint16_t bits) {
  const float sign = (bits & 0x8000u) ? -1.0f : 1.0f;
  const int exponent = (bits >> 10) & 0x1F;
  const int mantissa = bits & 0x3FF;
  if (exponent == 0) return sign * std::ldexp(static_cast<float>(mantissa), -24);
  if (exponent == 31) return mantissa ? std::nanf("") : sign * INFINITY;
  return sign * std::ldexp(static_cast<float>(1024 + mantissa), exponent - 25);
}

}  // namespace ohmvp
