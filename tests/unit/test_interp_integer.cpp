#include <catch2/catch.hpp>

#include "tests/unit/ptx_builder.h"

using namespace ptxb;

namespace {

Instruction with_mul(Instruction in, MulMode mode) {
  in.mod.mul = mode;
  return in;
}

}  // namespace

TEST_CASE("interp: integer add/sub wrap, saturate and chain carries", "[interp]") {
  Harness h;
  CHECK(h.eval(op3(Opcode::add, DataType::u32), 0xffffffff, 2) == 1);
  CHECK(h.eval(op3(Opcode::add, DataType::s32), 0x7fffffff, 1) ==
        0xffffffff80000000ULL);  // sign-extended image
  Instruction sat = op3(Opcode::add, DataType::s32);
  sat.mod.sat = true;
  CHECK(h.eval(sat, 0x7fffffff, 5) == 0x7fffffff);
  CHECK(static_cast<int64_t>(h.eval(sat, 0x80000000, 0xffffffff)) == INT32_MIN);
  CHECK(h.eval(op3(Opcode::sub, DataType::u16), 0, 1) == 0xffff);

  // 64-bit addition from 32-bit halves: add.cc lo, addc hi.
  Instruction add_cc = op3(Opcode::add, DataType::u32);
  add_cc.mod.carry_out = true;
  Instruction addc = op3(Opcode::add, DataType::u32);
  addc.mod.carry_in = true;
  h.eval(add_cc, 0xffffffff, 0x00000001);
  CHECK(h.get(0) == 0);
  CHECK(h.warp().carry(0));
  CHECK(h.eval(addc, 0x10, 0x20) == 0x31);
  h.eval(add_cc, 1, 2);
  CHECK_FALSE(h.warp().carry(0));

  // sub.cc computes a + ~b + 1 and keeps its carry: clear after a borrow, set without one;
  // subc adds ~b and the flag, so a borrow takes one more away.
  Instruction sub_cc = op3(Opcode::sub, DataType::u32);
  sub_cc.mod.carry_out = true;
  Instruction subc = op3(Opcode::sub, DataType::u32);
  subc.mod.carry_in = true;
  CHECK(h.eval(sub_cc, 0, 1) == 0xffffffff);
  CHECK_FALSE(h.warp().carry(0));
  CHECK(h.eval(subc, 5, 1) == 3);
  CHECK(h.eval(sub_cc, 1, 1) == 0);
  CHECK(h.warp().carry(0));
  CHECK(h.eval(subc, 5, 1) == 4);
  // Read back with addc 0, 0 as CUDA's 128-bit division does: 1 when nothing was borrowed.
  h.eval(sub_cc, 7, 3);
  CHECK(h.eval(addc, 0, 0) == 1);
  h.eval(sub_cc, 3, 7);
  CHECK(h.eval(addc, 0, 0) == 0);
  // A 64-bit subtraction with a borrow across the halves, and one in 64-bit registers.
  CHECK(h.eval(sub_cc, 0x00000000, 0x00000001) == 0xffffffff);
  CHECK(h.eval(subc, 0x00000005, 0x00000002) == 2);  // 0x5_00000000 - 0x2_00000001
  Instruction sub_cc64 = op3(Opcode::sub, DataType::u64);
  sub_cc64.mod.carry_out = true;
  CHECK(h.eval(sub_cc64, 2, 3) == ~uint64_t{0});
  CHECK_FALSE(h.warp().carry(0));
  CHECK(h.eval(sub_cc64, ~uint64_t{0}, ~uint64_t{0}) == 0);
  CHECK(h.warp().carry(0));
}

