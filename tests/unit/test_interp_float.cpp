#include <cfloat>
#include <cmath>

#include <catch2/catch.hpp>

#include "modules/gpu/simt/half.h"
#include "tests/unit/ptx_builder.h"

using namespace ptxb;

namespace {

Instruction fop(Opcode op, DataType type, unsigned sources,
                RoundingMode mode = RoundingMode::none) {
  Instruction in = op3(op, type, sources);
  in.mod.rounding = mode;
  return in;
}

float f32(Harness& h, Instruction in, float a, float b = 0, float c = 0) {
  return f32_of(h.eval(in, bits_of(a), bits_of(b), bits_of(c)));
}

double f64(Harness& h, Instruction in, double a, double b = 0, double c = 0) {
  return f64_of(h.eval(in, bits_of(a), bits_of(b), bits_of(c)));
}

}  // namespace

TEST_CASE("interp: f32 add/mul/div/fma round in each mode", "[interp]") {
  Harness h;
  const float one_ulp = std::nextafter(1.0f, 2.0f) - 1.0f;
  const float tiny = one_ulp / 4;  // below half an ulp of 1
  CHECK(f32(h, fop(Opcode::add, DataType::f32, 2, RoundingMode::rn), 1.0f, tiny) == 1.0f);
  CHECK(f32(h, fop(Opcode::add, DataType::f32, 2, RoundingMode::rz), 1.0f, tiny) == 1.0f);
  CHECK(f32(h, fop(Opcode::add, DataType::f32, 2, RoundingMode::rp), 1.0f, tiny) == 1.0f + one_ulp);
  CHECK(f32(h, fop(Opcode::add, DataType::f32, 2, RoundingMode::rm), -1.0f, -tiny) ==
        -1.0f - one_ulp);
  CHECK(f32(h, fop(Opcode::add, DataType::f32, 2, RoundingMode::rz), -1.0f, -tiny) == -1.0f);
  CHECK(f32(h, fop(Opcode::mul, DataType::f32, 2, RoundingMode::rz), FLT_MAX, 2.0f) == FLT_MAX);
  CHECK(std::isinf(f32(h, fop(Opcode::mul, DataType::f32, 2, RoundingMode::rn), FLT_MAX, 2.0f)));
  CHECK(f32(h, fop(Opcode::div, DataType::f32, 2, RoundingMode::rn), 1.0f, 3.0f) == 1.0f / 3.0f);
  // 1/3 rounded to nearest is above 1/3: rp gives it too, rm and rz the float below.
  CHECK(f32(h, fop(Opcode::div, DataType::f32, 2, RoundingMode::rp), 1.0f, 3.0f) == 1.0f / 3.0f);
  CHECK(f32(h, fop(Opcode::div, DataType::f32, 2, RoundingMode::rm), 1.0f, 3.0f) ==
        std::nextafter(1.0f / 3.0f, 0.0f));
  CHECK(f32(h, fop(Opcode::div, DataType::f32, 2, RoundingMode::rz), -1.0f, 3.0f) ==
        -std::nextafter(1.0f / 3.0f, 0.0f));
  // fma rounds once: (1+u)(1-u) - 1 = -u^2 exactly.
  const float u = std::ldexp(1.0f, -12);
  CHECK(f32(h, fop(Opcode::fma, DataType::f32, 3, RoundingMode::rn), 1.0f + u, 1.0f - u, -1.0f) ==
        -u * u);
  // After an instruction the host is back in round-to-nearest.
  volatile float third = 1.0f;
  CHECK(third / 3.0f == 1.0f / 3.0f);
}

