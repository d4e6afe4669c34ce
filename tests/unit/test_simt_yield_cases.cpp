// Independent thread scheduling's yields in corner cases a review found, each a small PTX kernel
// on the functional executor (docs/gpu_simt.md, "SIMT stack").
#include <cstring>
#include <vector>

#include <catch2/catch.hpp>

#include "modules/gpu/simt/functional_executor.h"
#include "tests/unit/executor_test_util.h"
#include "tests/unit/ptx_test_util.h"

using namespace ohmvp::gpu;

namespace {

// Runs `kernel` of `body` in one CTA of `threads` over a zeroed buffer of 64 words (its first
// parameter) and `trips` (its second, when it has one); returns the buffer.
std::vector<uint32_t> run(const std::string& body, const std::string& kernel, uint32_t threads,
                          uint32_t trips, LaunchStatistics* stats = nullptr) {
  const Module module = test::parse_snippet(body);
  DeviceMemory memory;
  const uint64_t buffer = memory.allocate(64 * 4);
  std::vector<uint32_t> words(64, 0);
  REQUIRE(memory.write(buffer, words.data(), words.size() * 4));
  LaunchParams launch;
  launch.kernel = kernel;
  launch.grid = {1, 1, 1};
  launch.block = {threads, 1, 1};
  launch.arguments.resize(12);
  std::memcpy(launch.arguments.data(), &buffer, 8);
  std::memcpy(launch.arguments.data() + 8, &trips, 4);
  FunctionalExecutor executor(module, memory, 32);
  const LaunchStatistics launched = executor.launch(launch);
  if (stats) *stats = launched;
  REQUIRE(memory.read(buffer, words.data(), words.size() * 4));
  return words;
}

// Lane 0 loops `trips` times (LOOP) while the others skip to DONE; then `tail` over the warp.
std::string long_loop_then(const std::string& tail) {
  return R"(.visible .entry k(.param .u64 out, .param .u32 trips)
{
  .reg .pred %p<4>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<4>;
  .shared .align 16 .b8 tile[256];
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r9, [trips];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  mov.u32 %r3, 0;
  setp.ne.u32 %p0, %r1, 0;
  @%p0 bra DONE;
LOOP:
  add.u32 %r3, %r3, 1;
  setp.lt.u32 %p1, %r3, %r9;
  @%p1 bra LOOP;
DONE:
)" + tail +
         R"(
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd3, %rd2, %rd3;
  st.global.u32 [%rd3], %r3;
  ret;
}
)";
}

}  // namespace

TEST_CASE("yields: an entry at its join below the top is not a waiting path", "[simt]") {
  // Lanes 0 (A), 1 (B), 2 (C). C sets X and goes to R; inside the other arm B goes straight to
  // R while A spins until X, then until Y, which B sets after R. The inner if/else joins at R
  // too, leaving an entry {R, R} below the spinning one: its lanes wait at R, and a yield must
  // take them from the entry below, with the join that entry has; then the ballot over A and
  // B meets.
  const std::vector<uint32_t> out = run(R"(.visible .entry nested_join(.param .u64 f, .param .u32 n)
{
  .reg .pred %p<8>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [f];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  setp.ne.u32 %p0, %r1, 2;
  @%p0 bra EPATH;
  mov.u32 %r2, 1;
  st.volatile.global.u32 [%rd2], %r2;
  bra.uni R;
EPATH:
  setp.eq.u32 %p1, %r1, 1;
  @%p1 bra BPATH;
LX:
  ld.volatile.global.u32 %r3, [%rd2];
  setp.eq.u32 %p2, %r3, 0;
  @%p2 bra LX;
LY:
  ld.volatile.global.u32 %r3, [%rd2+4];
  setp.eq.u32 %p2, %r3, 0;
  @%p2 bra LY;
  bra.uni R;
BPATH:
  mov.u32 %r4, 0;
  bra.uni R;
R:
  setp.eq.u32 %p3, %r1, 2;
  @%p3 exit;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd3, %rd2, %rd3;
  atom.global.add.u32 %r7, [%rd3+12], 1;
  setp.eq.u32 %p4, %r1, 1;
  mov.u32 %r5, 1;
  @%p4 st.volatile.global.u32 [%rd2+4], %r5;
  setp.eq.u32 %p5, %r1, %r1;
  vote.sync.ballot.b32 %r6, %p5, -1;
  st.global.u32 [%rd2+8], %r6;
  ret;
}
)",
                                        "nested_join", 3, 0);
  CHECK(out[2] == 0x3);  // A and B voted together
  CHECK(out[3] == 1);    // A passed R once
  CHECK(out[4] == 1);    // B passed R once
}