TEST_CASE("interp: mul lo/hi/wide, mad carries, mul24", "[interp]") {
  Harness h;
  CHECK(h.eval(with_mul(op3(Opcode::mul, DataType::u32), MulMode::lo), 0x10000, 0x10000) == 0);
  CHECK(h.eval(with_mul(op3(Opcode::mul, DataType::u32), MulMode::hi), 0x10000, 0x10000) == 1);
  CHECK(h.eval(with_mul(op3(Opcode::mul, DataType::s32), MulMode::hi), 0xffffffff, 2) ==
        ~uint64_t{0});  // -1*2 = -2: high word -1
  CHECK(h.eval(with_mul(op3(Opcode::mul, DataType::s32), MulMode::wide), 0xfffffffe, 3) ==
        static_cast<uint64_t>(-6));
  CHECK(h.eval(with_mul(op3(Opcode::mul, DataType::u32), MulMode::wide), 0xffffffff, 0xffffffff) ==
        0xfffffffe00000001ULL);
  CHECK(h.eval(with_mul(op3(Opcode::mul, DataType::u64), MulMode::hi), 0xffffffffffffffffULL, 3) ==
        2);
  CHECK(h.eval(with_mul(op3(Opcode::mul, DataType::s64), MulMode::hi), static_cast<uint64_t>(-1),
               3) == ~uint64_t{0});
  CHECK(h.eval(with_mul(op3(Opcode::mad, DataType::s32, 3), MulMode::lo), 7, 6,
               static_cast<uint64_t>(-2)) == 40);
  CHECK(h.eval(with_mul(op3(Opcode::mad, DataType::u32, 3), MulMode::wide), 0x80000000, 4,
               0x100000000ULL) == 0x300000000ULL);
  Instruction mad_cc = with_mul(op3(Opcode::mad, DataType::u32, 3), MulMode::lo);
  mad_cc.mod.carry_out = true;
  CHECK(h.eval(mad_cc, 0xffffffff, 1, 5) == 4);
  CHECK(h.warp().carry(0));
  Instruction mad_hi_sat = with_mul(op3(Opcode::mad, DataType::s32, 3), MulMode::hi);
  mad_hi_sat.mod.sat = true;
  CHECK(h.eval(mad_hi_sat, 0x40000000, 0x40000000, 0x7fffffff) == 0x7fffffff);

  // mul24 uses the low 24 bits: .hi is bits 16..47 of the 48-bit product.
  CHECK(h.eval(with_mul(op3(Opcode::mul24, DataType::u32), MulMode::lo), 0xff000002, 3) == 6);
  CHECK(h.eval(with_mul(op3(Opcode::mul24, DataType::u32), MulMode::hi), 0xffffff, 0xffffff) ==
        0xfffffe00);
  CHECK(h.eval(with_mul(op3(Opcode::mul24, DataType::s32), MulMode::lo), 0xffffff, 5) ==
        static_cast<uint64_t>(-5));
  CHECK(h.eval(with_mul(op3(Opcode::mad24, DataType::u32, 3), MulMode::lo), 2, 3, 4) == 10);
  // mad24.hi.sat.s32 adds c to bits 16..47 and clamps the sum to the s32 range.
  Instruction mad24_sat = with_mul(op3(Opcode::mad24, DataType::s32, 3), MulMode::hi);
  mad24_sat.mod.sat = true;
  CHECK(h.eval(mad24_sat, 0x007fffff, 0x007fffff, 0x7fffff00) == 0x7fffffff);
  CHECK(static_cast<int64_t>(h.eval(mad24_sat, 0xff800000, 0x007fffff, 0x80000100)) == INT32_MIN);
  CHECK(h.eval(mad24_sat, 5, 7, 1) == 1);
  CHECK(h.eval(mad24_sat, 0x00400000, 0x00400000, 0x10) == 0x10000010);
}

