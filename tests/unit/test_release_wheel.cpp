#include <catch2/catch.hpp>

#include <utility>
#include <vector>

#include "modules/gpu/release_wheel.h"

using namespace ohmvp::gpu;

namespace {

// (warp, cycle) of each release taken by due(cycle).
std::vector<std::pair<uint32_t, uint64_t>> take_due(ReleaseWheel& wheel, uint64_t cycle) {
  std::vector<std::pair<uint32_t, uint64_t>> taken;
  wheel.due(cycle, [&](const RegisterRelease& r) { taken.emplace_back(r.warp, r.cycle); });
  return taken;
}

const InstructionRegisters registers{};

}  // namespace

TEST_CASE("release wheel: releases come out by cycle, then push order", "[sm]") {
  ReleaseWheel wheel;
  CHECK(wheel.next_cycle() == UINT64_MAX);
  wheel.push(1, 0, registers, 5);
  wheel.push(2, 0, registers, 3);
  wheel.push(3, 0, registers, 5);
  wheel.push(4, 0, registers, 200);  // beyond the 64 cycles of buckets: the heap
  CHECK(wheel.next_cycle() == 3);
  CHECK(take_due(wheel, 2).empty());
  CHECK(take_due(wheel, 5) == std::vector<std::pair<uint32_t, uint64_t>>{{2, 3}, {1, 5}, {3, 5}});
  CHECK(wheel.next_cycle() == 200);
  CHECK(take_due(wheel, 199).empty());
  CHECK(take_due(wheel, 200) == std::vector<std::pair<uint32_t, uint64_t>>{{4, 200}});
  CHECK(wheel.next_cycle() == UINT64_MAX);
}

TEST_CASE("release wheel: a cycle's far releases precede its near ones; buckets wrap", "[sm]") {
  ReleaseWheel wheel;
  take_due(wheel, 70);                   // the buckets now start at cycle 70, bucket 6
  wheel.push(1, 0, registers, 70 + 64);  // the heap: 64 cycles ahead
  wheel.push(2, 0, registers, 70 + 63);  // the last bucket, 5, below the base's bit
  wheel.push(3, 0, registers, 73);
  CHECK(wheel.next_cycle() == 73);
  CHECK(take_due(wheel, 100) == std::vector<std::pair<uint32_t, uint64_t>>{{3, 73}});
  // From cycle 100 on, 134 lies within the buckets: a near push there follows the far one.
  wheel.push(5, 0, registers, 134);
  CHECK(wheel.next_cycle() == 133);
  CHECK(take_due(wheel, 134) ==
        std::vector<std::pair<uint32_t, uint64_t>>{{2, 133}, {1, 134}, {5, 134}});
}

TEST_CASE("release wheel: clear drops every pending release", "[sm]") {
  ReleaseWheel wheel;
  wheel.push(1, 0, registers, 10);
  wheel.push(2, 0, registers, 1000);
  wheel.clear();
  CHECK(wheel.next_cycle() == UINT64_MAX);
  CHECK(take_due(wheel, 2000).empty());
}
