// tests/data/ptx/sm70_bits.cu: PTX of sm_70 that CUDA's headers emit (bmsk, szext, split timers,
// environment registers, __fdividef's range rule, aligned dynamic shared memory, launch bounds).
#include <cmath>
#include <cstdint>
#include <vector>

#include <catch2/catch.hpp>

#include "modules/common/errors.h"
#include "modules/gpu/ptx/ptx_disassembler.h"
#include "modules/gpu/simt/functional_executor.h"
#include "tests/unit/executor_test_util.h"
#include "tests/unit/ptx_test_util.h"

using namespace ohmvp::gpu;
using namespace ohmvp::gpu::test;

namespace {

// The PTX ISA's pseudo-code of bmsk and szext, step by step.
uint32_t spec_bmsk(uint32_t a, uint32_t b, bool clamp) {
  const uint32_t a1 = a & 0x1f, b1 = b & 0x1f, sum = a1 + b1;
  uint32_t mask0 = ~0u << a1;
  uint32_t mask1 = sum >= 32 ? 0 : ~0u << sum;
  bool position_overflow = false, width_overflow = false;
  if (clamp && a >= 32) {
    position_overflow = true;
    mask0 = 0;
  }
  if (clamp && b >= 32) width_overflow = true;
  if (sum >= 32 || position_overflow || width_overflow)
    mask1 = 0;
  else if (b1 == 0)
    mask1 = ~0u;
  return mask0 & ~mask1;
}

uint32_t spec_szext(uint32_t a, uint32_t b, bool clamp, bool is_signed) {
  const uint32_t b1 = b & 0x1f;
  const bool too_large = b >= 32 && clamp;
  const uint32_t mask = too_large ? 0 : ~0u << b1;
  const uint32_t sign_position = (b1 - 1) & 0x1f;
  const bool sign = !(b1 == 0 || too_large || !is_signed) && ((a >> sign_position) & 1);
  return (a & ~mask) | (sign ? mask : 0);
}

}  // namespace

TEST_CASE("sm_70 bits: bmsk and szext as the PTX ISA defines them", "[simt]") {
  const Module module = load_fixture("sm70_bits.ptx");
  DeviceMemory memory;
  FunctionalExecutor executor(module, memory, 32);
  // Positions and widths around the edges: 0, 1, 31, 32, 33, 255, 2^32-1, and mixes.
  const std::vector<uint32_t> edges{0, 1, 5, 16, 31, 32, 33, 255, 0xffffffffu};
  std::vector<uint32_t> a, b;
  for (const uint32_t x : edges)
    for (const uint32_t y : edges) {
      a.push_back(x);
      b.push_back(y);
    }
  const uint32_t n = static_cast<uint32_t>(a.size());  // 81 threads
  const uint64_t a_at = upload(memory, a), b_at = upload(memory, b),
                 out_at = memory.allocate(16 * n);
  executor.launch(one_cta("bit_masks", n, {a_at, b_at, out_at}));
  const std::vector<uint32_t> out = download<uint32_t>(memory, out_at, 4 * n);
  for (uint32_t i = 0; i < n; ++i) {
    INFO("a = " << a[i] << ", b = " << b[i]);
    const uint32_t value = a[i] * 0x9e3779b9u;
    CHECK(out[4 * i + 0] == spec_bmsk(a[i], b[i], true));
    CHECK(out[4 * i + 1] == spec_bmsk(a[i], b[i], false));
    CHECK(out[4 * i + 2] == spec_szext(value, b[i], true, true));
    CHECK(out[4 * i + 3] == spec_szext(value, b[i], false, false));
  }
  CHECK(spec_bmsk(1, 2, false) == 0x6);         // the ISA's example
  CHECK(out[4 * (2 * 9 + 3) + 0] == 0x1fffe0);  // bmsk.clamp 5, 16
}

TEST_CASE("sm_70 bits: the timers' halves, and environment registers of a plain launch", "[simt]") {
  const Module module = load_fixture("sm70_bits.ptx");
  DeviceMemory memory;
  FunctionalExecutor executor(module, memory, 32);
  const uint64_t out_at = memory.allocate(8 * 8);
  executor.launch(one_cta("timers", 1, {out_at}));
  const std::vector<uint64_t> out = download<uint64_t>(memory, out_at, 8);
  // The functional executor's time is its count of warp instructions, so it runs on between the
  // reads; a later read's halves are never below the whole read first.
  CHECK((out[1] << 32 | out[0]) >= out[2]);
  CHECK(out[3] == out[4] >> 32);
  // No cooperative launch: no grid workspace (cooperative groups' is_valid() is false).
  CHECK(out[5] == 0);
  CHECK(out[6] == 0);
  CHECK(out[7] == 0);
}

