#include <cfloat>
#include <cmath>

#include <catch2/catch.hpp>

#include "modules/gpu/simt/half.h"
#include "tests/unit/ptx_builder.h"

using namespace ptxb;

namespace {

Instruction cvt(DataType to, DataType from, RoundingMode mode = RoundingMode::none,
                bool sat = false) {
  Instruction in = op3(Opcode::cvt, to, 1);
  in.source_type = from;
  in.mod.rounding = mode;
  in.mod.sat = sat;
  return in;
}

}  // namespace

TEST_CASE("interp: cvt between integer widths", "[interp]") {
  Harness h;
  CHECK(h.eval(cvt(DataType::s32, DataType::s8), 0x80) == 0xffffffffffffff80ULL);
  CHECK(h.eval(cvt(DataType::u32, DataType::u8), 0x1ff) == 0xff);
  CHECK(h.eval(cvt(DataType::u64, DataType::s32), 0xffffffff) == ~uint64_t{0});
  CHECK(h.eval(cvt(DataType::u64, DataType::u32), 0xffffffff) == 0xffffffff);
  CHECK(h.eval(cvt(DataType::u16, DataType::u32), 0x12345) == 0x2345);
  CHECK(h.eval(cvt(DataType::u8, DataType::s32, RoundingMode::none, true), 300) == 255);
  CHECK(h.eval(cvt(DataType::u8, DataType::s32, RoundingMode::none, true),
               static_cast<uint64_t>(-5)) == 0);
  CHECK(h.eval(cvt(DataType::s8, DataType::s32, RoundingMode::none, true),
               static_cast<uint64_t>(-500)) == static_cast<uint64_t>(-128));
  CHECK(h.eval(cvt(DataType::s32, DataType::u64, RoundingMode::none, true), ~uint64_t{0}) ==
        0x7fffffff);
  CHECK(h.eval(cvt(DataType::u32, DataType::s32, RoundingMode::none, true), 0x80000000) == 0);
}

TEST_CASE("interp: cvt float to integer rounds and saturates", "[interp]") {
  Harness h;
  const uint64_t x = bits_of(-2.5f);
  CHECK(static_cast<int64_t>(h.eval(cvt(DataType::s32, DataType::f32, RoundingMode::rni), x)) ==
        -2);
  CHECK(static_cast<int64_t>(h.eval(cvt(DataType::s32, DataType::f32, RoundingMode::rzi), x)) ==
        -2);
  CHECK(static_cast<int64_t>(h.eval(cvt(DataType::s32, DataType::f32, RoundingMode::rmi), x)) ==
        -3);
  CHECK(static_cast<int64_t>(h.eval(cvt(DataType::s32, DataType::f32, RoundingMode::rpi), x)) ==
        -2);
  CHECK(h.eval(cvt(DataType::s32, DataType::f32, RoundingMode::rni), bits_of(3.5f)) == 4);
  CHECK(h.eval(cvt(DataType::s32, DataType::f32, RoundingMode::rzi), bits_of(1e10f)) == 0x7fffffff);
  CHECK(h.eval(cvt(DataType::s32, DataType::f32, RoundingMode::rzi), bits_of(-1e10f)) ==
        0xffffffff80000000ULL);
  CHECK(h.eval(cvt(DataType::u32, DataType::f32, RoundingMode::rzi), bits_of(-1.0f)) == 0);
  CHECK(h.eval(cvt(DataType::u32, DataType::f32, RoundingMode::rzi), bits_of(NAN)) == 0);
  CHECK(h.eval(cvt(DataType::u64, DataType::f64, RoundingMode::rzi), bits_of(1e30)) ==
        ~uint64_t{0});
  CHECK(h.eval(cvt(DataType::s64, DataType::f64, RoundingMode::rzi), bits_of(-1e30)) ==
        0x8000000000000000ULL);
  CHECK(h.eval(cvt(DataType::u8, DataType::f32, RoundingMode::rni), bits_of(300.0f)) == 255);
  CHECK(h.eval(cvt(DataType::s32, DataType::f16, RoundingMode::rzi), f32_to_f16(-7.75f)) ==
        static_cast<uint64_t>(-7));
}

