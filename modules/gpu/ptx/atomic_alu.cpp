#include "modules/gpu/ptx/atomic_alu.h"

#include <cmath>
#include <cstring>
#include <stdexcept>

namespace ohmvp::gpu {
namespace {

template <class T>
T bits_to(uint64_t bits) {
  T value;
  std::memcpy(&value, &bits, sizeof(T));
  return value;
}

template <class T>
uint64_t to_bits(T value) {
  uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof(T));
  return bits;
}

// atom.add.f32 flushes subnormal inputs and results to sign-preserving zero (PTX ISA, atom).
float flush_subnormal(float value) {
  return std::fpclassify(value) == FP_SUBNORMAL ? std::copysign(0.0f, value) : value;
}

// IEEE binary16 <-> binary32 with round to nearest even, for atom.add.noftz.f16x2.
float half_to_float(uint16_t half) {
  const uint32_t sign = (half >> 15) & 1u, exponent = (half >> 10) & 0x1fu, mantissa = half & 0x3ffu;
  float magnitude;
  if (exponent == 0)
    magnitude = std::ldexp(static_cast<float>(mantissa), -24);
  else if (exponent == 31)
    magnitude = mantissa ? NAN : INFINITY;
  else
    magnitude = std::ldexp(static_cast<float>(mantissa | 0x400u), static_cast<int>(exponent) - 25);
  return sign ? -magnitude : magnitude;
}

uint16_t float_to_half(float value) {
  const uint32_t bits = static_cast<uint32_t>(to_bits(value));
  const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  if (std::isnan(value)) return sign | 0x7e00u;
  const float magnitude = std::fabs(value);
  if (magnitude >= 65520.0f) return sign | 0x7c00u;  // rounds to infinity
  if (magnitude < std::ldexp(1.0f, -14)) {
    // Subnormal: units of 2^-24, rounded to nearest even by the FPU's default mode.
    const float units = std::nearbyint(magnitude * 16777216.0f);
    return sign | static_cast<uint16_t>(units);
  }
  int exponent;
  const float fraction = std::frexp(magnitude, &exponent);  // magnitude = fraction * 2^exponent
  float mantissa = std::nearbyint(std::ldexp(fraction, 11)); // 11 significant bits
  if (mantissa >= 2048.0f) {
    mantissa /= 2.0f;
    ++exponent;
  }
  const uint32_t biased = static_cast<uint32_t>(exponent - 1 + 15);
  if (biased >= 31) return sign | 0x7c00u;
  return sign | static_cast<uint16_t>((biased << 10) | (static_cast<uint32_t>(mantissa) & 0x3ffu));
}

uint64_t add_half2(uint64_t a, uint64_t b) {
  uint64_t result = 0;
  for (int half = 0; half < 2; ++half) {
    const int shift = 16 * half;
    const float sum = half_to_float(static_cast<uint16_t>(a >> shift)) +
                      half_to_float(static_cast<uint16_t>(b >> shift));
    result |= static_cast<uint64_t>(float_to_half(sum)) << shift;
  }
  return result;
}

template <class T>
uint64_t integer_result(AtomicOp op, uint64_t old_bits, uint64_t b_bits, uint64_t c_bits) {
  const T old_value = bits_to<T>(old_bits), b = bits_to<T>(b_bits), c = bits_to<T>(c_bits);
  switch (op) {
    case AtomicOp::add: return to_bits<T>(static_cast<T>(old_value + b));
    case AtomicOp::min: return to_bits<T>(b < old_value ? b : old_value);
    case AtomicOp::max: return to_bits<T>(b > old_value ? b : old_value);
    case AtomicOp::and_: return to_bits<T>(static_cast<T>(old_value & b));
    case AtomicOp::or_: return to_bits<T>(static_cast<T>(old_value | b));
    case AtomicOp::xor_: return to_bits<T>(static_cast<T>(old_value ^ b));
    case AtomicOp::exch: return to_bits<T>(b);
    case AtomicOp::cas: return to_bits<T>(old_value == b ? c : old_value);
    case AtomicOp::inc: return to_bits<T>(old_value >= b ? T{0} : static_cast<T>(old_value + 1));
    case AtomicOp::dec:
      return to_bits<T>(old_value == 0 || old_value > b ? b : static_cast<T>(old_value - 1));
    case AtomicOp::none: break;
  }
  throw std::invalid_argument("atomic operation without an operator");
}

template <class T>
uint64_t float_result(AtomicOp op, uint64_t old_bits, uint64_t b_bits) {
  const T old_value = bits_to<T>(old_bits), b = bits_to<T>(b_bits);
  switch (op) {
    case AtomicOp::add:
      if constexpr (sizeof(T) == 4)
        return to_bits<T>(flush_subnormal(flush_subnormal(old_value) + flush_subnormal(b)));
      else
        return to_bits<T>(old_value + b);
    case AtomicOp::min: return to_bits<T>(std::fmin(old_value, b));
    case AtomicOp::max: return to_bits<T>(std::fmax(old_value, b));
    case AtomicOp::exch: return to_bits<T>(b);
    default: break;
  }
  throw std::invalid_argument("atomic operation not defined for floating point");
}

bool is_bitwise(AtomicOp op) {
  return op == AtomicOp::and_ || op == AtomicOp::or_ || op == AtomicOp::xor_;
}

}  // namespace

bool atomic_supported(AtomicOp op, DataType type) {
  switch (type) {
    case DataType::u32: return op != AtomicOp::none && !is_bitwise(op);
    case DataType::s32: return op == AtomicOp::add || op == AtomicOp::min || op == AtomicOp::max;
    case DataType::u64:
      return op == AtomicOp::add || op == AtomicOp::min || op == AtomicOp::max ||
             op == AtomicOp::exch || op == AtomicOp::cas;
    case DataType::s64: return op == AtomicOp::add || op == AtomicOp::min || op == AtomicOp::max;
    case DataType::b32:
    case DataType::b64:
      return is_bitwise(op) || op == AtomicOp::exch || op == AtomicOp::cas;
    case DataType::f32: return op == AtomicOp::add || op == AtomicOp::min || op == AtomicOp::max;
    case DataType::f64: return op == AtomicOp::add;
    case DataType::f16x2: return op == AtomicOp::add;
    default: return false;
  }
}

uint64_t atomic_result(AtomicOp op, DataType type, uint64_t old_value, uint64_t b, uint64_t c) {
  if (!atomic_supported(op, type))
    throw std::invalid_argument("atomic operation not defined for this type");
  switch (type) {
    case DataType::u32:
    case DataType::b32: return integer_result<uint32_t>(op, old_value, b, c);
    case DataType::s32: return integer_result<int32_t>(op, old_value, b, c);
    case DataType::u64:
    case DataType::b64: return integer_result<uint64_t>(op, old_value, b, c);
    case DataType::s64: return integer_result<int64_t>(op, old_value, b, c);
    case DataType::f32: return float_result<float>(op, old_value, b);
    case DataType::f64: return float_result<double>(op, old_value, b);
    case DataType::f16x2: return add_half2(old_value, b);
    default: break;
  }
  throw std::invalid_argument("atomic operation not defined for this type");
}

}  // namespace ohmvp::gpu
