#include <catch2/catch.hpp>

#include "modules/gpu/load_hoisting.h"
#include "tests/unit/ptx_test_util.h"

using namespace ohmvp::gpu;
using namespace ohmvp::gpu::test;

namespace {

// A kernel with registers %p0..%p3, %r0..%r5 and %rd0..%rd5 around `body`, whose first line is
// line 9 of the module.
Module kernel_with(const std::string& body) {
  return parse_snippet(
      ".visible .entry k(.param .u64 out)\n{\n.reg .pred %p<4>;\n.reg .b32 %r<6>;\n"
      ".reg .b64 %rd<6>;\n" +
      body + "}\n");
}

// The body lines (line 9 is 1) of the kernel's instructions, in issue order after the pass.
std::vector<uint32_t> hoisted_order(const std::string& body) {
  Module module = kernel_with(body);
  hoist_loads(module);
  std::vector<uint32_t> lines;
  for (const Instruction& instruction : module.functions[0].instructions)
    lines.push_back(instruction.source_line - 8);
  return lines;
}

}  // namespace

TEST_CASE("load hoisting: a load moves up past the arithmetic it does not depend on", "[gpu]") {
  CHECK(hoisted_order(R"(ld.param.u64 %rd0, [out];
add.s64 %rd1, %rd0, 4;
mul.lo.s32 %r0, %r1, 3;
ld.global.u32 %r2, [%rd0];
add.s32 %r3, %r2, %r0;
ld.global.u32 %r4, [%rd1+8];
ret;
)") == std::vector<uint32_t>{1, 2, 4, 6, 3, 5, 7});
}

TEST_CASE("load hoisting: a load stays after what writes or reads its registers", "[gpu]") {
  // Line 3 writes %r0, which line 2 reads (the load may not pass it); line 5's guard comes
  // from line 4; line 7 writes %r1, which line 6 writes too.
  CHECK(hoisted_order(R"(ld.param.u64 %rd0, [out];
add.s32 %r1, %r0, 1;
ld.global.u32 %r0, [%rd0];
setp.eq.s32 %p0, %r1, 0;
@%p0 ld.global.u32 %r2, [%rd0+4];
mov.u32 %r1, 7;
ld.global.u32 %r1, [%rd0+8];
ret;
)") == std::vector<uint32_t>{1, 2, 3, 4, 5, 6, 7, 8});
}

TEST_CASE("load hoisting: loads do not pass stores barriers fences or ordered loads", "[gpu]") {
  CHECK(hoisted_order(R"(ld.param.u64 %rd0, [out];
st.global.u32 [%rd0], %r0;
add.s32 %r1, %r0, 1;
ld.global.u32 %r2, [%rd0+4];
bar.sync 0;
add.s32 %r3, %r0, 1;
ld.shared.u32 %r4, [%rd1];
membar.gl;
add.s32 %r5, %r0, 2;
ld.volatile.global.u32 %r3, [%rd0+8];
add.s32 %r1, %r5, 3;
ld.global.u32 %r0, [%rd0+12];
ret;
)") == std::vector<uint32_t>{1, 2, 4, 3, 5, 6, 7, 8, 9, 10, 12, 11, 13});
}

TEST_CASE("load hoisting: clock reads stay and carry chains move with their load", "[gpu]") {
  // Nothing passes the clock read. The last load's address comes from the addc, which reads the
  // carry the add.cc writes: both move up with it, past the mul, which feeds no load.
  CHECK(hoisted_order(R"(ld.param.u64 %rd0, [out];
mov.u32 %r0, %clock;
add.s32 %r1, %r0, 1;
ld.global.u32 %r2, [%rd0];
add.cc.u32 %r3, %r1, 1;
mul.lo.s32 %r4, %r1, 3;
addc.u32 %r5, %r1, 0;
cvt.u64.u32 %rd1, %r5;
ld.global.u32 %r0, [%rd1];
ret;
)") == std::vector<uint32_t>{1, 2, 3, 4, 5, 7, 8, 9, 6, 10});
}

TEST_CASE("load hoisting: a guard from a two-predicate setp moves up with its load", "[gpu]") {
  CHECK(hoisted_order(R"(ld.param.u64 %rd0, [out];
mul.lo.s32 %r1, %r0, 3;
setp.lt.s32 %p0|%p1, %r0, 7;
@%p1 ld.global.u32 %r2, [%rd0];
add.s32 %r3, %r1, %r2;
ret;
)") == std::vector<uint32_t>{1, 3, 4, 2, 5, 6});
}

TEST_CASE("load hoisting: a long block with stores takes runs between them", "[gpu]") {
  // 2,000 add / load / store triples, a run of two between each pair of stores.
  std::string body = "ld.param.u64 %rd0, [out];\n";
  for (int i = 0; i < 2000; ++i)
    body += "add.s32 %r1, %r0, " + std::to_string(i) + ";\nld.global.u32 %r0, [%rd0+" +
            std::to_string(4 * i) + "];\nst.global.u32 [%rd0+" + std::to_string(4 * i) +
            "], %r1;\n";
  body += "ret;\n";
  // The load writes %r0, which the add before it reads: nothing moves.
  std::vector<uint32_t> as_written(6002);
  for (uint32_t i = 0; i < as_written.size(); ++i) as_written[i] = i + 1;
  CHECK(hoisted_order(body) == as_written);
}

TEST_CASE("load hoisting: blocks keep their bounds so branches keep their targets", "[gpu]") {
  const std::string body = R"(ld.param.u64 %rd0, [out];
setp.eq.s32 %p0, %r0, 0;
@%p0 bra $L_skip;
add.s32 %r1, %r0, 1;
ld.global.u32 %r2, [%rd0];
$L_skip:
add.s32 %r3, %r0, 2;
ld.global.u32 %r4, [%rd0+4];
st.global.u32 [%rd0+8], %r4;
ret;
)";
  Module written = kernel_with(body);
  Module module = kernel_with(body);
  hoist_loads(module);
  const std::vector<Instruction>& instructions = module.functions[0].instructions;
  std::vector<uint32_t> lines;
  for (const Instruction& instruction : instructions) lines.push_back(instruction.source_line - 8);
  // The load in the skipped block does not leave it; the one after the label does not rise
  // above it.
  CHECK(lines == std::vector<uint32_t>{1, 2, 3, 5, 4, 8, 7, 9, 10});
  const Instruction& branch = instructions[2];
  REQUIRE(branch.op == Opcode::bra);
  CHECK(branch.operands[0].target == written.functions[0].instructions[2].operands[0].target);
  CHECK(instructions[branch.operands[0].target].source_line - 8 == 8);
  CHECK(branch.reconvergence_pc == written.functions[0].instructions[2].reconvergence_pc);
}

TEST_CASE("load hoisting: shared-memory loads stay beside the arithmetic that uses them", "[gpu]") {
  // Hoisting them would put every fma of the chain behind every load.
  CHECK(hoisted_order(R"(ld.shared.u32 %r0, [%rd0];
ld.shared.u32 %r1, [%rd0+4];
mad.lo.s32 %r2, %r0, %r1, %r2;
ld.shared.u32 %r3, [%rd0+8];
ld.shared.u32 %r4, [%rd0+12];
mad.lo.s32 %r2, %r3, %r4, %r2;
ld.global.u32 %r5, [%rd1];
ret;
)") == std::vector<uint32_t>{7, 1, 2, 3, 4, 5, 6, 8});
}

TEST_CASE("load hoisting: what computes a load's address moves up with it", "[gpu]") {
  CHECK(hoisted_order(R"(ld.param.u64 %rd0, [out];
ld.global.u32 %r0, [%rd0];
add.s32 %r1, %r0, 1;
add.s64 %rd1, %rd0, 8;
add.s32 %r2, %r1, %r0;
ld.global.u32 %r3, [%rd1];
add.s32 %r4, %r3, %r2;
ret;
)") == std::vector<uint32_t>{1, 2, 4, 6, 3, 5, 7, 8});
}

TEST_CASE("load hoisting: what an address write must wait for moves up with the load", "[gpu]") {
  // Line 6 overwrites %rd2, which line 5 reads: line 5 must go first, and it goes at once, before
  // the arithmetic on line 3 and 4 that feeds no load. So does line 8, which reads the %rd3 that
  // line 9 writes for the last load.
  CHECK(hoisted_order(R"(ld.param.u64 %rd0, [out];
ld.global.u32 %r0, [%rd0];
add.s32 %r1, %r0, 1;
mul.lo.s32 %r2, %r1, %r1;
add.s64 %rd1, %rd2, 8;
add.s64 %rd2, %rd0, 4;
ld.global.u32 %r3, [%rd2];
add.s64 %rd4, %rd3, 16;
mov.u64 %rd3, %rd0;
ld.global.u32 %r4, [%rd3+8];
ret;
)") == std::vector<uint32_t>{1, 2, 5, 6, 7, 8, 9, 10, 3, 4, 11});
}

TEST_CASE("load hoisting: fdtd_step3 has its five loads in flight before its arithmetic", "[gpu]") {
  Module module = load_ptx_file(std::string(OHMVP_SOURCE_DIR) + "/testbenches/kernels/fdtd2d.ptx");
  const Function& step3 = function_named(module, "fdtd_step3");
  // Whether every global load comes before every FP32 instruction, which waits for loads.
  auto loads_first = [&step3] {
    uint32_t last_load = 0, first_fp32 = UINT32_MAX, loads = 0;
    for (uint32_t pc = 0; pc < step3.instructions.size(); ++pc) {
      const Instruction& instruction = step3.instructions[pc];
      if (instruction.op == Opcode::ld && instruction.space == StateSpace::global) {
        last_load = pc;
        ++loads;
      }
      if (instruction.unit == UnitClass::fp32) first_fp32 = std::min(first_fp32, pc);
    }
    return loads == 5 && last_load < first_fp32;
  };
  CHECK_FALSE(loads_first());
  hoist_loads(module);
  CHECK(loads_first());
}
