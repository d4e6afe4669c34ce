#include <array>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "modules/common/errors.h"
#include "tests/bench/gpu_bench.h"
#include "tests/bench/two_loads_kernel.h"

using namespace ohmvp;
using namespace ohmvp::gpu;

namespace {

bench::GpuBench& the_bench() {
  static bench::GpuBench instance;
  return instance;
}

// mov, then `adds` adds each using the previous result, then exit.
std::string chain_ptx(int adds) {
  std::string ptx =
      ".version 7.0\n.target sm_75\n.address_size 64\n"
      ".visible .entry chain()\n{\n  .reg .b32 %r<200>;\n  mov.u32 %r0, 1;\n";
  for (int i = 1; i <= adds; ++i) {
    ptx += "  add.s32 %r" + std::to_string(i) + ", %r" + std::to_string(i - 1) + ", 1;\n";
  }
  return ptx + "  exit;\n}\n";
}

// Reads %clock around a first (missing) and a second (hitting) load of the same word, and
// stores the loaded value and both intervals. The add of %rd2 holds the first clock read until
// both parameter loads are done, so the LD/ST unit is free for the first global load.
const char* hit_miss_ptx = R"(
.version 7.0
.target sm_75
.address_size 64
.visible .entry hit_miss(.param .u64 in, .param .u64 out)
{
  .reg .b32 %r<12>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  add.s64 %rd3, %rd2, 0;
  mov.u32 %r1, %clock;
  ld.global.u32 %r2, [%rd1];
  add.s32 %r3, %r2, 0;
  mov.u32 %r4, %clock;
  ld.global.u32 %r5, [%rd1];
  add.s32 %r6, %r5, 0;
  mov.u32 %r7, %clock;
  sub.s32 %r8, %r4, %r1;
  sub.s32 %r9, %r7, %r4;
  st.global.u32 [%rd2], %r3;
  st.global.u32 [%rd2+4], %r6;
  st.global.u32 [%rd2+8], %r8;
  st.global.u32 [%rd2+12], %r9;
  exit;
}
)";

// Warp 0 runs a dependent chain before bar.sync and stores the clock (a write-through to L2)
// just before it; every warp stores the clock after the barrier.
const char* barrier_ptx = R"(
.version 7.0
.target sm_75
.address_size 64
.visible .entry barrier(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<20>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  shr.u32 %r2, %r1, 5;
  setp.ne.u32 %p1, %r2, 0;
  @%p1 bra WAIT;
  add.s32 %r3, %r1, 1;
  add.s32 %r3, %r3, 1;
  add.s32 %r3, %r3, 1;
  add.s32 %r3, %r3, 1;
  add.s32 %r3, %r3, 1;
  add.s32 %r3, %r3, 1;
  add.s32 %r3, %r3, 1;
  add.s32 %r3, %r3, 1;
  add.s32 %r3, %r3, 1;
  add.s32 %r3, %r3, 1;
  mov.u32 %r4, %clock;
  st.global.u32 [%rd1+64], %r4;
WAIT:
  bar.sync 0;
  mov.u32 %r5, %clock;
  mul.wide.u32 %rd2, %r2, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r5;
  exit;
}
)";

// An atomic after a load of the same word must see (and leave) L2's value, not the L1 copy:
// once with the line valid in the L1 (the add waits for the first load), once with the line's
// fetch still in flight when the atomic passes the L1.
const char* atomic_l1_ptx = R"(
.version 7.0
.target sm_75
.address_size 64
.visible .entry atomic_l1(.param .u64 data, .param .u64 out)
{
  .reg .b32 %r<12>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [data];
  ld.param.u64 %rd2, [out];
  ld.global.u32 %r1, [%rd1];
  add.s32 %r2, %r1, 0;
  atom.global.add.u32 %r3, [%rd1], 5;
  ld.global.u32 %r4, [%rd1];
  ld.global.u32 %r5, [%rd1+256];
  atom.global.add.u32 %r6, [%rd1+256], 7;
  ld.global.u32 %r7, [%rd1+256];
  st.global.u32 [%rd2], %r2;
  st.global.u32 [%rd2+4], %r3;
  st.global.u32 [%rd2+8], %r4;
  st.global.u32 [%rd2+12], %r5;
  st.global.u32 [%rd2+16], %r6;
  st.global.u32 [%rd2+20], %r7;
  exit;
}
)";

