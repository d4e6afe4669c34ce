#pragma once

#include <cstddef>
#include <cstdint>

namespace ohmvp::gpu {

// PTX scalar types. Packed f16x2/bf16x2 live in one 32-bit register.
// One row per group.
// clang-format off
enum class DataType : uint8_t {
  none,
  pred,
  b8, b16, b32, b64, b128,
  u8, u16, u32, u64,
  s8, s16, s32, s64,
  f16, f16x2, bf16, bf16x2, f32, f64,
  s4, u4,  // only as the A and B elements of the tensor cores' 4-bit mode (.m8n8k32)
};
// clang-format on

enum class StateSpace : uint8_t {
  generic,  // no space given: the address selects global, shared or local at run time
  reg,
  param,
  global,
  shared,
  local,
  const_,
  tex,
};

constexpr size_t type_bytes(DataType type) {
  switch (type) {
    case DataType::none: return 0;
    case DataType::pred: return 1;
    case DataType::b8: case DataType::u8: case DataType::s8: return 1;
    case DataType::s4:
    case DataType::u4:
      return 1;  // two to a byte: see type_bits
    case DataType::b16: case DataType::u16: case DataType::s16: case DataType::f16:
    case DataType::bf16: return 2;
    case DataType::b32: case DataType::u32: case DataType::s32: case DataType::f32:
    case DataType::f16x2: case DataType::bf16x2: return 4;
    case DataType::b64: case DataType::u64: case DataType::s64: case DataType::f64: return 8;
    case DataType::b128: return 16;
  }
  return 0;
}

constexpr bool is_sub_byte(DataType type) {
  return type == DataType::s4 || type == DataType::u4;
}

// Bits of one element: 4 for the sub-byte types, else 8 x type_bytes.
constexpr unsigned type_bits(DataType type) {
  return is_sub_byte(type) ? 4 : 8 * static_cast<unsigned>(type_bytes(type));
}

constexpr bool is_signed_int(DataType type) {
  return type == DataType::s8 || type == DataType::s16 || type == DataType::s32 ||
         type == DataType::s64 || type == DataType::s4;
}

constexpr bool is_unsigned_int(DataType type) {
  return type == DataType::u8 || type == DataType::u16 || type == DataType::u32 ||
         type == DataType::u64 || type == DataType::u4;
}

constexpr bool is_float(DataType type) {
  return type == DataType::f16 || type == DataType::f16x2 || type == DataType::bf16 ||
         type == DataType::bf16x2 || type == DataType::f32 || type == DataType::f64;
}

// The result type of a `.wide` multiply (mul.wide, mad.wide): twice the width of its sources.
constexpr DataType wide_type(DataType type) {
  switch (type) {
    case DataType::u16:
      return DataType::u32;
    case DataType::s16:
      return DataType::s32;
    case DataType::u32:
      return DataType::u64;
    case DataType::s32:
      return DataType::s64;
    default:
      return type;
  }
}

}  // namespace ohmvp::gpu
