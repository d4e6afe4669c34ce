#include "modules/gpu/simt/half.h"

#include "modules/gpu/ptx/float_bits.h"

namespace ohmvp::gpu {
namespace {

struct SmallFormat {
  int fraction_bits;
  int exponent_bits;
};

constexpr SmallFormat half_format{10, 5};
constexpr SmallFormat bfloat_format{7, 8};

// Widening is exact: rebuild the binary64 pattern from the fields.
double widen(uint16_t bits, SmallFormat format) {
  const int fraction_bits = format.fraction_bits;
  const int bias = (1 << (format.exponent_bits - 1)) - 1;
  const uint64_t sign = static_cast<uint64_t>(bits >> 15) << 63;
  const uint32_t exponent = (bits >> fraction_bits) & ((1u << format.exponent_bits) - 1);
  uint64_t fraction = bits & ((1u << fraction_bits) - 1);
  const uint32_t max_exponent = (1u << format.exponent_bits) - 1;
  if (exponent == max_exponent) {
    const uint64_t payload = fraction << (52 - fraction_bits);
    return as_f64(sign | (uint64_t{0x7ff} << 52) | (fraction ? payload | (uint64_t{1} << 51) : 0));
  }
  if (exponent == 0) {
    if (fraction == 0) return as_f64(sign);
    // Subnormal: normalise into binary64's wider exponent range.
    int e = 1 - bias;
    while (!(fraction & (uint64_t{1} << fraction_bits))) {
      fraction <<= 1;
      --e;
    }
    fraction &= (uint64_t{1} << fraction_bits) - 1;
    return as_f64(sign | (static_cast<uint64_t>(e + 1023) << 52) |
                  (fraction << (52 - fraction_bits)));
  }
  const int e = static_cast<int>(exponent) - bias;
  return as_f64(sign | (static_cast<uint64_t>(e + 1023) << 52) |
                (fraction << (52 - fraction_bits)));
}

// Rounds the binary64 value exactly once into the small format.
uint16_t narrow(double value, SmallFormat format, RoundingMode mode) {
  const uint64_t bits = f64_bits(value);
  const bool negative = bits >> 63;
  const uint16_t sign = negative ? 0x8000 : 0;
  const int raw_exponent = static_cast<int>((bits >> 52) & 0x7ff);
  uint64_t significand = bits & ((uint64_t{1} << 52) - 1);
  const int fraction_bits = format.fraction_bits;
  const int bias = (1 << (format.exponent_bits - 1)) - 1;
  const uint16_t infinity =
      static_cast<uint16_t>(((1u << format.exponent_bits) - 1) << fraction_bits);
  const uint16_t largest = static_cast<uint16_t>(infinity - 1);

  if (raw_exponent == 0x7ff) return significand ? canonical_half_nan : (sign | infinity);
  if (raw_exponent == 0 && significand == 0) return sign;

  int exponent;  // value = significand * 2^(exponent - 52)
  if (raw_exponent == 0) {
    exponent = -1022;
  } else {
    exponent = raw_exponent - 1023;
    significand |= uint64_t{1} << 52;
  }
  // Quantum of the result: 2^(exponent - fraction_bits) for normals, fixed for subnormals.
  const int min_exponent = 1 - bias;
  const int quantum = (exponent >= min_exponent ? exponent : min_exponent) - fraction_bits;
  const int shift = quantum - (exponent - 52);  // bits of `significand` below the quantum
  uint64_t kept;
  bool half_bit, sticky;
  if (shift >= 64) {  // the significand has 53 bits: all of it is below the half bit
    kept = 0;
    half_bit = false;
    sticky = true;
  } else {
    kept = significand >> shift;
    half_bit = (significand >> (shift - 1)) & 1;
    sticky = (significand & ((uint64_t{1} << (shift - 1)) - 1)) != 0;
  }
  const bool inexact = half_bit || sticky;
  bool round_up = false;
  switch (mode) {
    case RoundingMode::rz:
    case RoundingMode::rzi:
      round_up = false;
      break;
    case RoundingMode::rm:
    case RoundingMode::rmi:
      round_up = negative && inexact;
      break;
    case RoundingMode::rp:
    case RoundingMode::rpi:
      round_up = !negative && inexact;
      break;
    default:
      round_up = half_bit && (sticky || (kept & 1));
      break;
  }
  if (round_up) ++kept;

  uint32_t encoded;
  if (exponent < min_exponent || kept < (uint64_t{1} << fraction_bits)) {
    // Subnormal (kept == 2^fraction_bits encodes the smallest normal by itself).
    encoded = static_cast<uint32_t>(kept);
  } else {
    int e = exponent;
    if (kept == (uint64_t{2} << fraction_bits)) {
      kept >>= 1;
      ++e;
    }
    const int biased = e + bias;
    if (biased >= (1 << format.exponent_bits) - 1) {
      const bool to_infinity = mode == RoundingMode::rz || mode == RoundingMode::rzi   ? false
                               : mode == RoundingMode::rm || mode == RoundingMode::rmi ? negative
                               : mode == RoundingMode::rp || mode == RoundingMode::rpi ? !negative
                                                                                       : true;
      return sign | (to_infinity ? infinity : largest);
    }
    encoded = (static_cast<uint32_t>(biased) << fraction_bits) |
              static_cast<uint32_t>(kept & ((uint64_t{1} << fraction_bits) - 1));
  }
  return static_cast<uint16_t>(sign | encoded);
}

}  // namespace

float f16_to_f32(uint16_t bits) {
  return static_cast<float>(widen(bits, half_format));
}
double f16_to_f64(uint16_t bits) {
  return widen(bits, half_format);
}
float bf16_to_f32(uint16_t bits) {
  return static_cast<float>(widen(bits, bfloat_format));
}
double bf16_to_f64(uint16_t bits) {
  return widen(bits, bfloat_format);
}

uint16_t f32_to_f16(float value, RoundingMode mode) {
  return narrow(static_cast<double>(value), half_format, mode);
}
uint16_t f64_to_f16(double value, RoundingMode mode) {
  return narrow(value, half_format, mode);
}
uint16_t f32_to_bf16(float value, RoundingMode mode) {
  return narrow(static_cast<double>(value), bfloat_format, mode);
}
uint16_t f64_to_bf16(double value, RoundingMode mode) {
  return narrow(value, bfloat_format, mode);
}

}  // namespace ohmvp::gpu