TEST_CASE("interp: f64 arithmetic with directed rounding", "[interp]") {
  Harness h;
  const double one_ulp = std::nextafter(1.0, 2.0) - 1.0;
  CHECK(f64(h, fop(Opcode::add, DataType::f64, 2, RoundingMode::rp), 1.0, one_ulp / 8) ==
        1.0 + one_ulp);
  CHECK(f64(h, fop(Opcode::add, DataType::f64, 2, RoundingMode::rn), 1.0, one_ulp / 8) == 1.0);
  // sqrt(2) rounded to nearest is above sqrt(2).
  CHECK(f64(h, fop(Opcode::sqrt, DataType::f64, 1, RoundingMode::rp), 2.0) == std::sqrt(2.0));
  CHECK(f64(h, fop(Opcode::sqrt, DataType::f64, 1, RoundingMode::rz), 2.0) ==
        std::nextafter(std::sqrt(2.0), 0.0));
  CHECK(f64(h, fop(Opcode::sqrt, DataType::f64, 1, RoundingMode::rm), 2.0) ==
        std::nextafter(std::sqrt(2.0), 0.0));
  CHECK(f64(h, fop(Opcode::rcp, DataType::f64, 1, RoundingMode::rn), 4.0) == 0.25);
}

TEST_CASE("interp: ftz, sat, NaN and signed zero", "[interp]") {
  Harness h;
  const float subnormal = std::ldexp(1.0f, -130);
  Instruction add = fop(Opcode::add, DataType::f32, 2, RoundingMode::rn);
  CHECK(f32(h, add, subnormal, 0.0f) == subnormal);
  add.mod.ftz = true;
  const float flushed = f32(h, add, -subnormal, 0.0f);
  CHECK(flushed == 0.0f);
  CHECK(std::signbit(f32(h, fop(Opcode::mul, DataType::f32, 2), -1.0f, 0.0f)));
  Instruction mul_ftz = fop(Opcode::mul, DataType::f32, 2, RoundingMode::rn);
  mul_ftz.mod.ftz = true;
  CHECK(f32(h, mul_ftz, std::ldexp(1.0f, -100), std::ldexp(1.0f, -30)) ==
        0.0f);  // subnormal result flushed
  Instruction sat = fop(Opcode::add, DataType::f32, 2, RoundingMode::rn);
  sat.mod.sat = true;
  CHECK(f32(h, sat, 0.75f, 0.5f) == 1.0f);
  CHECK(f32(h, sat, -0.75f, 0.5f) == 0.0f);
  CHECK(h.eval(sat, bits_of(NAN), 0) == 0);
  CHECK(h.eval(fop(Opcode::add, DataType::f32, 2), bits_of(INFINITY), bits_of(-INFINITY)) ==
        0x7fffffff);
  // min/max: NaN loses to a number, -0 < +0.
  CHECK(f32(h, fop(Opcode::min, DataType::f32, 2), NAN, 2.0f) == 2.0f);
  CHECK(h.eval(fop(Opcode::max, DataType::f32, 2), bits_of(NAN), bits_of(NAN)) == 0x7fffffff);
  CHECK(std::signbit(f32(h, fop(Opcode::min, DataType::f32, 2), 0.0f, -0.0f)));
  CHECK(!std::signbit(f32(h, fop(Opcode::max, DataType::f32, 2), -0.0f, 0.0f)));
  // abs/neg/copysign touch the sign bit only.
  CHECK(h.eval(fop(Opcode::neg, DataType::f32, 1), 0x7fc00001) == 0xffc00001);
  CHECK(h.eval(fop(Opcode::abs, DataType::f64, 1), bits_of(-2.5)) == bits_of(2.5));
  CHECK(f32(h, fop(Opcode::copysign, DataType::f32, 2), -1.0f, 3.0f) == -3.0f);
}

TEST_CASE("interp: approximate functions use host libm", "[interp]") {
  Harness h;
  Instruction sin = fop(Opcode::sin, DataType::f32, 1);
  sin.mod.approx = true;
  CHECK(f32(h, sin, 0.5f) == std::sin(0.5f));
  CHECK(f32(h, fop(Opcode::ex2, DataType::f32, 1), 3.0f) == 8.0f);
  CHECK(f32(h, fop(Opcode::lg2, DataType::f32, 1), 0.125f) == -3.0f);
  CHECK(std::isinf(f32(h, fop(Opcode::lg2, DataType::f32, 1), 0.0f)));
  CHECK(f32(h, fop(Opcode::rsqrt, DataType::f32, 1), 4.0f) == 0.5f);
  CHECK(f32(h, fop(Opcode::rcp, DataType::f32, 1), 8.0f) == 0.125f);
  CHECK(f32(h, fop(Opcode::tanh, DataType::f32, 1), 1.0f) == std::tanh(1.0f));
  CHECK(f32(h, fop(Opcode::cos, DataType::f32, 1), 0.0f) == 1.0f);
  CHECK(f32(h, fop(Opcode::sqrt, DataType::f32, 1), 2.25f) == 1.5f);
}

