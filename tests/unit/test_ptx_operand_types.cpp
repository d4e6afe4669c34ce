#include <catch2/catch.hpp>

#include "modules/gpu/ptx/operand_type_rules.h"

using namespace ohmvp::gpu;

TEST_CASE("operand types: same size agrees by kind", "[ptx]") {
  const bool exact = false;
  CHECK(register_type_agrees(DataType::u32, DataType::b32, exact));
  CHECK(register_type_agrees(DataType::f32, DataType::b32, exact));
  CHECK(register_type_agrees(DataType::b32, DataType::f32, exact));
  CHECK(register_type_agrees(DataType::s32, DataType::u32, exact));
  CHECK(register_type_agrees(DataType::f64, DataType::f64, exact));
  CHECK_FALSE(register_type_agrees(DataType::f32, DataType::u32, exact));
  CHECK_FALSE(register_type_agrees(DataType::s32, DataType::f32, exact));
  CHECK_FALSE(register_type_agrees(DataType::f16x2, DataType::f32, exact));
  CHECK_FALSE(register_type_agrees(DataType::f16, DataType::bf16, exact));
  CHECK_FALSE(register_type_agrees(DataType::u16, DataType::f16, exact));
  // ptxas reads a packed-half register as an integer of its size, not as another float.
  CHECK(register_type_agrees(DataType::u32, DataType::f16x2, exact));
  CHECK_FALSE(register_type_agrees(DataType::f32, DataType::f16x2, exact));
}

TEST_CASE("operand types: sizes differ only where ld, st and cvt allow", "[ptx]") {
  CHECK_FALSE(register_type_agrees(DataType::u32, DataType::b64, false));
  CHECK_FALSE(register_type_agrees(DataType::u64, DataType::b32, false));
  CHECK(register_type_agrees(DataType::u8, DataType::b32, true));
  CHECK(register_type_agrees(DataType::s16, DataType::u64, true));
  CHECK(register_type_agrees(DataType::f32, DataType::b64, true));
  CHECK(register_type_agrees(DataType::b16, DataType::f32, true));
  CHECK_FALSE(register_type_agrees(DataType::u16, DataType::f32, true));
  CHECK_FALSE(register_type_agrees(DataType::f32, DataType::u64, true));
  CHECK_FALSE(register_type_agrees(DataType::f32, DataType::f64, true));
  CHECK_FALSE(register_type_agrees(DataType::u64, DataType::b32, true));
}

TEST_CASE("operand types: predicates agree with predicates only", "[ptx]") {
  CHECK(register_type_agrees(DataType::pred, DataType::pred, false));
  CHECK_FALSE(register_type_agrees(DataType::pred, DataType::b32, true));
  CHECK_FALSE(register_type_agrees(DataType::b32, DataType::pred, true));
  CHECK(register_type_agrees(DataType::none, DataType::f64, false));
}

TEST_CASE("operand types: a vector is read as one type", "[ptx]") {
  CHECK(vector_type({DataType::f32, DataType::f32}) == DataType::f32);
  CHECK(vector_type({DataType::f32, DataType::b32}) == DataType::b32);
  CHECK(vector_type({DataType::s32, DataType::s32}) == DataType::b32);
  CHECK(vector_type({DataType::f16x2, DataType::f16x2}) == DataType::b32);
  CHECK(vector_type({DataType::f64, DataType::u64}) == DataType::b64);
  CHECK_FALSE(vector_type({DataType::b16, DataType::b32}).has_value());
  CHECK_FALSE(vector_type({}).has_value());
  CHECK(bits_of_size(1) == DataType::b8);
  CHECK(bits_of_size(8) == DataType::b64);
}
