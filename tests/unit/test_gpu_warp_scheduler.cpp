#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <vector>

#include "modules/common/errors.h"
#include "modules/gpu/gto_scheduler.h"
#include "modules/gpu/lrr_scheduler.h"
#include "modules/gpu/two_level_scheduler.h"
#include "modules/gpu/warp_scheduler.h"

using namespace ohmvp;
using namespace ohmvp::gpu;

namespace {

constexpr uint32_t none = WarpScheduler::k_no_warp;

// Picks and issues once; `ready` is the set of ready slots.
uint32_t step(WarpScheduler& scheduler, const std::set<uint32_t>& ready) {
  const auto is_ready = [&](uint32_t slot) { return ready.count(slot) > 0; };
  const uint32_t slot = scheduler.pick(is_ready);
  if (slot != none) scheduler.on_issue(slot);
  return slot;
}

std::vector<uint32_t> steps(WarpScheduler& scheduler, const std::set<uint32_t>& ready, int n) {
  std::vector<uint32_t> picked;
  for (int i = 0; i < n; ++i) picked.push_back(step(scheduler, ready));
  return picked;
}

}  // namespace

TEST_CASE("warp scheduler: the factory builds the configured policy", "[sm]") {
  WarpSchedulerConfig config;
  for (WarpSchedulerPolicy policy :
       {WarpSchedulerPolicy::lrr, WarpSchedulerPolicy::gto, WarpSchedulerPolicy::two_level}) {
    config.policy = policy;
    const auto scheduler = make_warp_scheduler(config, 16);
    CHECK(scheduler->policy() == policy);
    CHECK(scheduler->warp_count() == 0);
    CHECK(scheduler->pick([](uint32_t) { return true; }) == none);
  }
  // The two-level scheduler's active set has the configured size.
  const auto two_level = make_warp_scheduler({WarpSchedulerPolicy::two_level, 3}, 16);
  for (uint32_t slot = 0; slot < 16; ++slot) two_level->add_warp(slot, slot);
  CHECK(dynamic_cast<const TwoLevelScheduler&>(*two_level).active() ==
        std::vector<uint32_t>{0, 1, 2});
}

TEST_CASE("warp scheduler: LRR rotates over the ready warps from the one after the last issuer",
          "[sm]") {
  LrrScheduler lrr(8);
  for (uint32_t slot : {0u, 2u, 3u, 5u}) lrr.add_warp(slot, 100 - slot);
  CHECK(lrr.warp_count() == 4);
  CHECK(steps(lrr, {0, 2, 3, 5}, 6) == std::vector<uint32_t>{0, 2, 3, 5, 0, 2});
  // After 2 issued, 3 stalls: 5 is next, then 0; slot 7 is not scheduled and never picked.
  CHECK(steps(lrr, {0, 5, 7}, 3) == std::vector<uint32_t>{5, 0, 5});
  CHECK(step(lrr, {}) == none);
  lrr.remove_warp(5);
  CHECK(steps(lrr, {0, 2, 3, 5}, 3) == std::vector<uint32_t>{0, 2, 3});
}

TEST_CASE("warp scheduler: GTO stays on the greedy warp, then takes the oldest ready", "[sm]") {
  GtoScheduler gto(8);
  // Ages: slot 4 is the oldest, then 1, then 6.
  gto.add_warp(1, 20);
  gto.add_warp(6, 30);
  gto.add_warp(4, 10);
  CHECK(steps(gto, {1, 4, 6}, 3) == std::vector<uint32_t>{4, 4, 4});
  // The greedy warp stalls: the oldest ready is 1, which then stays greedy.
  CHECK(steps(gto, {1, 6}, 2) == std::vector<uint32_t>{1, 1});
  // 4 is ready again but 1 is greedy and ready.
  CHECK(step(gto, {1, 4, 6}) == 1);
  // 1 stalls: the oldest ready is 4.
  CHECK(step(gto, {4, 6}) == 4);
  gto.remove_warp(4);
  CHECK(step(gto, {1, 6}) == 1);
  // Equal ages are ordered by slot.
  gto.add_warp(0, 30);
  CHECK(step(gto, {0, 6}) == 0);
  // A removed greedy warp is forgotten: a younger warp in its slot is not greedy.
  CHECK(step(gto, {6}) == 6);
  gto.remove_warp(6);
  gto.add_warp(6, 40);
  CHECK(step(gto, {0, 6}) == 0);
}

TEST_CASE("warp scheduler: two-level keeps an active set and parks long-latency waiters", "[sm]") {
  TwoLevelScheduler two_level(8, 2);
  for (uint32_t slot = 0; slot < 4; ++slot) two_level.add_warp(slot, slot);
  CHECK(two_level.active() == std::vector<uint32_t>{0, 1});
  CHECK(two_level.pending() == std::vector<uint32_t>{2, 3});
  // Only the active set competes, round robin, even when pending warps are ready.
  CHECK(steps(two_level, {0, 1, 2, 3}, 3) == std::vector<uint32_t>{0, 1, 0});
  // 0 waits on memory: it moves to the pending tail and the first ready pending warp (2) is
  // promoted at the next pick.
  two_level.on_long_latency_wait(0);
  CHECK(two_level.pending() == std::vector<uint32_t>{2, 3, 0});
  CHECK(step(two_level, {0, 1, 2, 3}) == 1);
  CHECK(two_level.active() == std::vector<uint32_t>{1, 2});
  CHECK(two_level.pending() == std::vector<uint32_t>{3, 0});
  CHECK(step(two_level, {0, 1, 2, 3}) == 2);
  // 1 waits too; 3 is not ready, and 0 still waits, so nothing is promoted.
  two_level.on_long_latency_wait(1);
  CHECK(step(two_level, {0, 1, 2}) == 2);
  CHECK(two_level.active() == std::vector<uint32_t>{2});
  // 0's data returns and it is ready: promoted ahead of 1 (still waiting) and 3 (not ready).
  two_level.on_long_latency_done(0);
  CHECK(step(two_level, {0, 1}) == 0);
  CHECK(two_level.active() == std::vector<uint32_t>{2, 0});
  CHECK(two_level.pending() == std::vector<uint32_t>{3, 1});
  two_level.remove_warp(2);
  CHECK(step(two_level, {3}) == 3);
  CHECK(two_level.active() == std::vector<uint32_t>{0, 3});
  CHECK(two_level.warp_count() == 3);
}

TEST_CASE("warp scheduler: misuse by the SM model is a SimulationError", "[sm]") {
  LrrScheduler lrr(4);
  CHECK_THROWS_AS(lrr.add_warp(4, 0), SimulationError);
  lrr.add_warp(1, 0);
  CHECK_THROWS_AS(lrr.add_warp(1, 0), SimulationError);
  CHECK_THROWS_AS(lrr.remove_warp(2), SimulationError);
  GtoScheduler gto(4);
  CHECK_THROWS_AS(gto.on_issue(3), SimulationError);
  TwoLevelScheduler two_level(4, 1);
  two_level.add_warp(0, 0);
  two_level.add_warp(1, 1);
  CHECK_THROWS_AS(two_level.on_issue(1), SimulationError);  // pending warps cannot issue
  CHECK_THROWS_AS(two_level.on_long_latency_wait(3), SimulationError);
}