TEST_CASE("interp: f16, f16x2 and bf16 arithmetic round once", "[interp]") {
  Harness h;
  const uint64_t one = f32_to_f16(1.0f), two_k = f32_to_f16(2048.0f);
  CHECK(h.eval(fop(Opcode::add, DataType::f16, 2), two_k, one) == two_k);  // tie to even
  CHECK(h.eval(fop(Opcode::add, DataType::f16, 2, RoundingMode::rp), two_k, one) ==
        f32_to_f16(2050.0f));
  const uint64_t pair_a = (uint64_t{f32_to_f16(1.5f)} << 16) | f32_to_f16(-2.0f);
  const uint64_t pair_b = (uint64_t{f32_to_f16(2.0f)} << 16) | f32_to_f16(0.25f);
  CHECK(h.eval(fop(Opcode::mul, DataType::f16x2, 2), pair_a, pair_b) ==
        ((uint64_t{f32_to_f16(3.0f)} << 16) | f32_to_f16(-0.5f)));
  CHECK(h.eval(fop(Opcode::fma, DataType::bf16, 3), f32_to_bf16(2.0f), f32_to_bf16(3.0f),
               f32_to_bf16(1.0f)) == f32_to_bf16(7.0f));
  Instruction ftz = fop(Opcode::add, DataType::f16, 2);
  ftz.mod.ftz = true;
  CHECK(h.eval(ftz, 0x0001, 0x0001) == 0);  // subnormal inputs flushed
  CHECK(h.eval(fop(Opcode::add, DataType::f16, 2), 0x0001, 0x0001) == 0x0002);
  CHECK(h.eval(fop(Opcode::neg, DataType::f16x2, 1), 0x3c00bc00) == 0xbc003c00);
}

TEST_CASE("interp: setp floating point ordered/unordered and testp", "[interp]") {
  Harness h;
  auto setp = [](CompareOp op) {
    Instruction in = op3(Opcode::setp, DataType::f32);
    in.mod.compare = op;
    return in;
  };
  const uint64_t nan = bits_of(NAN), one = bits_of(1.0f);
  CHECK(h.eval(setp(CompareOp::lt), nan, one) == 0);
  CHECK(h.eval(setp(CompareOp::ltu), nan, one) == 1);
  CHECK(h.eval(setp(CompareOp::ne), nan, one) == 0);
  CHECK(h.eval(setp(CompareOp::neu), nan, one) == 1);
  CHECK(h.eval(setp(CompareOp::equ), one, one) == 1);
  CHECK(h.eval(setp(CompareOp::num), one, one) == 1);
  CHECK(h.eval(setp(CompareOp::nan), one, nan) == 1);
  CHECK(h.eval(setp(CompareOp::eq), bits_of(0.0f), bits_of(-0.0f)) == 1);
  CHECK(h.eval(setp(CompareOp::geu), bits_of(1.0f), bits_of(2.0f)) == 0);
  Instruction subnormal_eq = setp(CompareOp::eq);
  subnormal_eq.mod.ftz = true;
  CHECK(h.eval(subnormal_eq, bits_of(std::ldexp(1.0f, -140)), 0) == 1);
  Instruction testp = op3(Opcode::testp, DataType::f32, 1);
  testp.mod.test = TestProperty::subnormal;
  CHECK(h.eval(testp, bits_of(std::ldexp(1.0f, -140))) == 1);
  CHECK(h.eval(testp, bits_of(1.0f)) == 0);
  testp.mod.test = TestProperty::notanumber;
  CHECK(h.eval(testp, nan) == 1);
  testp.mod.test = TestProperty::infinite;
  testp.type = DataType::f64;
  CHECK(h.eval(testp, bits_of(-static_cast<double>(INFINITY))) == 1);
}
