#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <vector>

#include "modules/gpu/simt/half.h"
#include "modules/gpu/simt/tile_arithmetic.h"

using namespace ohmvp::gpu;

namespace {

uint16_t h(float value) {
  return f32_to_f16(value);
}

uint32_t bits(float value) {
  uint32_t b;
  std::memcpy(&b, &value, 4);
  return b;
}

float value(uint32_t b) {
  float v;
  std::memcpy(&v, &b, 4);
  return v;
}

}  // namespace

TEST_CASE("FEDP: four exact products and one rounding", "[tensor]") {
  const uint16_t a[4] = {h(1.0f), h(2.0f), h(-3.0f), h(0.5f)};
  const uint16_t b[4] = {h(4.0f), h(0.25f), h(1.0f), h(8.0f)};
  CHECK(dot4_f32(10.0f, a, b) == 10.0f + 4.0f + 0.5f - 3.0f + 4.0f);
  // The products are exact and their sum with the accumulator rounds once.
  const uint16_t big[4] = {h(2048.0f), h(1.0f), h(0.0f), h(0.0f)};
  const uint16_t tiny[4] = {h(1.0f), h(std::ldexp(1.0f, -12)), h(0.0f), h(0.0f)};
  // f32: 2048 + 2^-12 fits in 24 bits; an f16 product sum would have lost it.
  CHECK(dot4_f32(0.0f, big, tiny) == 2048.0f + std::ldexp(1.0f, -12));
  // f16 accumulator: 1 + 2048 + 2^-12 rounds once to 2050 (ulp 2 at 2048; 2049 + 2^-12 is above
  // the midpoint 2049), where two roundings (1 + 2048 -> 2048 by ties-to-even, then + 2^-12 ->
  // 2048) would give 2048.
  CHECK(f16_to_f32(dot4_f16(h(1.0f), big, tiny)) == 2050.0f);
  // inf * 0 is NaN.
  const uint16_t inf[4] = {0x7c00, 0, 0, 0};
  const uint16_t zero[4] = {0, 0, 0, 0};
  CHECK(std::isnan(dot4_f32(0.0f, inf, zero)));
}

TEST_CASE("tile multiply: mixed precision, FP16 and integer modes", "[tensor]") {
  const MatrixGeometry g{16, 8, 8};
  std::vector<uint32_t> a(16 * 8), b(8 * 8), c(16 * 8), c16(16 * 8);
  for (uint32_t i = 0; i < 16; ++i)
    for (uint32_t k = 0; k < 8; ++k) a[i * 8 + k] = h(float(int(i + k) % 5 - 2));
  for (uint32_t k = 0; k < 8; ++k)
    for (uint32_t j = 0; j < 8; ++j) b[k * 8 + j] = h(float(int(k * 3 + j) % 7 - 3));
  for (uint32_t i = 0; i < 16 * 8; ++i) c[i] = bits(float(i)), c16[i] = h(float(i % 32));
  const auto d = multiply_accumulate_tile(
      g, {DataType::f16, DataType::f16, DataType::f32, DataType::f32}, a, b, c);
  const auto d16 = multiply_accumulate_tile(
      g, {DataType::f16, DataType::f16, DataType::f16, DataType::f16}, a, b, c16);
  const auto mixed16 = multiply_accumulate_tile(
      g, {DataType::f16, DataType::f16, DataType::f32, DataType::f16}, a, b, c);
  for (uint32_t i = 0; i < 16; ++i)
    for (uint32_t j = 0; j < 8; ++j) {
      float sum = 0;
      for (uint32_t k = 0; k < 8; ++k)
        sum += f16_to_f32(uint16_t(a[i * 8 + k])) * f16_to_f32(uint16_t(b[k * 8 + j]));
      CHECK(value(d[i * 8 + j]) == float(i * 8 + j) + sum);
      CHECK(f16_to_f32(uint16_t(d16[i * 8 + j])) == float((i * 8 + j) % 32) + sum);
      CHECK(f16_to_f32(uint16_t(mixed16[i * 8 + j])) == float(i * 8 + j) + sum);
    }
  // s8 wraps in s32 unless satfinite; u8 is unsigned.
  const MatrixGeometry small{16, 16, 16};
  std::vector<uint32_t> ia(256, 0x80), ib(256, 0x80), ic(256, 0x7fffffff);
  const auto wrapped = multiply_accumulate_tile(
      small, {DataType::s8, DataType::s8, DataType::s32, DataType::s32}, ia, ib, ic);
  CHECK(wrapped[0] == uint32_t(int64_t(0x7fffffff) + 16 * 128 * 128 - (int64_t(1) << 32)));
  const auto clamped = multiply_accumulate_tile(
      small, {DataType::s8, DataType::s8, DataType::s32, DataType::s32, true}, ia, ib, ic);
  CHECK(clamped[0] == 0x7fffffffu);
  std::vector<uint32_t> zero(256, 0);
  const auto unsigned_d = multiply_accumulate_tile(
      small, {DataType::u8, DataType::u8, DataType::s32, DataType::s32}, ia, ib, zero);
  CHECK(unsigned_d[5] == 16u * 128u * 128u);
  // s8 A with u8 B (mma.sync.m8n8k16): 0x80 is -128 in A and 128 in B.
  const auto mixed = multiply_accumulate_tile(
      small, {DataType::s8, DataType::u8, DataType::s32, DataType::s32}, ia, ib, zero);
  CHECK(mixed[7] == uint32_t(-16 * 128 * 128));
}
