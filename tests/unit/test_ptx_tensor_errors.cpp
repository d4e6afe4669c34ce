#include <catch2/catch.hpp>

#include "modules/common/errors.h"
#include "modules/gpu/ptx/ptx_disassembler.h"
#include "tests/unit/ptx_test_util.h"

using namespace ohmvp::gpu;
using namespace ohmvp::gpu::test;

namespace {

const std::string k_declarations =
    ".visible .entry k(.param .u64 p)\n{\n.reg .pred %p<2>;\n.reg .b32 %r<40>;\n"
    ".reg .f32 %f<20>;\n.reg .b64 %rd<4>;\n";

// Parses a kernel whose body starts at line 10 of snippet.ptx and returns the error message.
std::string error_of(const std::string& body) {
  try {
    parse_snippet(k_declarations + body + "\n}\n");
  } catch (const ohmvp::ConfigError& error) {
    return error.what();
  }
  return "no error";
}

const std::string a8 = "{%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}";
const std::string f8 = "{%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}";

}  // namespace

TEST_CASE("ptx: unsupported wmma/mma shapes and types are load-time errors", "[ptx][tensor]") {
  CHECK(error_of("wmma.load.a.sync.aligned.row.m16n16k8.global.f16 " + a8 + ", [p];") ==
        "snippet.ptx:10: wmma.load.a shape .m16n16k8 is not supported (wmma takes .m16n16k16, "
        ".m32n8k16 or .m8n32k16, or .m8n8k32 (s4/u4)) in "
        "'wmma.load.a.sync.aligned.row.m16n16k8.global.f16 " +
            a8 + ", [p];'");
  CHECK(error_of("wmma.load.a.sync.aligned.row.m8n8k128.global.b1 {%r1}, [p];")
            .find("shape .m8n8k128 is not supported") != std::string::npos);
  // The 4-bit mode: s4/u4 A row-major, B column-major, s32 C and D, and nowhere else.
  CHECK(error_of("wmma.load.a.sync.aligned.col.m8n8k32.global.s4 {%r1}, [p];")
            .find("wmma.load.a.m8n8k32 needs .row") != std::string::npos);
  CHECK(error_of("wmma.load.b.sync.aligned.row.m8n8k32.global.u4 {%r1}, [p];")
            .find("wmma.load.b.m8n8k32 needs .col") != std::string::npos);
  CHECK(error_of("wmma.load.a.sync.aligned.row.m8n8k32.global.s8 {%r1}, [p];")
            .find("wmma.load.a.m8n8k32.s8 is not supported (.s4 or .u4)") != std::string::npos);
  CHECK(error_of("wmma.load.c.sync.aligned.row.m8n8k32.global.f32 {%f1, %f2}, [p];")
            .find("wmma.load.c.m8n8k32.f32 is not supported (.s32)") != std::string::npos);
  CHECK(error_of("wmma.load.a.sync.aligned.row.m16n16k16.global.s4 " + a8 + ", [p];")
            .find("wmma.load.a.s4 is not supported (.f16, .s8 or .u8)") != std::string::npos);
  CHECK(error_of("wmma.load.a.sync.aligned.row.m8n8k32.global.s4 {%r1, %r2}, [p];")
            .find("the A fragment has 1 registers, got 2") != std::string::npos);
  CHECK(error_of("wmma.mma.sync.aligned.row.col.m8n8k32.s32.s4.u4.s32 {%r1, %r2}, {%r3}, {%r4}, "
                 "{%r5, %r6};")
            .find("A.s4 with B.u4 is not supported") != std::string::npos);
  CHECK(error_of("wmma.mma.sync.aligned.col.col.m8n8k32.s32.s4.s4.s32 {%r1, %r2}, {%r3}, {%r4}, "
                 "{%r5, %r6};")
            .find("wmma.mma.m8n8k32 needs .row.col") != std::string::npos);
  CHECK(error_of("mma.sync.aligned.m8n8k32.row.col.s32.s8.s8.s32 {%r1, %r2}, {%r3}, {%r4}, "
                 "{%r5, %r6};")
            .find("mma.sync.m8n8k32.s32.s8.s8.s32 is not supported (s4/u4 A and B with s32 C "
                  "and D)") != std::string::npos);
  CHECK(error_of("mma.sync.aligned.m8n8k16.row.col.s32.s4.s4.s32 {%r1, %r2}, {%r3}, {%r4}, "
                 "{%r5, %r6};")
            .find("(s8/u8 A and B with s32 C and D)") != std::string::npos);
  // .s4 and .u4 are the tensor cores' only: no other instruction takes them.
  CHECK(error_of("ld.global.s4 %r1, [p];") != "no error");
  CHECK(error_of("wmma.load.a.sync.aligned.row.m16n16k16.global.bf16 " + a8 + ", [p];")
            .find("wmma.load.a.bf16 is not supported (.f16, .s8 or .u8)") != std::string::npos);
  CHECK(error_of("wmma.load.c.sync.aligned.row.m16n16k16.global.f64 " + f8 + ", [p];")
            .find("wmma.load.c.f64 is not supported") != std::string::npos);
  CHECK(error_of("wmma.load.a.row.m16n16k16.global.f16 " + a8 + ", [p];")
            .find("wmma.load.a needs .sync.aligned") != std::string::npos);
  CHECK(error_of("wmma.load.a.sync.aligned.m16n16k16.global.f16 " + a8 + ", [p];")
            .find("needs one layout") != std::string::npos);
  CHECK(error_of("wmma.load.x.sync.aligned.row.m16n16k16.f16 " + a8 + ", [p];")
            .find("unknown instruction 'wmma.load.x") != std::string::npos);
  CHECK(error_of("wmma.mma.sync.aligned.row.col.m16n16k16.f64.f64 " + f8 + ", " + a8 + ", " + a8 +
                 ", " + f8 + ";")
            .find("is not supported (f16 A and B") != std::string::npos);
  CHECK(error_of("wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 " + f8 + ", " + a8 + ", " + a8 +
                 ", {%f1};")
            .find("the C fragment has 8 registers, got 1") != std::string::npos);
  CHECK(error_of("wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32.satfinite " + f8 + ", " + a8 +
                 ", " + a8 + ", " + f8 + ";")
            .find(".satfinite needs integer A and B") != std::string::npos);
  CHECK(error_of("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, "
                 "{%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f1, %f2, %f3, %f4};")
            .find("mma.sync shape .m16n8k16 is not supported (mma.sync takes .m8n8k4 or .m16n8k8 "
                  "(f16), .m8n8k16 (s8/u8) or .m8n8k32 (s4/u4))") != std::string::npos);
  // Volta's m8n8k4 in f64 (sm_80) is not modelled; f16 takes any layouts, and its fragments'
  // sizes are the quad pairs' (A and B two registers, an f16 C four).
  CHECK(error_of("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%rd1, %rd2}, {%rd3}, {%rd1}, "
                 "{%rd2, %rd3};")
            .find("mma.sync.m8n8k4.f64.f64.f64.f64 is not supported (f16 A and B with f16/f32 C "
                  "and D)") != std::string::npos);
  CHECK(error_of("mma.sync.aligned.m8n8k4.col.row.f16.f16.f16.f16 {%r1, %r2}, {%r3, %r4}, "
                 "{%r5, %r6}, {%r7, %r8, %r9, %r10};")
            .find("the D fragment has 4 registers, got 2") != std::string::npos);
  CHECK(error_of("mma.sync.aligned.m8n8k16.row.col.f32.f16.f16.f32 " + f8 + ", {%r1}, {%r2}, " +
                 f8 + ";")
            .find("mma.sync.m8n8k16.f32.f16.f16.f32 is not supported (s8/u8 A and B with s32 C "
                  "and D)") != std::string::npos);
  CHECK(error_of("mma.sync.aligned.m16n8k8.row.col.s32.s8.s8.s32 {%r1, %r2, %r3, %r4}, {%r5}, "
                 "{%r6}, {%r7, %r8, %r9, %r10};")
            .find("is not supported (f16 A and B with f16/f32 C and D)") != std::string::npos);
  CHECK(error_of("mma.sync.aligned.m8n8k16.row.col.s32.s8.u8.s32 {%r1, %r2}, {%r3}, {%r4}, "
                 "{%r5, %r6, %r7};")
            .find("the C fragment has 2 registers, got 3") != std::string::npos);
  CHECK(error_of("mma.sync.aligned.m16n8k8.col.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, "
                 "{%r1, %r2}, {%r3}, {%f5, %f6, %f7, %f8};")
            .find("needs .row.col") != std::string::npos);
  CHECK(error_of("wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r1, %r2, %r3, %r4, %r5, "
                 "%r6, %r7, %rd1}, [p];")
            .find("needs 32-bit registers") != std::string::npos);
  CHECK(error_of("ldmatrix.sync.aligned.m16n16.x1.shared.b8 {%r1}, [p];")
            .find("ldmatrix shape .m16n16 is not supported (ldmatrix takes .m8n8)") !=
        std::string::npos);
  CHECK(error_of("ldmatrix.sync.aligned.m8n8.shared.b16 {%r1}, [p];")
            .find("ldmatrix needs .x1, .x2 or .x4") != std::string::npos);
  CHECK(error_of("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r1, %r2}, [p];")
            .find("the destination fragment has 4 registers, got 2") != std::string::npos);
  CHECK(error_of("ldmatrix.sync.aligned.m8n8.x1.shared.b32 {%r1}, [p];")
            .find("ldmatrix takes one type, .b16") != std::string::npos);
  CHECK(error_of("wmma.load.a.sync.aligned.row.m16n16k16.global.f16 " + a8 + ", [p], %p1;")
            .find("the stride must be an integer or bit-size register, got a .pred one") !=
        std::string::npos);
  CHECK(error_of("wmma.load.a.sync.aligned.row.m16n16k16.global.f16 " + a8 + ", [p], %f1;")
            .find("the stride must be an integer or bit-size register, got a .f32 one") !=
        std::string::npos);
}

