#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include <catch2/catch.hpp>

#include "modules/gpu/ptx/atomic_alu.h"
#include "modules/gpu/simt/half.h"

using namespace ohmvp::gpu;

namespace {

float float_of(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, 4);
  return value;
}

// Independent reference: every finite value of the format, sorted, and a bracketing search.
struct Reference {
  std::vector<std::pair<double, uint16_t>> values;  // non-negative finite, ascending
  uint16_t infinity;

  explicit Reference(bool bfloat) : infinity(bfloat ? 0x7f80 : 0x7c00) {
    for (uint32_t bits = 0; bits < infinity; ++bits)
      values.emplace_back(bfloat ? bf16_to_f64(static_cast<uint16_t>(bits))
                                 : f16_to_f64(static_cast<uint16_t>(bits)),
                          static_cast<uint16_t>(bits));
  }

  uint16_t round(double x, RoundingMode mode) const {
    const bool negative = std::signbit(x);
    const double magnitude = std::fabs(x);
    const uint16_t sign = negative ? 0x8000 : 0;
    const double largest = values.back().first;
    // Magnitudes rounded up or down, then the mode picks (mirrored for negatives).
    auto it =
        std::lower_bound(values.begin(), values.end(), std::make_pair(magnitude, uint16_t{0}));
    uint16_t down, up;
    double down_value, up_value;
    if (it != values.end() && it->first == magnitude) return sign | it->second;
    if (it == values.end()) {
      down = values.back().second;
      down_value = largest;
      up = infinity;
      const double ulp = largest - std::prev(values.end(), 2)->first;
      up_value = largest + ulp;  // where rounding to nearest switches to infinity is half of it
    } else {
      up = it->second;
      up_value = it->first;
      down = std::prev(it)->second;
      down_value = std::prev(it)->first;
    }
    bool take_up;
    switch (mode) {
      case RoundingMode::rz:
        take_up = false;
        break;
      case RoundingMode::rm:
        take_up = negative;
        break;
      case RoundingMode::rp:
        take_up = !negative;
        break;
      default: {
        const double to_down = magnitude - down_value, to_up = up_value - magnitude;
        take_up = to_up < to_down || (to_up == to_down && (down & 1));
      }
    }
    return sign | (take_up ? up : down);
  }
};

}  // namespace

TEST_CASE("half: known f16 encodings", "[half]") {
  CHECK(f32_to_f16(1.0f) == 0x3c00);
  CHECK(f32_to_f16(-2.0f) == 0xc000);
  CHECK(f32_to_f16(65504.0f) == 0x7bff);
  CHECK(f32_to_f16(65519.0f) == 0x7bff);
  CHECK(f32_to_f16(65520.0f) == 0x7c00);  // halfway to the next binade rounds to infinity
  CHECK(f32_to_f16(65520.0f, RoundingMode::rz) == 0x7bff);
  CHECK(f32_to_f16(1e9f, RoundingMode::rm) == 0x7bff);
  CHECK(f32_to_f16(-1e9f, RoundingMode::rm) == 0xfc00);
  CHECK(f32_to_f16(-1e9f, RoundingMode::rp) == 0xfbff);
  CHECK(f32_to_f16(std::ldexp(1.0f, -24)) == 0x0001);  // smallest subnormal
  CHECK(f32_to_f16(std::ldexp(1.0f, -25)) == 0x0000);  // tie to even: zero
  CHECK(f32_to_f16(std::ldexp(1.5f, -25)) == 0x0001);
  CHECK(f32_to_f16(std::ldexp(3.0f, -25)) == 0x0002);  // 1.5 units: tie to even 2
  CHECK(f32_to_f16(1e-10f, RoundingMode::rp) == 0x0001);
  CHECK(f32_to_f16(-1e-10f, RoundingMode::rm) == 0x8001);
  CHECK(f32_to_f16(-1e-10f) == 0x8000);  // signed zero survives
  CHECK(f32_to_f16(std::ldexp(1023.0f, -24) + std::ldexp(1.0f, -25)) ==
        0x0400);  // rounds up into the normals
  CHECK(f32_to_f16(INFINITY) == 0x7c00);
  CHECK(f32_to_f16(-INFINITY, RoundingMode::rz) == 0xfc00);
  CHECK(f32_to_f16(NAN) == canonical_half_nan);
  CHECK(f32_to_f16(1.0f + std::ldexp(1.0f, -11)) == 0x3c00);  // tie to even
  CHECK(f32_to_f16(1.0f + std::ldexp(3.0f, -11)) == 0x3c02);
  CHECK(f64_to_f16(1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40)) == 0x3c01);  // sticky bit

  CHECK(f16_to_f32(0x0001) == std::ldexp(1.0f, -24));
  CHECK(f16_to_f32(0x8000) == 0.0f);
  CHECK(std::signbit(f16_to_f32(0x8000)));
  CHECK(std::isinf(f16_to_f32(0xfc00)));
  CHECK(std::isnan(f16_to_f32(0x7d00)));
}