// Two loads of different sectors of one line, back to back: the second misses on the line
// while its first fetch is in flight, and needs a sector that fetch does not bring.
const char* two_sectors_ptx = R"(
.version 7.0
.target sm_75
.address_size 64
.visible .entry two_sectors(.param .u64 in, .param .u64 out)
{
  .reg .b32 %r<12>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  add.s64 %rd3, %rd2, 0;
  mov.u32 %r1, %clock;
  ld.global.u32 %r2, [%rd1];
  ld.global.u32 %r3, [%rd1+32];
  add.s32 %r4, %r2, %r3;
  mov.u32 %r5, %clock;
  sub.s32 %r6, %r5, %r1;
  st.global.u32 [%rd2], %r4;
  st.global.u32 [%rd2+4], %r6;
  exit;
}
)";

// An atomic on a sector whose fetch is in flight beside a second fetch of the line, then a load
// of the atomic's word that waits for the first load (its address adds 0 times its value).
const char* atomic_two_fetches_ptx = R"(
.version 7.0
.target sm_75
.address_size 64
.visible .entry atomic_two_fetches(.param .u64 data, .param .u64 out)
{
  .reg .b32 %r<12>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [data];
  ld.param.u64 %rd2, [out];
  ld.global.u32 %r1, [%rd1];
  ld.global.u32 %r2, [%rd1+32];
  atom.global.add.u32 %r3, [%rd1], 5;
  mul.lo.u32 %r4, %r1, 0;
  cvt.u64.u32 %rd3, %r4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.u32 %r5, [%rd4];
  st.global.u32 [%rd2], %r1;
  st.global.u32 [%rd2+4], %r2;
  st.global.u32 [%rd2+8], %r3;
  st.global.u32 [%rd2+12], %r5;
  exit;
}
)";

// Warp 0 reads %clock, issues 5 loads to lines of one L1 set (4 ways; the lines are a set's span
// apart), reads %clock again after a use of the fifth load and stores both reads and that
// load's value. Warp 1, in the next sub-core, runs a dependent chain of 10 adds, then issues 16
// loads to lines of other sets and stores a %clock read after the last one.
std::string full_set_ptx(uint32_t set_span) {
  std::string ptx =
      ".version 7.0\n.target sm_75\n.address_size 64\n"
      ".visible .entry full_set(.param .u64 in, .param .u64 out)\n{\n"
      "  .reg .pred %p<2>;\n  .reg .b32 %r<64>;\n  .reg .b64 %rd<5>;\n"
      "  mov.u32 %r20, %tid.x;\n  setp.ge.u32 %p1, %r20, 32;\n"
      "  ld.param.u64 %rd1, [in];\n  ld.param.u64 %rd2, [out];\n  add.s64 %rd3, %rd2, 0;\n"
      "  @%p1 bra OTHER;\n  mov.u32 %r1, %clock;\n";
  const auto load = [](int k, uint32_t offset) {
    return "  ld.global.u32 %r" + std::to_string(30 + k) + ", [%rd1+" + std::to_string(offset) +
           "];\n";
  };
  for (int k = 0; k < 5; ++k) ptx += load(k, k * set_span);
  ptx +=
      "  add.s32 %r3, %r34, 0;\n  mov.u32 %r4, %clock;\n"
      "  st.global.u32 [%rd2], %r1;\n  st.global.u32 [%rd2+4], %r3;\n"
      "  st.global.u32 [%rd2+8], %r4;\n  exit;\nOTHER:\n";
  for (int k = 0; k < 10; ++k) ptx += "  add.s32 %r20, %r20, 1;\n";
  for (int k = 0; k < 16; ++k) ptx += load(k, (k + 1) * 128);
  return ptx + "  mov.u32 %r2, %clock;\n  st.global.u32 [%rd2+16], %r2;\n  exit;\n}\n";
}