TEST_CASE("interp: div/rem including division by zero and overflow", "[interp]") {
  Harness h;
  CHECK(h.eval(op3(Opcode::div, DataType::u32), 7, 2) == 3);
  CHECK(static_cast<int64_t>(
            h.eval(op3(Opcode::div, DataType::s32), static_cast<uint64_t>(-7), 2)) == -3);
  CHECK(static_cast<int64_t>(
            h.eval(op3(Opcode::rem, DataType::s32), static_cast<uint64_t>(-7), 2)) == -1);
  CHECK(h.eval(op3(Opcode::div, DataType::u32), 7, 0) == 0xffffffff);
  CHECK(h.eval(op3(Opcode::rem, DataType::u32), 7, 0) == 7);
  CHECK(static_cast<int64_t>(h.eval(op3(Opcode::div, DataType::s32), 5, 0)) == -1);
  CHECK(static_cast<int64_t>(h.eval(op3(Opcode::div, DataType::s32), 0x80000000, 0xffffffff)) ==
        INT32_MIN);
  CHECK(h.eval(op3(Opcode::rem, DataType::s32), 0x80000000, 0xffffffff) == 0);
  CHECK(h.eval(op3(Opcode::div, DataType::s64), 0x8000000000000000ULL, ~uint64_t{0}) ==
        0x8000000000000000ULL);
}

TEST_CASE("interp: min max abs neg sad shifts logic", "[interp]") {
  Harness h;
  CHECK(static_cast<int64_t>(
            h.eval(op3(Opcode::min, DataType::s32), static_cast<uint64_t>(-3), 2)) == -3);
  CHECK(h.eval(op3(Opcode::min, DataType::u32), 0xfffffffd, 2) == 2);
  CHECK(h.eval(op3(Opcode::max, DataType::u16), 0xfffd, 2) == 0xfffd);
  CHECK(h.eval(op3(Opcode::abs, DataType::s32, 1), 0x80000000) ==
        0xffffffff80000000ULL);  // abs(MIN) wraps
  CHECK(h.eval(op3(Opcode::abs, DataType::s32, 1), static_cast<uint64_t>(-9)) == 9);
  CHECK(h.eval(op3(Opcode::neg, DataType::s32, 1), 5) == static_cast<uint64_t>(-5));
  CHECK(h.eval(op3(Opcode::sad, DataType::s32, 3), static_cast<uint64_t>(-2), 5, 100) == 107);
  CHECK(h.eval(op3(Opcode::sad, DataType::u32, 3), 2, 5, 1) == 4);
  CHECK(h.eval(op3(Opcode::shl, DataType::b32), 1, 31) == 0x80000000);
  CHECK(h.eval(op3(Opcode::shl, DataType::b32), 1, 32) == 0);
  CHECK(h.eval(op3(Opcode::shr, DataType::u32), 0x80000000, 40) == 0);
  CHECK(h.eval(op3(Opcode::shr, DataType::s32), 0x80000000, 40) == ~uint64_t{0});
  CHECK(h.eval(op3(Opcode::shr, DataType::s32), 0x80000000, 4) == 0xfffffffff8000000ULL);
  CHECK(h.eval(op3(Opcode::shr, DataType::b64), 0x8000000000000000ULL, 63) == 1);
  CHECK(h.eval(op3(Opcode::and_, DataType::b32), 0xf0f0, 0xff00) == 0xf000);
  CHECK(h.eval(op3(Opcode::xor_, DataType::b16), 0xffff, 0x0f0f) == 0xf0f0);
  CHECK(h.eval(op3(Opcode::not_, DataType::b32, 1), 0) == 0xffffffff);
  CHECK(h.eval(op3(Opcode::not_, DataType::pred, 1), 1) == 0);
  CHECK(h.eval(op3(Opcode::cnot, DataType::b32, 1), 0) == 1);
  CHECK(h.eval(op3(Opcode::cnot, DataType::b32, 1), 0x100000000ULL) ==
        1);  // only the low 32 bits count
  Instruction or_negated = make(Opcode::or_, DataType::pred, {r(0), r(1), not_r(2)});
  CHECK(h.eval(or_negated, 0, 1) == 0);
  CHECK(h.eval(or_negated, 0, 0) == 1);
}

