#include "modules/gpu/simt/tile_arithmetic.h"

#include <algorithm>
#include <limits>

#include "modules/gpu/ptx/float_bits.h"
#include "modules/gpu/simt/half.h"

namespace ohmvp::gpu {
namespace {

// The exact sum of four f16 products (each fits in 22 significant bits) and the accumulator,
// in binary64.
double dot4(double accumulator, const uint16_t a[4], const uint16_t b[4]) {
  double sum = 0;
  for (int i = 0; i < 4; ++i) sum += f16_to_f64(a[i]) * f16_to_f64(b[i]);
  return accumulator + sum;
}

// An s8, u8, s4 or u4 element's value from its bits.
int64_t integer_element(DataType type, uint32_t bits) {
  const unsigned width = type_bits(type);
  const int64_t value = bits & ((1u << width) - 1);
  const bool negative = is_signed_int(type) && (value >> (width - 1)) != 0;
  return negative ? value - (int64_t{1} << width) : value;
}

std::vector<uint32_t> integer_tile(const MatrixGeometry& g, const TileTypes& types,
                                   const std::vector<uint32_t>& a, const std::vector<uint32_t>& b,
                                   const std::vector<uint32_t>& c) {
  std::vector<uint32_t> d(size_t{g.m} * g.n);
  for (uint32_t i = 0; i < g.m; ++i)
    for (uint32_t j = 0; j < g.n; ++j) {
      int64_t sum = static_cast<int32_t>(c[i * g.n + j]);
      for (uint32_t k = 0; k < g.k; ++k)
        sum += integer_element(types.a, a[i * g.k + k]) * integer_element(types.b, b[k * g.n + j]);
      if (types.satfinite)
        sum = std::clamp<int64_t>(sum, std::numeric_limits<int32_t>::min(),
                                  std::numeric_limits<int32_t>::max());
      d[i * g.n + j] = static_cast<uint32_t>(sum);
    }
  return d;
}

}  // namespace

float dot4_f32(float accumulator, const uint16_t a[4], const uint16_t b[4]) {
  return static_cast<float>(dot4(accumulator, a, b));
}

uint16_t dot4_f16(uint16_t accumulator, const uint16_t a[4], const uint16_t b[4]) {
  return f64_to_f16(dot4(f16_to_f64(accumulator), a, b));
}

std::vector<uint32_t> multiply_accumulate_tile(const MatrixGeometry& g, const TileTypes& types,
                                               const std::vector<uint32_t>& a,
                                               const std::vector<uint32_t>& b,
                                               const std::vector<uint32_t>& c) {
  if (types.a != DataType::f16) return integer_tile(g, types, a, b, c);
  const bool wide = types.c == DataType::f32 || types.d == DataType::f32;
  std::vector<uint32_t> d(size_t{g.m} * g.n);
  uint16_t a4[4], b4[4];
  for (uint32_t i = 0; i < g.m; ++i)
    for (uint32_t j = 0; j < g.n; ++j) {
      const uint32_t c_bits = c[i * g.n + j];
      float wide_sum = types.c == DataType::f32 ? as_f32(c_bits) : f16_to_f32(uint16_t(c_bits));
      uint16_t half_sum = static_cast<uint16_t>(c_bits);
      for (uint32_t k0 = 0; k0 < g.k; k0 += 4) {
        for (uint32_t s = 0; s < 4; ++s) {
          a4[s] = static_cast<uint16_t>(a[i * g.k + k0 + s]);
          b4[s] = static_cast<uint16_t>(b[(k0 + s) * g.n + j]);
        }
        if (wide)
          wide_sum = dot4_f32(wide_sum, a4, b4);
        else
          half_sum = dot4_f16(half_sum, a4, b4);
      }
      if (!wide)
        d[i * g.n + j] = half_sum;
      else
        d[i * g.n + j] = types.d == DataType::f32 ? f32_bits(wide_sum) : f32_to_f16(wide_sum);
    }
  return d;
}

}  // namespace ohmvp::gpu