TEST_CASE("yields: paths that met again at their join are one path for a later __syncwarp",
          "[simt]") {
  // Lane 0 loops `trips` times in an if's then-arm (at 300, long enough to yield); the arms
  // join; then __syncwarp() in both arms of an if/else on lane parity, valid on sm_70.
  const std::string body = R"(.visible .entry stale_split(.param .u64 out, .param .u32 trips)
{
  .reg .pred %p<8>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r9, [trips];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, 0;
  mov.u32 %r3, 0;
  setp.eq.u32 %p0, %r1, 0;
  @%p0 bra THEN1;
  add.u32 %r2, %r2, 1;
  bra.uni J1;
THEN1:
  add.u32 %r3, %r3, 1;
  setp.lt.u32 %p1, %r3, %r9;
  @%p1 bra THEN1;
J1:
  and.b32 %r4, %r1, 1;
  setp.eq.u32 %p2, %r4, 1;
  @%p2 bra ODD;
  bar.warp.sync -1;
  mov.u32 %r5, 2;
  bra.uni J2;
ODD:
  bar.warp.sync -1;
  mov.u32 %r5, 1;
J2:
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd3, %rd2, %rd3;
  st.global.u32 [%rd3], %r5;
  ret;
}
)";
  for (const uint32_t trips : {100u, 300u}) {
    INFO(trips << " trips");
    LaunchStatistics stats;
    const std::vector<uint32_t> out = run(body, "stale_split", 32, trips, &stats);
    CHECK(stats.path_yields == (trips > WarpState::yield_after_jumps ? 1 : 0));
    for (uint32_t lane = 0; lane < 32; ++lane) CHECK(out[lane] == (lane % 2 ? 1u : 2u));
  }
}

TEST_CASE("yields: a tensor-core instruction waits for the whole warp", "[simt]") {
  // ldmatrix is .sync.aligned: after lane 0's long loop yielded, the other lanes wait for it.
  const std::string body = long_loop_then(R"(  and.b32 %r4, %r1, 7;
  shl.b32 %r4, %r4, 4;
  mov.u32 %r5, tile;
  add.u32 %r5, %r5, %r4;
  ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r6}, [%r5];)");
  LaunchStatistics stats;
  const std::vector<uint32_t> out = run(body, "k", 32, 300, &stats);
  CHECK(stats.path_yields > 0);
  CHECK(out[0] == 300);
  for (uint32_t lane = 1; lane < 32; ++lane) CHECK(out[lane] == 0);
}

TEST_CASE("yields: backward jumps to another loop count on", "[simt]") {
  // Two loops one after the other (as a lock's backoff loop inside its spin loop): their back
  // edges count together, 2 x 99 below 256, 2 x 149 above.
  const std::string second_loop = R"(  mov.u32 %r7, 0;
  @%p0 bra DONE2;
LOOP2:
  add.u32 %r7, %r7, 1;
  setp.lt.u32 %p1, %r7, %r9;
  @%p1 bra LOOP2;
DONE2:
  add.u32 %r3, %r3, %r7;)";
  for (const uint32_t trips : {100u, 150u}) {
    INFO(trips << " trips of each loop");
    LaunchStatistics stats;
    const std::vector<uint32_t> out = run(long_loop_then(second_loop), "k", 32, trips, &stats);
    CHECK(stats.path_yields == (2 * (trips - 1) >= WarpState::yield_after_jumps ? 1 : 0));
    CHECK(out[0] == 2 * trips);
  }
}

TEST_CASE("yield cases: shuffles in both arms meet, before and after the arms ran apart",
          "[simt]") {
  // tests/data/ptx/divergent_sync.cu: with a short loop the first arm waits at its shuffle for
  // the second (the SIMT stack's siblings); with a loop past the yield limit the paths split,
  // each parks at its own shuffle, and they meet there. Either way each lane reads the other
  // arm's operand.
  const Module module = test::load_fixture("divergent_sync.ptx");
  DeviceMemory memory;
  FunctionalExecutor executor(module, memory, 32);
  const uint64_t out_at = test::upload(memory, std::vector<int32_t>(33, 0));
  for (const int32_t spins : {2, 3000}) {
    INFO(spins << " spins");
    LaunchParams launch = test::one_cta("shuffle_after_split", 32, {out_at});
    test::put(launch.arguments, 8, spins);
    const LaunchStatistics stats = executor.launch(launch);
    CHECK((stats.path_yields > 1) == (spins > 256));
    uint32_t factor = 1;  // the first arm multiplies by 3 per spin (out[32] stays 0)
    for (int32_t i = 0; i < spins; ++i) factor *= 3;
    const std::vector<int32_t> out = test::download<int32_t>(memory, out_at, 32);
    for (int32_t lane = 0; lane < 32; ++lane) {
      INFO("lane " << lane);
      if (lane < 16)
        CHECK(out[lane] == (lane + 16) * 2);
      else
        CHECK(uint32_t(out[lane]) == uint32_t(lane - 16) * factor);
    }
  }
}