TEST_CASE("interp: bit operations", "[interp]") {
  Harness h;
  CHECK(h.eval(op3(Opcode::popc, DataType::b64, 1), 0xff00ff00ff00ff00ULL) == 32);
  CHECK(h.eval(op3(Opcode::clz, DataType::b32, 1), 0) == 32);
  CHECK(h.eval(op3(Opcode::clz, DataType::b32, 1), 1) == 31);
  CHECK(h.eval(op3(Opcode::clz, DataType::b64, 1), 1) == 63);
  CHECK(h.eval(op3(Opcode::brev, DataType::b32, 1), 1) == 0x80000000);
  CHECK(h.eval(op3(Opcode::brev, DataType::b32, 1), 0x12345678) == 0x1e6a2c48);
  CHECK(h.eval(op3(Opcode::bfind, DataType::u32, 1), 0x00f00000) == 23);
  CHECK(h.eval(op3(Opcode::bfind, DataType::u32, 1), 0) == 0xffffffff);
  CHECK(h.eval(op3(Opcode::bfind, DataType::s32, 1), 0xffffff00) ==
        7);  // first bit that differs from the sign
  Instruction shiftamt = op3(Opcode::bfind, DataType::u32, 1);
  shiftamt.mod.shift_right = true;
  CHECK(h.eval(shiftamt, 0x00f00000) == 8);

  CHECK(h.eval(op3(Opcode::bfe, DataType::u32, 3), 0xabcd1234, 8, 8) == 0x12);
  CHECK(h.eval(op3(Opcode::bfe, DataType::s32, 3), 0x0000f000, 12, 4) ==
        ~uint64_t{0});  // sign-extended field
  CHECK(h.eval(op3(Opcode::bfe, DataType::s32, 3), 0x80000000, 28, 8) ==
        0xfffffffffffffff8ULL);  // past the msb: sign bit
  CHECK(h.eval(op3(Opcode::bfe, DataType::u32, 3), 0xffffffff, 8, 0) == 0);
  Instruction bfi = make(Opcode::bfi, DataType::b32, {r(0), r(1), r(2), r(3), r(4)});
  h.set(4, 0, 8);
  CHECK(h.eval(bfi, 0xab, 0x11111111, 4) == 0x11111ab1);
  h.set(4, 0, 40);
  CHECK(h.eval(bfi, 0xffffffff, 0, 28) == 0xf0000000);

  Instruction prmt = op3(Opcode::prmt, DataType::b32, 3);
  CHECK(h.eval(prmt, 0x33221100, 0x77665544, 0x3210) == 0x33221100);
  CHECK(h.eval(prmt, 0x33221100, 0x77665544, 0x7654) == 0x77665544);
  CHECK(h.eval(prmt, 0x33221100, 0x77665544, 0x0123) == 0x00112233);
  CHECK(h.eval(prmt, 0x000080ff, 0, 0x8880) == 0xffffffff);  // sign replication of byte 0 (0xff)
  CHECK(h.eval(prmt, 0x000080ff, 0, 0x9991) == 0xffffff80);
  const std::pair<PermuteMode, uint32_t> modes[] = {
      {PermuteMode::f4e, 0x44332211}, {PermuteMode::b4e, 0x66770011},
      {PermuteMode::rc8, 0x11111111}, {PermuteMode::ecl, 0x33221111},
      {PermuteMode::ecr, 0x11111100}, {PermuteMode::rc16, 0x33223322}};
  for (const auto& [mode, expected] : modes) {
    prmt.mod.permute = mode;
    INFO("mode " << static_cast<int>(mode));
    CHECK(h.eval(prmt, 0x33221100, 0x77665544, 1) == expected);
  }
}

