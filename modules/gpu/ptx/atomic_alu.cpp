#include "modules/gpu/ptx/atomic_alu.h"

#include <cmath>
#include <cstring>
#include <stdexcept>

#include "modules/gpu/ptx/float_bits.h"
#include "modules/gpu/simt/half.h"

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

// atom.add.f32 flushes subnormal inputs and results to sign-preserving zero in global memory, and
// keeps them in shared memory (PTX ISA, atom).
float flush_subnormal(float value) {
  return std::fpclassify(value) == FP_SUBNORMAL ? std::copysign(0.0f, value) : value;
}

uint64_t add_half2(uint64_t a, uint64_t b) {
  uint64_t result = 0;
  for (int half = 0; half < 2; ++half) {
    const int shift = 16 * half;
    // The sum of two halves is exact in binary64, so one rounding gives the f16 result.
    const double sum = f16_to_f64(static_cast<uint16_t>(a >> shift)) +
                       f16_to_f64(static_cast<uint16_t>(b >> shift));
    result |= static_cast<uint64_t>(f64_to_f16(sum)) << shift;
  }
  return result;
}

template <class T>
uint64_t integer_result(AtomicOp op, uint64_t old_bits, uint64_t b_bits, uint64_t c_bits) {
  const T old_value = bits_to<T>(old_bits), b = bits_to<T>(b_bits), c = bits_to<T>(c_bits);
  switch (op) {
    case AtomicOp::add:
      return to_bits<T>(static_cast<T>(old_value + b));
    case AtomicOp::min:
      return to_bits<T>(b < old_value ? b : old_value);
    case AtomicOp::max:
      return to_bits<T>(b > old_value ? b : old_value);
    case AtomicOp::and_:
      return to_bits<T>(static_cast<T>(old_value & b));
    case AtomicOp::or_:
      return to_bits<T>(static_cast<T>(old_value | b));
    case AtomicOp::xor_:
      return to_bits<T>(static_cast<T>(old_value ^ b));
    case AtomicOp::exch:
      return to_bits<T>(b);
    case AtomicOp::cas:
      return to_bits<T>(old_value == b ? c : old_value);
    case AtomicOp::inc:
      return to_bits<T>(old_value >= b ? T{0} : static_cast<T>(old_value + 1));
    case AtomicOp::dec:
      return to_bits<T>(old_value == 0 || old_value > b ? b : static_cast<T>(old_value - 1));
    case AtomicOp::none:
      break;
  }
  throw std::invalid_argument("atomic operation without an operator");
}

// A NaN result is the canonical NaN, as the arithmetic instructions give it.
template <class T>
uint64_t result_bits(T value) {
  if (std::isnan(value)) return sizeof(T) == 4 ? canonical_f32_nan : canonical_f64_nan;
  return to_bits<T>(value);
}

// PTX's only floating-point atomic is add (exch of a float is of its .b32 bits).
template <class T>
uint64_t float_add(uint64_t old_bits, uint64_t b_bits, AtomicMemory memory) {
  const T old_value = bits_to<T>(old_bits), b = bits_to<T>(b_bits);
  if constexpr (sizeof(T) == 4) {
    if (memory == AtomicMemory::global)
      return result_bits<T>(flush_subnormal(flush_subnormal(old_value) + flush_subnormal(b)));
  }
  return result_bits<T>(old_value + b);
}

bool is_bitwise(AtomicOp op) {
  return op == AtomicOp::and_ || op == AtomicOp::or_ || op == AtomicOp::xor_;
}

}  // namespace

// The combinations the PTX ISA (and ptxas for sm_75) allows: exch, cas and the bitwise ops take
// bit-size types only, add no .s64, min and max integers only.
bool atomic_supported(AtomicOp op, DataType type) {
  const bool add_min_max = op == AtomicOp::add || op == AtomicOp::min || op == AtomicOp::max;
  switch (type) {
    case DataType::u32:
      return add_min_max || op == AtomicOp::inc || op == AtomicOp::dec;
    case DataType::s32:
    case DataType::u64:
      return add_min_max;
    case DataType::s64:
      return op == AtomicOp::min || op == AtomicOp::max;
    case DataType::b16:  // 16-bit atomicCAS (sm_70 on)
      return op == AtomicOp::cas;
    case DataType::b32:
    case DataType::b64:
      return is_bitwise(op) || op == AtomicOp::exch || op == AtomicOp::cas;
    case DataType::f32:
    case DataType::f64:
      return op == AtomicOp::add;
    case DataType::f16:
    case DataType::f16x2:
      return op == AtomicOp::add;
    default:
      return false;
  }
}

uint64_t atomic_result(AtomicOp op, DataType type, uint64_t old_value, uint64_t b, uint64_t c,
                       AtomicMemory memory) {
  if (!atomic_supported(op, type))
    throw std::invalid_argument("atomic operation not defined for this type");
  switch (type) {
    case DataType::b16:
      return integer_result<uint16_t>(op, old_value, b, c);
    case DataType::u32:
    case DataType::b32:
      return integer_result<uint32_t>(op, old_value, b, c);
    case DataType::s32:
      return integer_result<int32_t>(op, old_value, b, c);
    case DataType::u64:
    case DataType::b64:
      return integer_result<uint64_t>(op, old_value, b, c);
    case DataType::s64:
      return integer_result<int64_t>(op, old_value, b, c);
    case DataType::f32:
      return float_add<float>(old_value, b, memory);
    case DataType::f64:
      return float_add<double>(old_value, b, memory);
    case DataType::f16:
      return add_half2(old_value & 0xffff, b & 0xffff);
    case DataType::f16x2:
      return add_half2(old_value, b);
    default:
      break;
  }
  throw std::invalid_argument("atomic operation not defined for this type");
}

}  // namespace ohmvp::gpu