// PTX ISA, cvt: a NaN converts to 0 unless the source is .f64 or the destination 64 bits wide;
// then to the value with only the top bit set.
TEST_CASE("interp: cvt of NaN to an integer", "[interp]") {
  Harness h;
  const uint64_t nan32 = bits_of(NAN), nan64 = bits_of(double(NAN));
  CHECK(h.eval(cvt(DataType::s32, DataType::f32, RoundingMode::rzi), nan32) == 0);
  CHECK(h.eval(cvt(DataType::u16, DataType::f16, RoundingMode::rni), 0x7e00) == 0);
  CHECK(h.eval(cvt(DataType::s32, DataType::f64, RoundingMode::rzi), nan64) ==
        0xffffffff80000000ULL);
  CHECK(h.eval(cvt(DataType::u32, DataType::f64, RoundingMode::rni), nan64) == 0x80000000);
  CHECK(h.eval(cvt(DataType::s16, DataType::f64, RoundingMode::rmi), nan64) ==
        0xffffffffffff8000ULL);
  CHECK(h.eval(cvt(DataType::u8, DataType::f64, RoundingMode::rpi), nan64) == 0x80);
  CHECK(h.eval(cvt(DataType::s64, DataType::f32, RoundingMode::rzi), nan32) ==
        0x8000000000000000ULL);
  CHECK(h.eval(cvt(DataType::u64, DataType::f16, RoundingMode::rzi), 0x7e00) ==
        0x8000000000000000ULL);
}

TEST_CASE("interp: cvt integer to float in each rounding mode", "[interp]") {
  Harness h;
  const uint64_t big = (uint64_t{1} << 24) + 1;  // not representable in f32
  CHECK(f32_of(h.eval(cvt(DataType::f32, DataType::u32, RoundingMode::rn), big)) == 16777216.0f);
  CHECK(f32_of(h.eval(cvt(DataType::f32, DataType::u32, RoundingMode::rp), big)) == 16777218.0f);
  CHECK(f32_of(h.eval(cvt(DataType::f32, DataType::s32, RoundingMode::rm),
                      static_cast<uint64_t>(-(1 << 24) - 1))) == -16777218.0f);
  CHECK(f32_of(h.eval(cvt(DataType::f32, DataType::u64, RoundingMode::rz), ~uint64_t{0})) ==
        18446742974197923840.0f);
  CHECK(f64_of(h.eval(cvt(DataType::f64, DataType::s64, RoundingMode::rn),
                      0x8000000000000000ULL)) == -9223372036854775808.0);
  CHECK(h.eval(cvt(DataType::f16, DataType::u32, RoundingMode::rn), 70000) == 0x7c00);
  CHECK(h.eval(cvt(DataType::f16, DataType::u32, RoundingMode::rz), 70000) == 0x7bff);
  CHECK(h.eval(cvt(DataType::f16, DataType::s32, RoundingMode::rn), static_cast<uint64_t>(-3)) ==
        f32_to_f16(-3.0f));
  // bf16 of a 64-bit integer that rounding through binary64 first would get wrong:
  // 2^63 + 2^55 + 1 is just above the bf16 midpoint 2^63 + 2^55.
  const uint64_t above_midpoint = (uint64_t{1} << 63) + (uint64_t{1} << 55) + 1;
  CHECK(h.eval(cvt(DataType::bf16, DataType::u64, RoundingMode::rn), above_midpoint) == 0x5f01);
}