TEST_CASE("interp: fns finds the n-th set bit up or down from its base", "[interp]") {
  Harness h;
  const Instruction fns = op3(Opcode::fns, DataType::b32, 3);  // d, mask, base, offset
  const uint64_t minus_one = 0xffffffff, minus_two = 0xfffffffe;
  // The PTX ISA's examples.
  CHECK(h.eval(fns, 0xaaaaaaaa, 3, 1) == 3);
  CHECK(h.eval(fns, 0xaaaaaaaa, 3, minus_one) == 3);
  CHECK(h.eval(fns, 0xaaaaaaaa, 2, 1) == 3);
  CHECK(h.eval(fns, 0xaaaaaaaa, 2, minus_one) == 1);
  // Offset 0 asks only whether the base bit is set.
  CHECK(h.eval(fns, 0xaaaaaaaa, 3, 0) == 3);
  CHECK(h.eval(fns, 0xaaaaaaaa, 2, 0) == 0xffffffff);
  // Further bits, and none left in either direction.
  CHECK(h.eval(fns, 0xaaaaaaaa, 0, 16) == 31);
  CHECK(h.eval(fns, 0xaaaaaaaa, 0, 17) == 0xffffffff);
  CHECK(h.eval(fns, 0xaaaaaaaa, 31, minus_two) == 29);
  CHECK(h.eval(fns, 0x00000100, 7, minus_one) == 0xffffffff);
  CHECK(h.eval(fns, 0, 0, 1) == 0xffffffff);
  CHECK(h.eval(fns, 0xffffffff, 40, 1) == 0xffffffff);  // base past 31: nothing
}

TEST_CASE("interp: shf funnel shifts left and right, wrap and clamp", "[interp]") {
  Harness h;
  Instruction shf = op3(Opcode::shf, DataType::b32, 3);  // d, a (low word), b (high word), c
  const uint64_t low = 0x89abcdef, high = 0x01234567;
  shf.mod.shift_left = true;
  CHECK(h.eval(shf, low, high, 8) == 0x23456789);
  CHECK(h.eval(shf, low, high, 0) == high);
  CHECK(h.eval(shf, low, high, 40) == 0x23456789);  // .wrap: 40 mod 32
  CHECK(h.eval(shf, low, high, 32) == high);        // .wrap: 32 mod 32 = 0
  shf.mod.clamp = true;
  CHECK(h.eval(shf, low, high, 40) == low);  // .clamp: min(40, 32), all of a shifted in
  CHECK(h.eval(shf, low, high, 4) == 0x12345678);
  shf.mod.shift_left = false;
  shf.mod.clamp = false;
  CHECK(h.eval(shf, low, high, 8) == 0x6789abcd);
  CHECK(h.eval(shf, low, high, 36) == 0x789abcde);  // .wrap: 36 mod 32 = 4
  CHECK(h.eval(shf, low, high, 0) == low);
  shf.mod.clamp = true;
  CHECK(h.eval(shf, low, high, 36) == high);  // .clamp: 32
  CHECK(h.eval(shf, low, high, 0xffffffff) == high);
  // A 64-bit rotate as nvcc emits it: shf.l.wrap with a = b.
  shf.mod.shift_left = true;
  shf.mod.clamp = false;
  CHECK(h.eval(shf, 0x80000001, 0x80000001, 1) == 0x00000003);
}