const char* fault_ptx = R"(
.version 7.0
.target sm_75
.address_size 64
.visible .entry misaligned(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, 7;
  st.global.u32 [%rd1+2], %r1;
  exit;
}
)";

}  // namespace

TEST_CASE("gpu timing: a dependent ALU chain takes the INT latency per instruction") {
  bench::GpuBench& b = the_bench();
  const uint32_t latency = b.config.unit(UnitClass::int_alu).latency;
  for (int adds : {1, 10, 40}) {
    const Module module = parse_ptx(chain_ptx(adds), "chain.ptx");
    const LaunchResult r = b.run(module, "chain", {1, 1, 1}, {1, 1, 1}, {});
    REQUIRE_FALSE(r.faulted);
    // mov at cycle 0, add k at k x latency, exit the cycle after the last add; the launch ends
    // with the exit's cycle.
    CHECK(r.cycles() == adds * latency + 2);
    CHECK(r.warp_instructions == uint64_t(adds + 2));
  }
}

TEST_CASE("gpu timing: four warps issue from the four sub-cores in parallel") {
  bench::GpuBench& b = the_bench();
  const uint32_t latency = b.config.unit(UnitClass::int_alu).latency;
  const Module module = parse_ptx(chain_ptx(20), "chain.ptx");
  std::array<uint64_t, 4> issued_before{};
  for (uint32_t s = 0; s < 4; ++s) {
    issued_before[s] = b.gpu.sm(0).sub_core_stats(s).cycles(StallReason::issued);
  }
  const LaunchResult one = b.run(module, "chain", {1, 1, 1}, {32, 1, 1}, {});
  const LaunchResult four = b.run(module, "chain", {1, 1, 1}, {128, 1, 1}, {});
  CHECK(one.cycles() == 20 * latency + 2);
  CHECK(four.cycles() == one.cycles());
  CHECK(four.warp_instructions == 4 * one.warp_instructions);
  // Eight warps: two per sub-core share its INT unit, so the second warp's mov waits for the
  // first's initiation interval and the whole second chain trails by that much.
  const uint32_t interval = b.config.unit(UnitClass::int_alu).initiation_interval;
  const LaunchResult eight = b.run(module, "chain", {1, 1, 1}, {256, 1, 1}, {});
  CHECK(eight.cycles() == one.cycles() + interval);
  for (uint32_t s = 0; s < 4; ++s) {
    const uint64_t issued = b.gpu.sm(0).sub_core_stats(s).cycles(StallReason::issued);
    // one warp (sub-core 0 only), one on each, two on each; 22 instructions per warp
    CHECK(issued - issued_before[s] == (s == 0 ? 22u : 0u) + 22 + 2 * 22);
  }
}