TEST_CASE("yield cases: __syncwarp and shuffles and ballots in both arms of an if/else meet",
          "[simt]") {
  // tests/data/ptx/divergent_sync.cu, without a yield: the arm that reaches its warp-synchronous
  // instruction first waits while the other arm runs to its own; then they go on together.
  const Module module = test::load_fixture("divergent_sync.ptx");
  DeviceMemory memory;
  FunctionalExecutor executor(module, memory, 32);
  const uint64_t out_at = memory.allocate(32 * 4), ballots_at = memory.allocate(32 * 4);

  const LaunchStatistics swapped =
      executor.launch(test::one_cta("tile_swap_in_both_arms", 32, {out_at}));
  const std::vector<int32_t> tile = test::download<int32_t>(memory, out_at, 32);
  for (int32_t lane = 0; lane < 32; ++lane) {
    INFO("lane " << lane);
    CHECK(tile[lane] == (lane < 16 ? (lane + 16) * 100 : (lane - 16) * 10));
  }
  CHECK(swapped.path_yields == 1);  // the first arm gives way to the second once

  executor.launch(test::one_cta("exchange_in_both_arms", 32, {out_at, ballots_at}));
  const std::vector<int32_t> shuffled = test::download<int32_t>(memory, out_at, 32);
  const std::vector<uint32_t> ballots = test::download<uint32_t>(memory, ballots_at, 32);
  // Each lane's own operand: lane + 1000 in the first arm (lane % 3 == 0), -lane in the other;
  // its ballot predicate: lane < 8, or lane >= 24.
  uint32_t expected_ballot = 0;
  for (int32_t lane = 0; lane < 32; ++lane)
    if (lane % 3 == 0 ? lane < 8 : lane >= 24) expected_ballot |= 1u << lane;
  for (int32_t lane = 0; lane < 32; ++lane) {
    INFO("lane " << lane);
    const int32_t source = (lane + 1) % 32;
    CHECK(shuffled[lane] == (source % 3 == 0 ? source + 1000 : -source));
    CHECK(ballots[lane] == expected_ballot);
  }

  // An if / else if / else: the first arm waits while the others split and reach theirs.
  executor.launch(test::one_cta("shuffle_in_three_arms", 32, {out_at}));
  const std::vector<int32_t> three = test::download<int32_t>(memory, out_at, 32);
  for (int32_t lane = 0; lane < 32; ++lane) {
    INFO("lane " << lane);
    const int32_t source = (lane + 8) % 32;
    CHECK(three[lane] == source + (source < 8 ? 100 : source < 24 ? 200 : 300));
  }
  // A nested if/else inside the first arm: its inner arms' shuffles wait for the outer else
  // arm's lanes too, and all three meet.
  std::vector<int32_t> nested_out(64 + 16);  // out[64 + lane]: what the first arm adds
  for (int32_t lane = 0; lane < 16; ++lane) nested_out[64 + lane] = 1000 * (lane + 1);
  const uint64_t nested_at = test::upload(memory, nested_out);
  const LaunchStatistics nested =
      executor.launch(test::one_cta("shuffle_in_nested_arms", 32, {nested_at}));
  const std::vector<int32_t> inner = test::download<int32_t>(memory, nested_at, 32);
  for (int32_t lane = 0; lane < 32; ++lane) {
    INFO("lane " << lane);
    const int32_t source = (lane + 8) % 32;
    const int32_t shuffled = source + (source < 8 ? 100 : source < 16 ? 200 : 300);
    CHECK(inner[lane] == shuffled + (lane < 16 ? 1000 * (lane + 1) : 0));
  }
  CHECK(nested.path_yields == 2);  // each inner arm gives way once
  // An arm whose first __syncwarp names its own lanes only does not wait there for the other:
  // it runs on to the __syncwarp() the other arm waits at.
  executor.launch(test::one_cta("own_half_then_warp", 32, {out_at}));
  const std::vector<int32_t> halves = test::download<int32_t>(memory, out_at, 32);
  for (int32_t lane = 0; lane < 32; ++lane) {
    INFO("lane " << lane);
    CHECK(halves[lane] == (lane < 16 ? lane + 116 : 0));
  }

  CHECK_THROWS_WITH(
      executor.launch(test::one_cta("different_instructions_in_the_arms", 32, {out_at})),
      Catch::Contains("member lanes wait at a different synchronising instruction"));
}