TEST_CASE("interp: cvt to f64 gives the canonical NaN, whatever NaN it is given", "[interp]") {
  Harness h;
  const uint64_t signalling = 0x7ff0000000000001, quiet_payload = 0xfff8000000000001;
  for (const RoundingMode mode : {RoundingMode::none, RoundingMode::rni, RoundingMode::rzi,
                                  RoundingMode::rmi, RoundingMode::rpi}) {
    CHECK(h.eval(cvt(DataType::f64, DataType::f64, mode), signalling) == 0x7fffffffffffffff);
    CHECK(h.eval(cvt(DataType::f64, DataType::f64, mode), quiet_payload) == 0x7fffffffffffffff);
  }
  CHECK(h.eval(cvt(DataType::f64, DataType::f32), 0x7f800001) == 0x7fffffffffffffff);
  CHECK(h.eval(cvt(DataType::f64, DataType::f16), 0x7e01) == 0x7fffffffffffffff);
}

TEST_CASE("interp: cvt between float widths", "[interp]") {
  Harness h;
  const double third = 1.0 / 3.0;
  CHECK(f32_of(h.eval(cvt(DataType::f32, DataType::f64, RoundingMode::rn), bits_of(third))) ==
        static_cast<float>(third));
  // The nearest float to 1/3 is above it.
  CHECK(f32_of(h.eval(cvt(DataType::f32, DataType::f64, RoundingMode::rp), bits_of(third))) ==
        static_cast<float>(third));
  CHECK(f32_of(h.eval(cvt(DataType::f32, DataType::f64, RoundingMode::rm), bits_of(third))) ==
        std::nextafter(static_cast<float>(third), 0.0f));
  CHECK(f32_of(h.eval(cvt(DataType::f32, DataType::f64, RoundingMode::rz), bits_of(1e300))) ==
        FLT_MAX);
  CHECK(f64_of(h.eval(cvt(DataType::f64, DataType::f32), bits_of(0.1f))) ==
        static_cast<double>(0.1f));
  Instruction ftz = cvt(DataType::f32, DataType::f64, RoundingMode::rn);
  ftz.mod.ftz = true;
  CHECK(h.eval(ftz, bits_of(1e-40)) == 0);
  CHECK(h.eval(cvt(DataType::f16, DataType::f32, RoundingMode::rz), bits_of(65535.0f)) == 0x7bff);
  // .ftz flushes only .f32 inputs and results: f16 subnormals convert as they are.
  Instruction widen_ftz = cvt(DataType::f32, DataType::f16);
  widen_ftz.mod.ftz = true;
  CHECK(f32_of(h.eval(widen_ftz, 0x8001)) == -std::ldexp(1.0f, -24));
  Instruction narrow_ftz = cvt(DataType::f16, DataType::f32, RoundingMode::rn);
  narrow_ftz.mod.ftz = true;
  CHECK(h.eval(narrow_ftz, bits_of(std::ldexp(1.0f, -15))) == 0x0200);
  CHECK(h.eval(narrow_ftz, bits_of(1e-40f)) == 0);  // an f32 subnormal input is flushed
  CHECK(f32_of(h.eval(cvt(DataType::f32, DataType::f16), 0x0001)) == std::ldexp(1.0f, -24));
  CHECK(h.eval(cvt(DataType::bf16, DataType::f16), f32_to_f16(1.5f)) == f32_to_bf16(1.5f));
  CHECK(f32_of(h.eval(cvt(DataType::f32, DataType::f32, RoundingMode::rni), bits_of(2.5f))) ==
        2.0f);
  CHECK(f32_of(h.eval(cvt(DataType::f32, DataType::f32, RoundingMode::rpi), bits_of(2.1f))) ==
        3.0f);
  CHECK(f32_of(h.eval(cvt(DataType::f32, DataType::f32, RoundingMode::rmi), bits_of(-2.1f))) ==
        -3.0f);
  CHECK(f32_of(h.eval(cvt(DataType::f32, DataType::f32, RoundingMode::none, true),
                      bits_of(7.0f))) == 1.0f);
  Instruction pack = make(Opcode::cvt, DataType::f16x2, {r(0), r(1), r(2)});
  pack.source_type = DataType::f32;
  pack.mod.rounding = RoundingMode::rn;
  CHECK(h.eval(pack, bits_of(1.0f), bits_of(-2.0f)) == 0x3c00c000);
}