TEST_CASE("gpu timing: an L1 hit takes the hit latency, a miss goes to L2 and DRAM") {
  bench::GpuBench& b = the_bench();
  const Module module = parse_ptx(hit_miss_ptx, "hit_miss.ptx");
  const uint64_t in = 0x10000, out = 0x20000;
  b.write<uint32_t>(in, {0xcafe1234});
  const LaunchResult r = b.run(module, "hit_miss", {1, 1, 1}, {1, 1, 1}, {in, out});
  REQUIRE_FALSE(r.faulted);
  const std::vector<uint32_t> got = b.read<uint32_t>(out, 4);
  CHECK(got[0] == 0xcafe1234);
  CHECK(got[1] == 0xcafe1234);
  // Load-to-use latencies (bench::l1_hit_cycles, l2_hit_cycles).
  const GpuConfig& c = b.config;
  const uint32_t l1_hit = bench::l1_hit_cycles(c);
  const uint32_t l2_hit = bench::l2_hit_cycles(c);
  // The interval between the clock reads: the ld issues one cycle after the first read, the add
  // at load-to-use, the second read once the add's INT unit is free again.
  const uint32_t around = 1 + c.unit(UnitClass::int_alu).initiation_interval;
  CHECK(got[3] == l1_hit + around);
  // The first load also misses in L2 and waits for DRAM as well.
  CHECK(got[2] > l2_hit + around);

  // A new launch starts with an empty L1 but the line stays in L2.
  const Histogram& loads = *b.stats.find_histogram("gpu", "load_latency");
  const Histogram& accesses = *b.stats.find_histogram("gpu", "memory_latency");
  const uint64_t loads_before = loads.count(), load_cycles_before = loads.sum();
  const uint64_t accesses_before = accesses.count();
  const LaunchResult again = b.run(module, "hit_miss", {1, 1, 1}, {1, 1, 1}, {in, out});
  REQUIRE_FALSE(again.faulted);
  const std::vector<uint32_t> now = b.read<uint32_t>(out, 4);
  CHECK(now[0] == 0xcafe1234);
  CHECK(now[2] == l2_hit + around);
  CHECK(now[3] == l1_hit + around);
  // gpu.load_latency takes the two loads' load-to-use latencies; memory_latency the four stores'
  // acknowledgements too.
  CHECK(loads.count() - loads_before == 2);
  CHECK(loads.sum() - load_cycles_before == l2_hit + l1_hit);
  CHECK(accesses.count() - accesses_before == 6);

  // gpu.l2_hit_rate sums the slices' counters (one slice: one memory channel).
  const double hits = double(b.stats.find_counter("gpu.l2_0", "hits")->value());
  const double misses = double(b.stats.find_counter("gpu.l2_0", "misses")->value());
  REQUIRE(hits > 0);
  REQUIRE(misses > 0);
  CHECK(b.stats.find_scalar("gpu", "l2_hit_rate")->value() == Approx(hits / (hits + misses)));
}

TEST_CASE("gpu timing: a miss on a line in flight fetches the sectors its fetch lacks at once") {
  bench::GpuBench& b = the_bench();
  const Module module = parse_ptx(two_sectors_ptx, "two_sectors.ptx");
  const uint64_t in = 0x70000, out = 0x78000;
  b.write<uint32_t>(in, {40});
  b.write<uint32_t>(in + 32, {2});
  REQUIRE_FALSE(b.run(module, "two_sectors", {1, 1, 1}, {1, 1, 1}, {in, out}).faulted);
  // Again with both sectors in L2: the second load issues the LD/ST unit's initiation interval
  // after the first and its fetch leaves at once, so the sum waits one L2 hit after it, not
  // for the first fill and then a second L2 hit.
  const uint64_t added_before = b.stats.find_counter("gpu.sm0", "l1_added_fetches")->value();
  REQUIRE_FALSE(b.run(module, "two_sectors", {1, 1, 1}, {1, 1, 1}, {in, out}).faulted);
  const std::vector<uint32_t> got = b.read<uint32_t>(out, 2);
  CHECK(got[0] == 42);
  const GpuConfig& c = b.config;
  const uint32_t l2_hit = bench::l2_hit_cycles(c);
  const uint32_t around = 1 + c.unit(UnitClass::int_alu).initiation_interval;
  CHECK(got[1] == l2_hit + c.unit(UnitClass::ldst).initiation_interval + around);
  CHECK(b.stats.find_counter("gpu.sm0", "l1_added_fetches")->value() == added_before + 1);
}

