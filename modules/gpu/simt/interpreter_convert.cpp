#include <cmath>

#include "modules/gpu/simt/half.h"
#include "modules/gpu/simt/interpreter_internal.h"

namespace ohmvp::gpu::detail {
namespace {

using s128 = __int128;

bool is_half_type(DataType type) {
  return type == DataType::f16 || type == DataType::bf16 || type == DataType::f16x2 ||
         type == DataType::bf16x2;
}
bool is_bfloat(DataType type) {
  return type == DataType::bf16 || type == DataType::bf16x2;
}

template <class T>
T flush(T value, bool ftz) {
  return ftz && std::fpclassify(value) == FP_SUBNORMAL ? std::copysign(T{0}, value) : value;
}

// `.ftz` on cvt applies only to .f32 inputs and results (PTX ISA, cvt): f16 and bf16 subnormals
// convert as they are.
double float_source(uint64_t bits, DataType type, bool ftz) {
  switch (type) {
    case DataType::f16:
      return f16_to_f64(static_cast<uint16_t>(bits));
    case DataType::bf16:
      return bf16_to_f64(static_cast<uint16_t>(bits));
    case DataType::f32:
      return static_cast<double>(flush(as_f32(bits), ftz));
    default:
      return as_f64(bits);
  }
}

double round_integral(double value, RoundingMode mode) {
  switch (mode) {
    case RoundingMode::rzi:
      return std::trunc(value);
    case RoundingMode::rmi:
      return std::floor(value);
    case RoundingMode::rpi:
      return std::ceil(value);
    default:
      return std::nearbyint(value);  // rni: nearest even (the host is in round-to-nearest)
  }
}

bool is_integral_mode(RoundingMode mode) {
  return mode == RoundingMode::rni || mode == RoundingMode::rzi || mode == RoundingMode::rmi ||
         mode == RoundingMode::rpi;
}

// float -> integer: PTX's required rounding (rni/rzi/rmi/rpi; the plain modes are taken as their
// integral forms, none as rzi), then saturation to the destination range. A NaN gives 0, but from
// an .f64 source or into a 64-bit integer the value with only the top bit set (MININT for signed
// types; PTX ISA, cvt).
uint64_t float_to_int(double value, DataType source, DataType destination, RoundingMode mode) {
  if (std::isnan(value)) {
    const unsigned bits = type_bits(destination);
    return source == DataType::f64 || bits == 64 ? uint64_t{1} << (bits - 1) : 0;
  }
  switch (mode) {
    case RoundingMode::rn:
      mode = RoundingMode::rni;
      break;
    case RoundingMode::rz:
    case RoundingMode::none:
      mode = RoundingMode::rzi;
      break;
    case RoundingMode::rm:
      mode = RoundingMode::rmi;
      break;
    case RoundingMode::rp:
      mode = RoundingMode::rpi;
      break;
    default:
      break;
  }
  const double integral = round_integral(value, mode);
  const unsigned bits = type_bits(destination);
  if (is_signed_int(destination)) {
    const double limit = std::ldexp(1.0, static_cast<int>(bits) - 1);
    if (integral >= limit) return static_cast<uint64_t>(width_mask(bits - 1));
    if (integral < -limit) return ~width_mask(bits - 1);  // the most negative value
    return static_cast<uint64_t>(static_cast<int64_t>(integral));
  }
  if (integral <= 0) return 0;
  if (integral >= std::ldexp(1.0, static_cast<int>(bits))) return width_mask(bits);
  return static_cast<uint64_t>(integral);
}

// An integer as binary64 rounded to odd: exact below 2^53; above, the dropped bits stick to the
// lowest kept bit, so one more rounding to <= 51 bits (f16, bf16) is correct in every mode.
double int_to_double_odd(uint64_t magnitude) {
  if (magnitude < (uint64_t{1} << 53)) return static_cast<double>(magnitude);
  const int shift = 64 - __builtin_clzll(magnitude) - 53;
  uint64_t kept = magnitude >> shift;
  if (magnitude & width_mask(static_cast<unsigned>(shift))) kept |= 1;
  return std::ldexp(static_cast<double>(kept), shift);
}

uint64_t narrow_to(double value, DataType destination, RoundingMode mode) {
  return is_bfloat(destination) ? f64_to_bf16(value, mode) : f64_to_f16(value, mode);
}

double saturate(double value) {
  if (std::isnan(value)) return 0.0;
  return value <= 0.0 ? 0.0 : value > 1.0 ? 1.0 : value;  // -0.0 too gives +0.0
}

}  // namespace

void execute_convert(Exec& x) {
  const Instruction& in = x.instruction;
  const DataType destination = in.type, source = in.source_type;
  const bool ftz = in.mod.ftz, sat = in.mod.sat;
  const RoundingMode mode = in.mod.rounding;
  const RoundingMode float_mode =
      mode == RoundingMode::none || is_integral_mode(mode) ? RoundingMode::rn : mode;
  const bool destination_float = is_float(destination), source_float = is_float(source);

  if (destination == DataType::f16x2 || destination == DataType::bf16x2) {
    // cvt.rn.f16x2.f32 d, a, b: a to the upper half, b to the lower.
    for_each_lane(x.lanes, [&](uint32_t lane) {
      double a = float_source(read(x, 1, lane), source, ftz),
             b = float_source(read(x, 2, lane), source, ftz);
      if (sat) a = saturate(a), b = saturate(b);
      write(x, lane,
            (narrow_to(a, destination, float_mode) << 16) | narrow_to(b, destination, float_mode));
    });
    return;
  }

  const unsigned source_bits = type_bits(source);
  if (!destination_float && !source_float) {
    const unsigned destination_bits = type_bits(destination);
    for_each_lane(x.lanes, [&](uint32_t lane) {
      const uint64_t raw = read(x, 1, lane);
      const s128 value = is_signed_int(source) ? s128{sign_extend(raw, source_bits)}
                                               : s128{raw & width_mask(source_bits)};
      uint64_t result = static_cast<uint64_t>(value);
      if (sat) {
        s128 low = 0, high = s128{width_mask(destination_bits)};
        if (is_signed_int(destination)) {
          high = s128{width_mask(destination_bits - 1)};
          low = -high - 1;
        }
        result = static_cast<uint64_t>(value < low ? low : value > high ? high : value);
      }
      write(x, lane, int_image(destination, result));
    });
    return;
  }
  if (source_float && !destination_float) {
    for_each_lane(x.lanes, [&](uint32_t lane) {
      const double value = float_source(read(x, 1, lane), source, ftz);
      write(x, lane, int_image(destination, float_to_int(value, source, destination, mode)));
    });
    return;
  }
  if (!source_float) {  // integer -> float
    ScopedRounding rounding(float_mode);
    for_each_lane(x.lanes, [&](uint32_t lane) {
      const uint64_t raw = read(x, 1, lane);
      const bool negative = is_signed_int(source) && sign_extend(raw, source_bits) < 0;
      const uint64_t magnitude =
          is_signed_int(source)
              ? (negative ? 0 - static_cast<uint64_t>(sign_extend(raw, source_bits))
                          : raw & width_mask(source_bits))
              : raw & width_mask(source_bits);
      uint64_t result;
      if (destination == DataType::f32) {
        float value = is_signed_int(source) ? static_cast<float>(sign_extend(raw, source_bits))
                                            : static_cast<float>(magnitude);
        if (sat) value = static_cast<float>(saturate(value));
        result = f32_bits(value);
      } else if (destination == DataType::f64) {
        double value = is_signed_int(source) ? static_cast<double>(sign_extend(raw, source_bits))
                                             : static_cast<double>(magnitude);
        if (sat) value = saturate(value);
        result = f64_bits(value);
      } else {
        double value = int_to_double_odd(magnitude);
        if (negative) value = -value;
        if (sat) value = saturate(value);
        result = narrow_to(value, destination, float_mode);
      }
      write(x, lane, result);
    });
    return;
  }
  // float -> float
  ScopedRounding rounding(float_mode);
  for_each_lane(x.lanes, [&](uint32_t lane) {
    double value = float_source(read(x, 1, lane), source, ftz);
    if (is_integral_mode(mode)) value = round_integral(value, mode);
    if (sat) value = saturate(value);
    uint64_t result;
    switch (destination) {
      case DataType::f64:
        // The canonical NaN, as every other f64 operation gives (floor and trunc keep a
        // signalling NaN's bits, and a widened f32 NaN keeps its payload).
        result = std::isnan(value) ? 0x7fffffffffffffff : f64_bits(value);
        break;
      case DataType::f32: {
        const float narrowed = flush(static_cast<float>(value), ftz);
        result = std::isnan(narrowed) ? 0x7fffffff : f32_bits(narrowed);
        break;
      }
      default:
        result = is_half_type(destination) ? narrow_to(value, destination, float_mode) : 0;
    }
    write(x, lane, result);
  });
}

}  // namespace ohmvp::gpu::detail
