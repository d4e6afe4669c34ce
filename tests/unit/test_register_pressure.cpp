#include <catch2/catch.hpp>

#include "modules/gpu/occupancy.h"
#include "modules/gpu/register_pressure.h"
#include "tests/unit/ptx_test_util.h"

using namespace ohmvp::gpu;
using namespace ohmvp::gpu::test;

namespace {

uint32_t kernel_pressure(const Module& module) {
  for (uint32_t f = 0; f < module.functions.size(); ++f)
    if (module.functions[f].is_kernel) return live_registers_per_thread(module, f);
  throw std::runtime_error("no kernel");
}

}  // namespace

TEST_CASE("register pressure: values that die free their registers", "[gpu]") {
  // Each value is read once, by the next instruction: two are live at most (the one read and
  // the one written), where the PTX declares six.
  const Module chain = small_kernel(R"(
  mov.u32 %r0, %tid.x;
  add.u32 %r1, %r0, 1;
  add.u32 %r2, %r1, 2;
  add.u32 %r3, %r2, 3;
  add.u32 %r4, %r3, 4;
  add.u32 %r5, %r4, 5;
  ret;
)");
  CHECK(kernel_pressure(chain) == 1);  // a write may take the register its dying source frees
  CHECK(ptx_registers_per_thread(chain.functions[0]) == 6);

  // %r0 is read by every add: it stays live beside each sum.
  const Module shared_source = small_kernel(R"(
  mov.u32 %r0, %tid.x;
  add.u32 %r1, %r0, 1;
  add.u32 %r2, %r1, %r0;
  add.u32 %r3, %r2, %r0;
  st.global.u32 [%r3], %r0;
  ret;
)");
  CHECK(kernel_pressure(shared_source) == 2);
}

TEST_CASE("register pressure: 64-bit registers take two slots and predicates none", "[gpu]") {
  const Module module = parse_snippet(R"(
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<3>;
  .reg .b32 %r<3>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 4;
  setp.gt.u32 %p2, %r1, 1;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd2, %rd1, %rd2;
  @%p1 st.global.u32 [%rd2], %r1;
  @%p2 st.global.u32 [%rd2+4], %r1;
  ret;
}
)");
  // At the mul: %rd1 (2) and %r1 (1) live, %rd2 written (2); the predicates count nothing.
  CHECK(kernel_pressure(module) == 5);
}

TEST_CASE("register pressure: a guarded write keeps the value before it live", "[gpu]") {
  const Module module = small_kernel(R"(
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 4;
  mov.u32 %r2, 7;
  mov.u32 %r3, 8;
  @%p1 mov.u32 %r2, %r3;
  add.u32 %r4, %r2, 1;
  st.global.u32 [%r4], %r4;
  ret;
)");
  // Lanes whose %p1 is false still read 7 from %r2: it is live beside %r3.
  CHECK(kernel_pressure(module) == 2);
}

TEST_CASE("register pressure: a value read after a loop is live through it", "[gpu]") {
  const Module module = small_kernel(R"(
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, 0;
LOOP:
  add.u32 %r3, %r2, 3;
  add.u32 %r2, %r3, 1;
  setp.lt.u32 %p1, %r2, 100;
  @%p1 bra LOOP;
  add.u32 %r4, %r2, %r1;
  st.global.u32 [%r4], %r4;
  ret;
)");
  // In the loop: %r1, and %r2 or %r3; the back edge carries %r2 to the loop's top.
  CHECK(kernel_pressure(module) == 2);
}

TEST_CASE("register pressure: a call adds the callee's registers to those live across it",
          "[gpu]") {
  const Module module = parse_snippet(R"(
.func (.param .b32 out) twice_plus(.param .b32 in)
{
  .reg .b32 %a<5>;
  ld.param.b32 %a1, [in];
  add.u32 %a2, %a1, 1;
  add.u32 %a3, %a2, %a1;
  add.u32 %a4, %a3, %a1;
  st.param.b32 [out], %a4;
  ret;
}
.visible .entry k()
{
  .reg .b32 %r<6>;
  mov.u32 %r1, %tid.x;
  add.u32 %r2, %r1, 5;
  add.u32 %r3, %r1, 6;
  {
  .param .b32 arg;
  st.param.b32 [arg], %r1;
  .param .b32 result;
  call.uni (result), twice_plus, (arg);
  ld.param.b32 %r4, [result];
  }
  add.u32 %r5, %r4, %r2;
  add.u32 %r5, %r5, %r3;
  st.global.u32 [%r5], %r5;
  ret;
}
)");
  CHECK(live_registers_per_thread(module, 0) == 2);  // %a1 beside each sum
  // %r2 and %r3 live across the call, plus the callee's 2.
  CHECK(live_registers_per_thread(module, 1) == 4);
}

TEST_CASE("register pressure: recursion counts each function once", "[gpu]") {
  const Module module = parse_snippet(R"(
.func (.param .b32 out) down(.param .b32 in)
{
  .reg .pred %p<2>;
  .reg .b32 %a<5>;
  ld.param.b32 %a1, [in];
  mov.u32 %a4, %a1;
  setp.eq.u32 %p1, %a1, 0;
  @%p1 bra DONE;
  sub.u32 %a2, %a1, 1;
  {
  .param .b32 arg;
  st.param.b32 [arg], %a2;
  .param .b32 result;
  call.uni (result), down, (arg);
  ld.param.b32 %a3, [result];
  }
  add.u32 %a4, %a3, %a1;
DONE:
  st.param.b32 [out], %a4;
  ret;
}
)");
  // Across the recursive call only %a1 is live, and the inner call adds nothing: the outer
  // activation's figure counts the function.
  CHECK(live_registers_per_thread(module, 0) == 2);
}
