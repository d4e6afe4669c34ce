#include <catch2/catch.hpp>

#include "modules/gpu/ptx/ptx_immediate.h"

using namespace ohmvp::gpu;

namespace {

uint64_t bits(const char* literal, DataType type, bool negative = false) {
  const ImmediateResult result = immediate_bits(literal, negative, type);
  INFO(literal << ": " << result.error);
  REQUIRE(result.error.empty());
  return result.bits;
}

}  // namespace

TEST_CASE("ptx immediates: integers in every base, truncated to the type", "[ptx]") {
  CHECK(bits("42", DataType::u32) == 42);
  CHECK(bits("0x2A", DataType::u32) == 42);
  CHECK(bits("0X2a", DataType::s64) == 42);
  CHECK(bits("052", DataType::u16) == 42);
  CHECK(bits("0b101010", DataType::b8) == 42);
  CHECK(bits("42U", DataType::u64) == 42);
  CHECK(bits("0", DataType::s32) == 0);
  CHECK(bits("1", DataType::s32, true) == 0xFFFFFFFFu);
  CHECK(bits("1", DataType::s64, true) == UINT64_MAX);
  CHECK(bits("128", DataType::s8, true) == 0x80);
  CHECK(bits("4294967295", DataType::u32) == 0xFFFFFFFFu);
  CHECK(bits("1", DataType::pred) == 1);
  CHECK_FALSE(immediate_bits("256", false, DataType::u8).error.empty());
  CHECK_FALSE(immediate_bits("129", true, DataType::s8).error.empty());
  CHECK_FALSE(immediate_bits("18446744073709551616", false, DataType::u64).error.empty());
  CHECK_FALSE(immediate_bits("09", false, DataType::u32).error.empty());
  CHECK(parse_unsigned_literal("0x10") == 16u);
  CHECK_FALSE(parse_unsigned_literal("abc").has_value());
}

TEST_CASE("ptx immediates: floats converted to the operand's width", "[ptx]") {
  CHECK(bits("0f3F800000", DataType::f32) == 0x3F800000u);
  CHECK(bits("0f3F800000", DataType::f32, true) == 0xBF800000u);
  CHECK(bits("0fFFC00001", DataType::f32) == 0xFFC00001u);  // NaN payload kept
  CHECK(bits("0d3FF0000000000000", DataType::f64) == 0x3FF0000000000000ull);
  CHECK(bits("0f3F800000", DataType::f64) == 0x3FF0000000000000ull);
  CHECK(bits("0d3FF8000000000000", DataType::f32) == 0x3FC00000u);
  CHECK(bits("1.5", DataType::f32) == 0x3FC00000u);
  CHECK(bits("2.5e1", DataType::f64, true) == 0xC039000000000000ull);
  CHECK(bits("1e-3", DataType::f32) == 0x3A83126Fu);
  CHECK(bits("3", DataType::f32) == 0x40400000u);
  CHECK(bits("1.0", DataType::f16) == 0x3C00u);
  CHECK(bits("65504", DataType::f16) == 0x7BFFu);
  CHECK(bits("70000", DataType::f16) == 0x7C00u);
  CHECK(bits("1.0", DataType::bf16, true) == 0xBF80u);
  CHECK(float_to_half_bits(5.9604645e-8f) == 0x0001u);  // smallest subnormal
  CHECK(float_to_half_bits(1.0009765625f) == 0x3C01u);
  CHECK(float_to_half_bits(1.00048828125f) == 0x3C00u);   // tie to even
  CHECK(float_to_bfloat16_bits(1.00390625f) == 0x3F80u);  // tie to even
  CHECK_FALSE(immediate_bits("0f3F80", false, DataType::f32).error.empty());
  CHECK_FALSE(immediate_bits("0f3F800000", false, DataType::u32).error.empty());
  // A bit-size type of the literal's width takes its bits, as ptxas does; other widths do not.
  CHECK(bits("0f3F800000", DataType::b32) == 0x3F800000u);
  CHECK(bits("0d3FF0000000000000", DataType::b64) == 0x3FF0000000000000ull);
  CHECK_FALSE(immediate_bits("0f3F800000", false, DataType::b64).error.empty());
  CHECK_FALSE(immediate_bits("0d3FF0000000000000", false, DataType::b32).error.empty());
  CHECK_FALSE(immediate_bits("1.5", false, DataType::s32).error.empty());
  CHECK_FALSE(immediate_bits("1.5x", false, DataType::f32).error.empty());
}
