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
  // .sat clamps to [+0.0, 1.0]: a -0.0 result becomes +0.0 (libdevice's __saturatef), in every
  // float type.
  Instruction mul_sat = fop(Opcode::mul, DataType::f32, 2);
  mul_sat.mod.sat = true;
  CHECK(h.eval(mul_sat, bits_of(-1.0f), bits_of(0.0f)) == 0);
  mul_sat.type = DataType::f16x2;
  CHECK(h.eval(mul_sat, 0xbc00bc00, 0) == 0);
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
  // abs.ftz and neg.ftz flush subnormal f16 and f16x2 inputs to sign-preserving zero too.
  Instruction abs_half = fop(Opcode::abs, DataType::f16, 1);
  abs_half.mod.ftz = true;
  CHECK(h.eval(abs_half, 0x8001) == 0);
  CHECK(h.eval(abs_half, 0xbc00) == 0x3c00);
  Instruction neg_half = fop(Opcode::neg, DataType::f16x2, 1);
  neg_half.mod.ftz = true;
  CHECK(h.eval(neg_half, 0x00013c00) == 0x8000bc00);
  neg_half.mod.ftz = false;
  CHECK(h.eval(neg_half, 0x00013c00) == 0x8001bc00);
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

TEST_CASE("interp: rcp.approx.ftz.f64 and rsqrt.approx.ftz.f64 use the upper 32 bits only",
          "[interp]") {
  Harness h;
  Instruction rcp = fop(Opcode::rcp, DataType::f64, 1);
  rcp.mod.approx = rcp.mod.ftz = true;
  Instruction rsqrt = fop(Opcode::rsqrt, DataType::f64, 1);
  rsqrt.mod.approx = rsqrt.mod.ftz = true;
  CHECK(h.eval(rcp, bits_of(3.0)) == 0x3fd5555500000000);
  CHECK(h.eval(rcp, bits_of(1.0 + std::ldexp(1.0, -40))) == bits_of(1.0));  // low word unread
  CHECK(h.eval(rcp, bits_of(std::ldexp(1.0, 1023))) == 0);  // a subnormal result flushes
  CHECK(h.eval(rcp, bits_of(-std::ldexp(1.0, -1030))) == bits_of(-HUGE_VAL));  // input flushed
  CHECK(h.eval(rcp, bits_of(static_cast<double>(NAN))) == 0x7fffffff00000000);
  CHECK(h.eval(rsqrt, bits_of(4.0)) == bits_of(0.5));
  CHECK(h.eval(rsqrt, bits_of(std::ldexp(1.0, -1030))) == bits_of(HUGE_VAL));
  // Without .ftz (rcp.approx.f64 is not in the ISA; rcp.rn.f64 is) the result is full width.
  CHECK(h.eval(fop(Opcode::rcp, DataType::f64, 1, RoundingMode::rn), bits_of(3.0)) ==
        bits_of(1.0 / 3.0));
}

TEST_CASE("interp: set and setp on f16x2 compare each half", "[interp]") {
  Harness h;
  // a = {low +0.0, high -2.0}, b = 0: less than is false low, true high.
  const uint64_t a = 0xc0000000;
  Instruction setp = op3(Opcode::setp, DataType::f16x2);
  setp.mod.compare = CompareOp::lt;
  setp.dest_pred = 4;
  CHECK(h.eval(setp, a, 0) == 0);
  CHECK(h.get(4) == 1);
  Instruction set = op3(Opcode::set, DataType::f16x2, 3);
  set.source_type = DataType::f16x2;
  set.mod.compare = CompareOp::lt;
  CHECK(h.eval(set, a, 0) == 0x3c000000);
  set.type = DataType::u32;
  CHECK(h.eval(set, a, 0) == 0xffff0000);
  set.mod.compare = CompareOp::ge;
  CHECK(h.eval(set, a, 0) == 0x0000ffff);
  set.mod.compare = CompareOp::nan;  // __hisnan2
  CHECK(h.eval(set, 0x7e003c00, 0) == 0xffff0000);
  // With a predicate c: each half's result combined with it.
  set.mod.compare = CompareOp::lt;
  set.mod.bool_op = BoolOp::or_;
  CHECK(h.eval(set, a, 0, 1) == 0xffffffff);
  set.type = DataType::bf16x2;
  set.source_type = DataType::bf16x2;
  set.mod.bool_op = BoolOp::none;
  CHECK(h.eval(set, 0xc0000000, 0) == 0x3f800000);
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