TEST_CASE("ptx: wmma and mma.sync decode and print back", "[ptx][tensor]") {
  const Module module = parse_snippet(
      k_declarations + "wmma.load.a.sync.aligned.col.m32n8k16.shared.f16 " + a8 +
      ", [%rd1], %r9;\n"
      "wmma.mma.sync.aligned.row.col.m16n16k16.s32.s8.s8.s32.satfinite " +
      a8 + ", {%r9, %r10}, {%r11, %r12}, " + a8 +
      ";\n"
      "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2}, {%r3}, "
      "{%f5, %f6, %f7, %f8};\n"
      "wmma.store.d.sync.aligned.row.m16n16k16.global.f16 [%rd1], {%r1, %r2, %r3, %r4};\n"
      "ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 %r5, [%rd1];\n}\n");
  const Function& k = function_named(module, "k");
  REQUIRE(k.instructions.size() == 5);
  const Instruction& ldm = k.instructions[4];
  CHECK(ldm.op == Opcode::ldmatrix);
  CHECK(ldm.unit == UnitClass::ldst);
  CHECK(ldm.operands[0].kind == Operand::Kind::vector);
  CHECK(format_instruction(module, k, ldm) ==
        "ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%r5}, [%rd1]");
  const Instruction& load = k.instructions[0];
  CHECK(load.op == Opcode::wmma_load_a);
  CHECK(load.unit == UnitClass::ldst);
  CHECK(load.mod.shape == MatrixShape::m32n8k16);
  CHECK(load.mod.layout_a == MatrixLayout::col);
  CHECK(load.space == StateSpace::shared);
  CHECK(load.operand_count == 3);
  CHECK(format_instruction(module, k, load) ==
        "wmma.load.a.sync.aligned.col.m32n8k16.shared.f16 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, "
        "%r8}, [%rd1], %r9");
  const Instruction& imma = k.instructions[1];
  CHECK(imma.unit == UnitClass::tensor);
  CHECK(imma.source_type == DataType::s8);
  CHECK(imma.mod.satfinite);
  CHECK(format_instruction(module, k, imma)
            .rfind("wmma.mma.sync.aligned.row.col.m16n16k16.s32.s8.s8.s32.satfinite ", 0) == 0);
  CHECK(format_instruction(module, k, k.instructions[2])
            .rfind("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, ", 0) ==
        0);
  CHECK(k.instructions[3].op == Opcode::wmma_store_d);
  CHECK(k.instructions[3].operand_count == 2);
}
