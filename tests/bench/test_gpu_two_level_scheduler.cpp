// The SM under two-level warp scheduling (its own executable: SystemC elaborates once per
// process, and this GPU's scheduler differs from test_gpu_sm_timing's).
#include <algorithm>
#include <catch2/catch.hpp>
#include <vector>

#include "tests/bench/gpu_bench.h"
#include "tests/bench/two_loads_kernel.h"

using namespace ohmvp;
using namespace ohmvp::gpu;

namespace {

// One SM whose sub-cores keep one warp each in their active sets.
bench::GpuBench& the_bench() {
  static bench::GpuBench instance([] {
    GpuConfig config = bench::GpuBench::one_sm();
    config.scheduler.policy = WarpSchedulerPolicy::two_level;
    config.scheduler.active_set_size = 1;
    return config;
  }());
  return instance;
}

// Every warp reads the clock first, loads a word of its own line, runs a chain of four adds that
// does not need the load, then uses the load; the first clock goes to out[warp].
const char* const work_then_use_ptx = R"(
.version 7.0
.target sm_75
.address_size 64
.visible .entry work_then_use(.param .u64 in, .param .u64 out)
{
  .reg .b32 %r<12>;
  .reg .b64 %rd<8>;
  mov.u32 %r1, %clock;
  ld.param.u64 %rd1, [in];
  ld.global.u32 %r2, [%rd1];
  add.s32 %r3, %r1, 1;
  add.s32 %r4, %r3, 1;
  add.s32 %r5, %r4, 1;
  add.s32 %r6, %r5, 1;
  add.s32 %r7, %r6, %r2;
  ld.param.u64 %rd2, [out];
  mov.u32 %r8, %tid.x;
  shr.u32 %r9, %r8, 5;
  mul.wide.u32 %rd3, %r9, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.global.u32 [%rd4], %r1;
  add.s64 %rd5, %rd4, 64;
  st.global.u32 [%rd5], %r7;
  exit;
}
)";

}  // namespace

TEST_CASE("two-level: a warp issues its independent loads before it leaves the active set") {
  // The warp leaves the active set at the first use of loaded data, not when it issues a load:
  // so hoisting saves as much as under the other policies (test_gpu_sm_timing).
  bench::check_two_loads_hoisted(the_bench());
}

TEST_CASE("two-level: a warp keeps the active set while it has work that needs no load") {
  // Five warps: the first and the fifth share sub-core 0, whose active set holds one, so the
  // fifth starts pending. The first issues its clock read, the parameter load, the global load
  // (once the parameter is there) and the four adds (the first once the clock value is there);
  // the cycle after the last add its next instruction needs the global load, so it leaves the
  // set, and the fifth issues the cycle after that. Had it left at the global load's issue, the
  // fifth would have started 4 x int latency - 1 cycles sooner.
  bench::GpuBench& b = the_bench();
  const uint64_t in = 0x60000, out = 0x70000;
  b.write<uint32_t>(in, {100});
  const Module module = parse_ptx(work_then_use_ptx, "work_then_use.ptx");
  const LaunchResult r = b.run(module, "work_then_use", {1, 1, 1}, {160, 1, 1}, {in, out});
  REQUIRE_FALSE(r.faulted);
  const std::vector<uint32_t> clocks = b.read<uint32_t>(out, 5);
  const std::vector<uint32_t> sums = b.read<uint32_t>(out + 64, 5);
  const GpuConfig& c = b.config;
  const uint32_t int_latency = c.unit(UnitClass::int_alu).latency;
  const uint32_t first_add = std::max(int_latency, 1 + c.constant_cache_latency + 1);
  INFO("warp 0 starts at " << clocks[0] << ", warp 4 at " << clocks[4]);
  CHECK(clocks[4] - clocks[0] == first_add + 3 * int_latency + 2);
  for (uint32_t w = 0; w < 5; ++w) CHECK(sums[w] == clocks[w] + 4 + 100);
}
