#include <catch2/catch.hpp>

#include <array>
#include <cstdint>

#include "modules/common/errors.h"
#include "modules/gpu/shared_memory_banks.h"

using namespace ohmvp;
using namespace ohmvp::gpu;

namespace {

constexpr uint64_t all_lanes = 0xffffffffu;

std::array<uint64_t, 64> strided(uint64_t base, uint64_t stride) {
  std::array<uint64_t, 64> a{};
  for (uint32_t lane = 0; lane < 64; ++lane) a[lane] = base + lane * stride;
  return a;
}

uint32_t passes(uint64_t stride, uint32_t bytes, uint64_t mask = all_lanes, uint64_t base = 0) {
  SharedMemoryBanks banks;
  const auto addresses = strided(base, stride);
  return banks.passes(addresses.data(), 32, mask, bytes);
}

}  // namespace

TEST_CASE("shared memory banks: 4-byte strides", "[sm]") {
  CHECK(passes(4, 4) == 1);   // one word per bank
  CHECK(passes(8, 4) == 2);   // two-way conflict
  CHECK(passes(12, 4) == 1);  // odd stride: all banks distinct
  CHECK(passes(16, 4) == 4);
  CHECK(passes(128, 4) == 32);  // every lane in bank 0
  CHECK(passes(0, 4) == 1);     // broadcast of one word
  CHECK(passes(1, 1) == 1);     // bytes of the same words
  CHECK(passes(2, 2) == 1);
  CHECK(passes(128, 4, 0x0000000f) == 4);
  CHECK(passes(128, 4, 0) == 0);
}

TEST_CASE("shared memory banks: broadcast within a bank needs the same word", "[sm]") {
  SharedMemoryBanks banks;
  std::array<uint64_t, 32> a{};
  // Lanes 0-15 read word 0, lanes 16-31 read word 32 (also bank 0): two passes.
  for (uint32_t lane = 0; lane < 32; ++lane) a[lane] = lane < 16 ? 0 : 128;
  CHECK(banks.passes(a.data(), 32, all_lanes, 4) == 2);
  // Different bytes of one word are one access.
  for (uint32_t lane = 0; lane < 32; ++lane) a[lane] = lane % 4;
  CHECK(banks.passes(a.data(), 32, all_lanes, 1) == 1);
}

TEST_CASE("shared memory banks: 8- and 16-byte accesses go by half and quarter warps", "[sm]") {
  SharedMemoryBanks banks;
  CHECK(banks.lanes_per_phase(4) == 32);
  CHECK(banks.lanes_per_phase(8) == 16);
  CHECK(banks.lanes_per_phase(16) == 8);
  CHECK(passes(8, 8) == 2);              // two half-warps, each conflict-free
  CHECK(passes(16, 16) == 4);            // four quarter-warps
  CHECK(passes(16, 8) == 4);             // each half-warp spans 256 bytes: two-way conflicts
  CHECK(passes(0, 8) == 2);              // broadcast, still one pass per phase
  CHECK(passes(8, 8, 0x0000ffff) == 1);  // the idle half-warp costs nothing
  CHECK(passes(256, 16) == 32);          // 8 lanes per quarter on the same 4 banks, 8 words each
}

TEST_CASE("shared memory banks: misaligned wide lanes and 64-lane warps", "[sm]") {
  SharedMemoryBanks banks;
  // An 8-byte lane at offset 4 touches words 1 and 2.
  std::array<uint64_t, 2> a{4, 132};
  CHECK(banks.passes(a.data(), 2, 0x3, 8) == 2);  // both lanes need banks 1 and 2, other words
  const auto wide = strided(0, 4);
  CHECK(banks.passes(wide.data(), 64, ~uint64_t{0}, 4) == 2);  // two phases of 32 lanes
  CHECK_THROWS_AS(banks.passes(wide.data(), 65, 1, 4), SimulationError);
  CHECK_THROWS_AS(banks.passes(wide.data(), 32, 1, 32), SimulationError);
  CHECK_THROWS_AS(SharedMemoryBanks(0, 4), SimulationError);
}