TEST_CASE("sm_70 bits: div.approx.f32 flushes 1/b for 2^126 < |b| < 2^128", "[simt]") {
  const Module module = load_fixture("sm70_bits.ptx");
  DeviceMemory memory;
  FunctionalExecutor executor(module, memory, 32);
  const float big = std::ldexp(1.0f, 127), inf = INFINITY;
  const std::vector<float> x{3.0f, -2.0f, inf, 3.0f, 6.0f, 1.0f};
  const std::vector<float> y{big,  1.5f * std::ldexp(1.0f, 126), big, std::ldexp(1.0f, 126),
                             2.0f, std::ldexp(1.0f, 125)};
  const uint64_t x_at = upload(memory, x), y_at = upload(memory, y);
  const uint64_t out_at = memory.allocate(4 * x.size());
  executor.launch(one_cta("fast_divide", 6, {x_at, y_at, out_at}));
  const std::vector<float> out = download<float>(memory, out_at, x.size());
  CHECK(out[0] == 0.0f);
  CHECK_FALSE(std::signbit(out[0]));
  CHECK(out[1] == 0.0f);
  CHECK(std::signbit(out[1]));                    // -2 / +b: a negative zero
  CHECK(std::isnan(out[2]));                      // an infinite dividend: NaN
  CHECK(out[3] == 3.0f / std::ldexp(1.0f, 126));  // |b| = 2^126 exactly: still a quotient
  CHECK(out[4] == 3.0f);
  CHECK(out[5] == std::ldexp(1.0f, -125));
}

TEST_CASE("sm_70 bits: dynamic shared memory starts at the alignment its declaration asks",
          "[simt]") {
  const Module module = load_fixture("sm70_bits.ptx");
  CHECK(module.extern_shared_align == 128);
  DeviceMemory memory;
  FunctionalExecutor executor(module, memory, 32);
  const uint64_t out_at = memory.allocate(8);
  LaunchParams launch = one_cta("aligned_dynamic", 32, {out_at});
  launch.dynamic_shared_bytes = 128;
  executor.launch(launch);
  CHECK(download<uint32_t>(memory, out_at, 2) == std::vector<uint32_t>{128, 4});
}

TEST_CASE("sm_70 bits: a launch beyond __launch_bounds__ or off .reqntid is refused", "[simt]") {
  const Module module = load_fixture("sm70_bits.ptx");
  DeviceMemory memory;
  FunctionalExecutor executor(module, memory, 32);
  const uint64_t out_at = memory.allocate(4 * 128);
  executor.launch(one_cta("bounded", 64, {out_at}));
  CHECK_THROWS_WITH(executor.launch(one_cta("bounded", 128, {out_at})),
                    "launch of 'bounded': a block of (128,1,1) is 128 threads; the kernel takes "
                    "at most 64 (.maxntid, __launch_bounds__)");

  const Module required =
      parse_snippet(".visible .entry k(.param .u64 out) .reqntid 32, 2\n{\nret;\n}\n");
  CHECK(required.functions[0].required_block == std::array<uint32_t, 3>{32, 2, 1});
  FunctionalExecutor shaped(required, memory, 32);
  LaunchParams launch = one_cta("k", 64, {out_at});
  CHECK_THROWS_WITH(shaped.launch(launch),
                    "launch of 'k': a block of (64,1,1); the kernel takes blocks of (32,2,1) only "
                    "(.reqntid)");
  launch.block = {32, 2, 1};
  shaped.launch(launch);
  CHECK_THROWS_WITH(parse_snippet(".visible .entry k() .maxntid 2048\n{\nret;\n}\n"),
                    Catch::Contains(".maxntid takes thread counts from 1 to 1024"));
}

