#pragma once

#include <catch2/catch.hpp>
#include <cstdint>

#include "modules/gpu/load_hoisting.h"
#include "tests/bench/gpu_bench.h"

namespace ohmvp::bench {

// Two loads from different lines, the second independent of the first but written after the
// arithmetic that uses the first; the result goes 2048 bytes past `in`.
inline const char* const two_loads_ptx = R"(
.version 7.0
.target sm_75
.address_size 64
.visible .entry two_loads(.param .u64 in)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [in];
  ld.global.u32 %r1, [%rd1];
  add.s32 %r2, %r1, 1;
  ld.global.u32 %r3, [%rd1+128];
  add.s32 %r4, %r3, %r2;
  add.s64 %rd2, %rd1, 2048;
  st.global.u32 [%rd2], %r4;
  exit;
}
)";

// Runs two_loads in one warp as written and with its loads hoisted, and checks that hoisting
// saves what it should: both lines are L2 hits (the first launch brings them into the L2; each
// launch starts with an empty L1). As written the second load issues the cycle after the add
// that waits for the first, l2_hit + 1 after it; hoisted, the LD/ST unit's initiation interval
// after it. The last add waits for the second load in both (the first add's result is ready by
// then), and the rest follows it.
inline void check_two_loads_hoisted(GpuBench& b) {
  using namespace gpu;
  const uint64_t in = 0x50000, out = in + 2048;
  b.write<uint32_t>(in, {41});
  b.write<uint32_t>(in + 128, {1000});
  const Module as_written = parse_ptx(two_loads_ptx, "two_loads.ptx");
  Module hoisted = parse_ptx(two_loads_ptx, "two_loads.ptx");
  hoist_loads(hoisted);
  REQUIRE(hoisted.functions[0].instructions[2].op == Opcode::ld);
  REQUIRE_FALSE(b.run(as_written, "two_loads", {1, 1, 1}, {1, 1, 1}, {in}).faulted);
  const LaunchResult written = b.run(as_written, "two_loads", {1, 1, 1}, {1, 1, 1}, {in});
  CHECK(b.read<uint32_t>(out, 1)[0] == 1042);
  b.write<uint32_t>(out, {0});
  const LaunchResult early = b.run(hoisted, "two_loads", {1, 1, 1}, {1, 1, 1}, {in});
  CHECK(b.read<uint32_t>(out, 1)[0] == 1042);
  REQUIRE_FALSE(written.faulted);
  REQUIRE_FALSE(early.faulted);
  CHECK(early.warp_instructions == written.warp_instructions);
  const GpuConfig& c = b.config;
  const uint32_t l2_hit = l2_hit_cycles(c);
  const uint32_t ldst_interval = c.unit(UnitClass::ldst).initiation_interval;
  REQUIRE(c.unit(UnitClass::int_alu).latency <= ldst_interval);
  INFO("as written " << written.cycles() << ", hoisted " << early.cycles());
  CHECK(written.cycles() - early.cycles() == l2_hit + 1 - ldst_interval);
}

}  // namespace ohmvp::bench