TEST_CASE("half: known bf16 encodings", "[half]") {
  CHECK(f32_to_bf16(1.0f) == 0x3f80);
  CHECK(f32_to_bf16(float_of(0x3f808000)) == 0x3f80);  // tie to even
  CHECK(f32_to_bf16(float_of(0x3f818000)) == 0x3f82);
  CHECK(f32_to_bf16(float_of(0x3f808001)) == 0x3f81);
  CHECK(f32_to_bf16(float_of(0x3f80ffff), RoundingMode::rz) == 0x3f80);
  CHECK(f32_to_bf16(float_of(0x7f7fffff)) == 0x7f80);  // FLT_MAX rounds to infinity
  CHECK(f32_to_bf16(float_of(0x7f7fffff), RoundingMode::rz) == 0x7f7f);
  CHECK(f32_to_bf16(float_of(0x00000001), RoundingMode::rp) == 0x0001);  // f32 subnormal
  CHECK(f32_to_bf16(NAN) == canonical_half_nan);
  CHECK(bf16_to_f32(0x4049) == float_of(0x40490000));
}

TEST_CASE("half: every f16 and bf16 pattern widens and narrows back unchanged", "[half]") {
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    const uint16_t h = static_cast<uint16_t>(bits);
    const bool f16_nan = (h & 0x7c00) == 0x7c00 && (h & 0x3ff);
    const bool bf16_nan = (h & 0x7f80) == 0x7f80 && (h & 0x7f);
    for (RoundingMode mode :
         {RoundingMode::rn, RoundingMode::rz, RoundingMode::rm, RoundingMode::rp}) {
      if (!f16_nan) REQUIRE(f32_to_f16(f16_to_f32(h), mode) == h);
      if (!bf16_nan) REQUIRE(f32_to_bf16(bf16_to_f32(h), mode) == h);
      if (!f16_nan) REQUIRE(f64_to_f16(f16_to_f64(h), mode) == h);
    }
    if (f16_nan) REQUIRE(std::isnan(f16_to_f32(h)));
  }
}

TEST_CASE("half: narrowing matches a bracketing reference in every mode", "[half]") {
  const Reference half(false), bfloat(true);
  std::mt19937_64 rng(7);
  for (int i = 0; i < 40000; ++i) {
    // Random f32 patterns concentrated on the formats' ranges, plus exact midpoints.
    uint32_t bits = static_cast<uint32_t>(rng());
    if (i % 3 == 0) bits = (bits & 0x8000ffff) | ((0x30u + (bits >> 16) % 0x20) << 23);
    if (i % 5 == 0) bits = (bits & 0xffffe000) | 0x1000;  // f16 ties
    if (i % 7 == 0) bits = (bits & 0xffff0000) | 0x8000;  // bf16 ties
    const float x = float_of(bits);
    if (std::isnan(x)) continue;
    for (RoundingMode mode :
         {RoundingMode::rn, RoundingMode::rz, RoundingMode::rm, RoundingMode::rp}) {
      INFO("bits " << std::hex << bits << " mode " << static_cast<int>(mode));
      REQUIRE(f32_to_f16(x, mode) == half.round(x, mode));
      REQUIRE(f32_to_bf16(x, mode) == bfloat.round(x, mode));
    }
  }
}

TEST_CASE("half: atom.add.f16x2 rounds each half once", "[half]") {
  // 2048 + 1 is a tie in f16 (spacing 2 there): even 2048; 2050 + 1 ties up to 2052.
  const uint64_t a = (uint64_t{f32_to_f16(2050.0f)} << 16) | f32_to_f16(2048.0f);
  const uint64_t b = (uint64_t{f32_to_f16(1.0f)} << 16) | f32_to_f16(1.0f);
  const uint64_t sum = atomic_result(AtomicOp::add, DataType::f16x2, a, b, 0, AtomicMemory::global);
  CHECK(f16_to_f32(static_cast<uint16_t>(sum)) == 2048.0f);
  CHECK(f16_to_f32(static_cast<uint16_t>(sum >> 16)) == 2052.0f);
}
