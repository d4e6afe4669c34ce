#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "modules/gpu/ptx/ptx_types.h"

namespace ohmvp::gpu {

// PTX literals converted to the bits of the type they are used as.
//  integers: decimal, 0x hex, 0b binary, leading-0 octal, optional U suffix; for an integer type
//            the value is truncated to the type's width (two's complement when negative); for a
//            float type the integer value is converted to that float type.
//  floats:   0fXXXXXXXX (f32 bits), 0dXXXXXXXXXXXXXXXX (f64 bits), decimal with '.' or exponent;
//            converted (round to nearest) when the operand type has a different width.
// Returns an error message on a malformed literal, one that does not fit or a float literal used
// as an integer.
struct ImmediateResult {
  uint64_t bits = 0;
  std::string error;  // empty on success
};
ImmediateResult immediate_bits(std::string_view literal, bool negative, DataType type);

// The unsigned value of an integer literal (for array sizes, .align, .version ...).
std::optional<uint64_t> parse_unsigned_literal(std::string_view literal);

// IEEE half and bfloat16 from a float, round to nearest even.
uint16_t float_to_half_bits(float value);
uint16_t float_to_bfloat16_bits(float value);

}  // namespace ohmvp::gpu
