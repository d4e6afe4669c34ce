#include <catch2/catch.hpp>

#include "modules/gpu/register_zeroing.h"
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