TEST_CASE("gpu timing: an atomic waits while its line has two fetches in flight") {
  bench::GpuBench& b = the_bench();
  const uint64_t data = 0x90000, out = 0x98000;
  b.write<uint32_t>(data, {100});
  b.write<uint32_t>(data + 32, {200});
  // Sector 0 into L2 only: its fetch then fills long before the one of sector 1 (from DRAM).
  const Module warm = parse_ptx(hit_miss_ptx, "hit_miss.ptx");
  REQUIRE_FALSE(b.run(warm, "hit_miss", {1, 1, 1}, {1, 1, 1}, {data, out}).faulted);
  const Module module = parse_ptx(atomic_two_fetches_ptx, "atomic_two_fetches.ptx");
  REQUIRE_FALSE(b.run(module, "atomic_two_fetches", {1, 1, 1}, {1, 1, 1}, {data, out}).faulted);
  const std::vector<uint32_t> got = b.read<uint32_t>(out, 4);
  CHECK(got[0] == 100);
  CHECK(got[1] == 200);
  CHECK(got[2] == 100);
  // Had the atomic passed, sector 0's fill would have made the old word valid in the L1 again
  // while sector 1 was still on its way, and this load would have hit it.
  CHECK(got[3] == 105);
  CHECK(b.read<uint32_t>(data, 1)[0] == 105);
}

TEST_CASE(
    "gpu timing: a load with every way of its L1 set waiting for a fill enters at the first fill") {
  bench::GpuBench& b = the_bench();
  const GpuConfig& c = b.config;
  const uint32_t set_span = c.l1d.sets() * c.l1d.line_bytes;
  REQUIRE(c.l1d.ways == 4);
  const Module module = parse_ptx(full_set_ptx(set_span), "full_set.ptx");
  const uint64_t in = 0x100000, out = 0x180000;
  b.write<uint32_t>(in + 4 * set_span, {4444});
  // The first launch brings every line into L2; the second starts with an empty L1.
  REQUIRE_FALSE(b.run(module, "full_set", {1, 1, 1}, {64, 1, 1}, {in, out}).faulted);
  const uint64_t stalls_before = b.stats.find_counter("gpu.sm0", "l1_stall_cycles")->value();
  REQUIRE_FALSE(b.run(module, "full_set", {1, 1, 1}, {64, 1, 1}, {in, out}).faulted);
  const std::vector<uint32_t> got = b.read<uint32_t>(out, 5);
  CHECK(got[1] == 4444);
  const uint32_t ldst = c.unit(UnitClass::ldst).latency;
  const uint32_t ldst_interval = c.unit(UnitClass::ldst).initiation_interval;
  const uint32_t l2_hit = bench::l2_hit_cycles(c);
  // Warp 0's loads issue an LD/ST initiation interval apart from the cycle after its clock read,
  // and its first load's line fills l2_hit after it issued. Until then the fifth load, at the
  // head of the LD/ST unit's queue from `ldst` cycles after it issued, finds no way to allocate.
  const uint32_t first_fill = got[0] + 1 + l2_hit;
  CHECK(b.stats.find_counter("gpu.sm0", "l1_stall_cycles")->value() - stalls_before ==
        first_fill - (got[0] + 1 + 4 * ldst_interval + ldst));
  // Then it enters, and its own L2 hit follows.
  const uint32_t around = c.unit(UnitClass::int_alu).initiation_interval;
  CHECK(got[2] == first_fill + (l2_hit - ldst) + around);
  // Warp 1's loads issue after the fifth load was queued, and long before the first fill: 15 fill
  // the LD/ST unit's queue of 16 behind the stalled load, so the 16th waits to issue until that
  // load enters and makes room, in the first fill's cycle. Its clock read issues in the next.
  CHECK(got[4] == first_fill + 1);
}

TEST_CASE("gpu timing: an atomic at L2 leaves no stale copy of its word in the L1") {
  bench::GpuBench& b = the_bench();
  const Module module = parse_ptx(atomic_l1_ptx, "atomic_l1.ptx");
  const uint64_t data = 0x50000, out = 0x60000;
  b.write<uint32_t>(data, {100});
  b.write<uint32_t>(data + 256, {200});
  const LaunchResult r = b.run(module, "atomic_l1", {1, 1, 1}, {1, 1, 1}, {data, out});
  REQUIRE_FALSE(r.faulted);
  const std::vector<uint32_t> got = b.read<uint32_t>(out, 6);
  CHECK(got[0] == 100);  // the load that brought the line into the L1
  CHECK(got[1] == 100);  // the atomic's old value
  CHECK(got[2] == 105);  // the next load misses the invalidated sector and reads L2
  CHECK(got[3] == 200);  // waiting on the fetch when the atomic passed: the value before it
  CHECK(got[4] == 200);
  CHECK(got[5] == 207);  // may not merge into that fetch
  CHECK(b.read<uint32_t>(data, 1)[0] == 105);
  CHECK(b.read<uint32_t>(data + 256, 1)[0] == 207);
}