TEST_CASE("sm_70 bits: the disassembler and parser know the new instructions and registers",
          "[ptx]") {
  const Module module = parse_snippet(
      ".visible .entry k()\n{\n.reg .b32 %r<4>;\nbmsk.wrap.b32 %r1, %r2, 3;\n"
      "szext.clamp.s32 %r1, %r2, %r3;\nmov.u32 %r0, %envreg31;\nmov.u32 %r0, "
      "%clock_hi;\nret;\n}\n");
  const Function& k = module.functions[0];
  REQUIRE(k.instructions.size() == 5);
  CHECK(format_instruction(module, k, k.instructions[0]) == "bmsk.wrap.b32 %r1, %r2, 3");
  CHECK(format_instruction(module, k, k.instructions[1]) == "szext.clamp.s32 %r1, %r2, %r3");
  CHECK(format_instruction(module, k, k.instructions[2]) == "mov.u32 %r0, %envreg31");
  CHECK_THROWS_WITH(parse_snippet(".visible .entry k()\n{\n.reg .b32 %r;\nmov.u32 %r, %envreg32;\n"
                                  "ret;\n}\n"),
                    Catch::Contains("undeclared register '%envreg32'"));
  CHECK_THROWS_WITH(parse_snippet(".visible .entry k()\n{\n.reg .b32 %r<3>;\n"
                                  "bmsk.clamp.b64 %r0, %r1, %r2;\nret;\n}\n"),
                    Catch::Contains("bmsk takes .b32"));
}

TEST_CASE(
    "sm_70 bits: a plain launch has no grid workspace; the functional executor refuses a "
    "cooperative one",
    "[simt]") {
  // tests/data/ptx/grid_sync.cu; the timed GPU runs it cooperatively (cli_tests).
  const Module module = load_fixture("grid_sync.ptx");
  DeviceMemory memory;
  FunctionalExecutor executor(module, memory, 32);
  const uint64_t out_at = upload(memory, std::vector<int32_t>(64, -1));
  executor.launch(one_cta("grid_valid", 64, {out_at}));
  CHECK(download<int32_t>(memory, out_at, 64) == std::vector<int32_t>(64, 0));
  LaunchParams cooperative = one_cta("grid_valid", 64, {out_at});
  cooperative.cooperative = true;
  CHECK_THROWS_WITH(executor.launch(cooperative),
                    Catch::Contains("a cooperative launch needs its blocks resident together"));
}

TEST_CASE("sm_70 bits: cvta.param gives a kernel parameter a generic, read-only address",
          "[simt]") {
  const Module module = load_fixture("grid_constant.ptx");
  DeviceMemory memory;
  FunctionalExecutor executor(module, memory, 32);
  const uint64_t out_at = memory.allocate(4 * 4), global_at = memory.allocate(4);
  LaunchParams launch;
  launch.kernel = "grid_constant";
  launch.grid = {1, 1, 1};
  launch.block = {4, 1, 1};
  for (int k = 0; k < 16; ++k) put(launch.arguments, 4 * k, 1.0f + k);
  put(launch.arguments, 64, int32_t{3});
  put(launch.arguments, 72, out_at);
  put(launch.arguments, 80, global_at);
  executor.launch(launch);
  CHECK(download<float>(memory, out_at, 4) == std::vector<float>{101, 102, 103, 0});

  // The window holds the argument block only, and nothing may be written there.
  const Module probe = parse_snippet(
      ".visible .entry k(.param .u32 n, .param .u64 out)\n{\n.reg .b64 %rd<4>;\n.reg .b32 %r<2>;\n"
      ".reg .pred %p;\nmov.u64 %rd1, n;\ncvta.param.u64 %rd2, %rd1;\nld.u32 %r1, [%rd2];\n"
      "isspacep.param %p, %rd2;\nselp.u32 %r1, %r1, 0, %p;\nld.param.u64 %rd3, [out];\n"
      "st.global.u32 [%rd3], %r1;\nst.u32 [%rd2], %r1;\nret;\n}\n");
  FunctionalExecutor writer(probe, memory, 32);
  LaunchParams store = one_cta("k", 1, {});
  put(store.arguments, 0, int32_t{77});
  put(store.arguments, 8, out_at);
  CHECK_THROWS_WITH(writer.launch(store), Catch::Contains("store to read-only storage"));
  CHECK(download<int32_t>(memory, out_at, 1) == std::vector<int32_t>{77});
}