TEST_CASE("interp: setp with every integer comparison and a bool op", "[interp]") {
  Harness h;
  auto setp = [](CompareOp op, DataType type) {
    Instruction in = op3(Opcode::setp, DataType::none);
    in.source_type = type;
    in.mod.compare = op;
    return in;
  };
  CHECK(h.eval(setp(CompareOp::lt, DataType::s32), 0xffffffff, 0) == 1);
  CHECK(h.eval(setp(CompareOp::lt, DataType::u32), 0xffffffff, 0) == 0);
  CHECK(h.eval(setp(CompareOp::lo, DataType::b32), 1, 2) == 1);
  CHECK(h.eval(setp(CompareOp::hs, DataType::u64), 2, 2) == 1);
  CHECK(h.eval(setp(CompareOp::hi, DataType::u64), 2, 2) == 0);
  CHECK(h.eval(setp(CompareOp::ge, DataType::s16), 0x8000, 0x7fff) == 0);
  CHECK(h.eval(setp(CompareOp::ne, DataType::u32), 0x100000001ULL, 1) ==
        0);  // low 32 bits compared
  Instruction both = setp(CompareOp::eq, DataType::u32);
  both.operands[both.operand_count++] = not_r(3);
  both.mod.bool_op = BoolOp::and_;
  both.dest_pred = 5;
  CHECK(h.eval(both, 4, 4, 0) == 1);  // eq && !0
  CHECK(h.get(5) == 0);               // !eq && !0
  CHECK(h.eval(both, 4, 4, 1) == 0);
  Instruction selp = op3(Opcode::selp, DataType::u32, 3);
  CHECK(h.eval(selp, 10, 20, 1) == 10);
  CHECK(h.eval(selp, 10, 20, 0) == 20);
  Instruction slct = op3(Opcode::slct, DataType::u32, 3);
  slct.source_type = DataType::s32;
  CHECK(h.eval(slct, 10, 20, 0) == 10);
  CHECK(h.eval(slct, 10, 20, 0xffffffff) == 20);
  slct.source_type = DataType::f32;
  CHECK(h.eval(slct, 10, 20, bits_of(-0.0f)) == 10);
  CHECK(h.eval(slct, 10, 20, bits_of(NAN)) == 20);
  Instruction set = op3(Opcode::set, DataType::u32);
  set.source_type = DataType::s32;
  set.mod.compare = CompareOp::gt;
  CHECK(h.eval(set, 3, 2) == 0xffffffff);
  set.type = DataType::f32;
  CHECK(h.eval(set, 3, 2) == bits_of(1.0f));
  set.type = DataType::f16;  // 1.0 in the destination's float type (cuda_fp16's hexp uses it)
  CHECK(h.eval(set, 3, 2) == 0x3c00);
  CHECK(h.eval(set, 2, 3) == 0);
  set.type = DataType::bf16;
  CHECK(h.eval(set, 3, 2) == 0x3f80);
}

TEST_CASE("interp: vabsdiff4 and vabsdiff2 with .sat and .add", "[interp]") {
  Harness h(4);
  Instruction v4 = op3(Opcode::vabsdiff4, DataType::u32, 3);
  v4.source_type = DataType::s32;  // a's bytes signed, b's unsigned
  v4.mod.b_type = DataType::u32;
  // a = {-128, 127, 0, 5}, b = {255, 0, 200, 5}: |differences| = {383, 127, 200, 0}.
  const uint64_t a = 0x05007f80, b = 0x05c800ff;
  CHECK(h.eval(v4, a, b, 0x11111111) == 0x00c87f7f);  // 383 cut to its byte: 0x7f
  v4.mod.sat = true;
  CHECK(h.eval(v4, a, b) == 0x00c87fff);  // 383 saturated to 255
  v4.mod.sat = false;
  v4.mod.accumulate = true;
  CHECK(h.eval(v4, a, b, 1000) == 1000 + 383 + 127 + 200);
  Instruction v2 = op3(Opcode::vabsdiff2, DataType::s32, 3);
  v2.source_type = DataType::s32;
  v2.mod.b_type = DataType::s32;
  v2.mod.accumulate = true;
  v2.mod.sat = true;
  // a = {-32768, 32767}, b = {32767, -32768}: 65535 each; c = INT32_MAX saturates.
  CHECK(h.eval(v2, 0x7fff8000, 0x80007fff, 0x7fffffff) == 0x7fffffff);
  CHECK(h.eval(v2, 0x7fff8000, 0x80007fff, uint32_t(-131070)) == 0);
}

TEST_CASE("interp: guards select the executing lanes", "[interp]") {
  Harness h(8);
  for (uint32_t lane = 0; lane < 8; ++lane) {
    h.set(1, lane, lane);
    h.set(4, lane, lane % 2);
    h.set(0, lane, 99);
  }
  Instruction in = make(Opcode::add, DataType::u32, {r(0), r(1), imm(100)});
  in.guard_reg = 4;
  in.guard_negated = true;
  const StepResult result = h.run(in);
  CHECK(result.active_mask == 0xff);
  CHECK(result.executed_mask == 0x55);
  for (uint32_t lane = 0; lane < 8; ++lane) CHECK(h.get(0, lane) == (lane % 2 ? 99 : 100 + lane));
}