TEST_CASE("gpu timing: a hoisted load waits for its line alongside the one before it") {
  bench::check_two_loads_hoisted(the_bench());
}

TEST_CASE("gpu timing: bar.sync holds every warp until the last one arrives and no longer") {
  bench::GpuBench& b = the_bench();
  const Module module = parse_ptx(barrier_ptx, "barrier.ptx");
  const uint64_t out = 0x30000;
  const LaunchResult r = b.run(module, "barrier", {1, 1, 1}, {128, 1, 1}, {out});
  REQUIRE_FALSE(r.faulted);
  const std::vector<uint32_t> clocks = b.read<uint32_t>(out, 17);
  const uint32_t before = clocks[16];  // warp 0, before its bar.sync
  // The barrier opens when warp 0 arrives, the cycle after its store of that clock issues (once
  // the clock is written); it does not wait for the L2 to acknowledge the store: bar orders
  // memory among the CTA's threads only, and they all reach it through this SM's in-order path.
  const uint32_t store_issue = before + b.config.unit(UnitClass::int_alu).latency;
  const uint32_t opened = store_issue + 1 + b.config.unit(UnitClass::barrier).latency;
  for (int w = 0; w < 4; ++w) {
    INFO("warp " << w);
    CHECK(clocks[w] == opened);
    CHECK(clocks[w] < store_issue + bench::l2_hit_cycles(b.config));
  }
}

TEST_CASE("gpu timing: a device fault stops the launch with kernel, PC, CTA and thread") {
  bench::GpuBench& b = the_bench();
  const Module module = parse_ptx(fault_ptx, "fault.ptx");
  const LaunchResult r = b.run(module, "misaligned", {2, 1, 1}, {64, 1, 1}, {0x40000});
  REQUIRE(r.faulted);
  INFO(r.fault);
  CHECK(r.fault.find("misaligned") != std::string::npos);
  CHECK(r.fault.find("fault.ptx") != std::string::npos);
  CHECK(r.fault.find("CTA") != std::string::npos);
  CHECK(r.fault.find("thread") != std::string::npos);
  // The GPU takes the next launch normally.
  const Module chain = parse_ptx(chain_ptx(1), "chain.ptx");
  CHECK_FALSE(b.run(chain, "chain", {1, 1, 1}, {1, 1, 1}, {}).faulted);
}

TEST_CASE("gpu: host copies of more than one debug chunk, and past device memory") {
  bench::GpuBench& b = the_bench();
  // 1 MiB + 12 bytes: the copy crosses the 1 MiB debug chunk.
  const uint64_t base = 0x100000;
  std::vector<uint32_t> values((1u << 18) + 3);
  for (size_t i = 0; i < values.size(); ++i) values[i] = uint32_t(i * 2654435761u);
  b.write(base, values);
  CHECK(b.read<uint32_t>(base, values.size()) == values);

  const uint64_t end = b.memory.capacity_bytes();
  uint32_t word = 0;
  try {
    b.gpu.read(end - 2, &word, sizeof word);
    FAIL("a read past device memory did not throw");
  } catch (const SimulationError& error) {
    CHECK(std::string(error.what()) == "gpu: debug read of 4 bytes at device address " +
                                           std::to_string(end - 2) + " lies outside device memory");
  }
  CHECK_THROWS_WITH(
      b.gpu.write(end, &word, sizeof word),
      Catch::Contains("debug write of 4 bytes at device address " + std::to_string(end)));
}
