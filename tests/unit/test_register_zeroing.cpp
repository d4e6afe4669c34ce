#include <algorithm>
#include <catch2/catch.hpp>

#include "modules/gpu/register_zeroing.h"
#include "modules/gpu/simt/warp_state.h"
#include "tests/unit/ptx_test_util.h"

using namespace ohmvp::gpu;
using namespace ohmvp::gpu::test;

namespace {

// small_kernel's %p0..%p3 are rows 0..3, %r0..%r5 rows 4..9.
std::vector<uint32_t> rows_to_zero(const Module& module) {
  const KernelLayout layout(module, "k");
  std::vector<InstructionRegisters> registers;
  for (const Instruction& instruction : layout.kernel().instructions)
    registers.push_back(instruction_registers(instruction));
  return registers_to_zero(layout, registers);
}

}  // namespace

TEST_CASE("register zeroing: registers written on every path before a read are left out", "[gpu]") {
  const Module module = small_kernel(R"(
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p2, %r1, 16;
  @%p2 mov.u32 %r4, 5;
  @!%p2 bra ELSE;
  mov.u32 %r3, 2;
  bra.uni DONE;
ELSE:
  mov.u32 %r2, 1;
  shl.b32 %r2, %r2, %r1;
DONE:
  mad.lo.s32 %r5, %r2, %r1, %r4;
  ret;
)");
  // %r2 is written on one path only, %r4 under a guard; %r3 is never read.
  CHECK(rows_to_zero(module) == std::vector<uint32_t>{6, 8});
}

TEST_CASE("register zeroing: a loop's first iteration reads what the body writes later", "[gpu]") {
  const Module module = small_kernel(R"(
  mov.u32 %r1, 0;
LOOP:
  add.s32 %r1, %r1, %r2;
  mov.u32 %r2, 1;
  setp.lt.s32 %p1, %r1, 10;
  @%p1 bra LOOP;
  ret;
)");
  CHECK(rows_to_zero(module) == std::vector<uint32_t>{6});
}

TEST_CASE("register zeroing: every row when another lane's registers may be read", "[gpu]") {
  const Module module = small_kernel(R"(
  mov.u32 %r1, 1;
  shfl.sync.bfly.b32 %r2, %r1, 1, 31, -1;
  ret;
)");
  CHECK(rows_to_zero(module).size() == 10);
}

TEST_CASE("register zeroing: a warp state kept for another kernel zeroes the rows it reads first",
          "[gpu]") {
  // A kernel of 10 rows, then one of 14 whose %r2 (row 6) is read before it is written.
  const Module first = small_kernel("  mov.u32 %r1, 1;\n  ret;\n");
  const Module second = parse_snippet(
      ".visible .entry k(.param .u32 n)\n{\n.reg .pred %p<4>;\n.reg .b32 %r<10>;\n"
      "  add.u32 %r3, %r2, 1;\n  ret;\n}\n");
  const KernelLayout first_layout(first, "k");
  const KernelLayout second_layout(second, "k");
  REQUIRE(second_layout.total_registers() > first_layout.total_registers());
  WarpState warp(first_layout, 32);
  warp.start(0, {32, 1, 1}, 0);
  for (uint32_t row = 0; row < first_layout.total_registers(); ++row)
    std::fill_n(warp.row(row), 32, 0xabcd);

  std::vector<InstructionRegisters> registers;
  for (const Instruction& instruction : second_layout.kernel().instructions)
    registers.push_back(instruction_registers(instruction));
  const std::vector<uint32_t> rows = registers_to_zero(second_layout, registers);
  REQUIRE(rows == std::vector<uint32_t>{6});
  warp.rebind(second_layout);
  warp.start(0, {32, 1, 1}, 0, &rows);
  CHECK(&warp.layout() == &second_layout);
  CHECK(std::all_of(warp.row(6), warp.row(6) + 32, [](uint64_t v) { return v == 0; }));
  CHECK(std::all_of(warp.row(13), warp.row(13) + 32, [](uint64_t v) { return v == 0; }));
  // Without the rows to zero, a start zeroes the whole file.
  warp.start(0, {32, 1, 1}, 0);
  for (uint32_t row = 0; row < second_layout.total_registers(); ++row)
    CHECK(std::all_of(warp.row(row), warp.row(row) + 32, [](uint64_t v) { return v == 0; }));
}
