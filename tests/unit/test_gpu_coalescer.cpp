#include <catch2/catch.hpp>

#include <array>
#include <cstdint>

#include "modules/common/errors.h"
#include "modules/gpu/coalescer.h"

using namespace ohmvp;
using namespace ohmvp::gpu;

namespace {

constexpr uint64_t all_lanes = 0xffffffffu;

std::array<uint64_t, 64> strided(uint64_t base, uint64_t stride) {
  std::array<uint64_t, 64> a{};
  for (uint32_t lane = 0; lane < 64; ++lane) a[lane] = base + lane * stride;
  return a;
}

uint32_t bytes_in_mask(const CoalescedRequest& r) {
  uint32_t n = 0;
  for (uint32_t b = 0; b < 128; ++b) n += r.touches_byte(b);
  return n;
}

}  // namespace

TEST_CASE("coalescer: consecutive 4-byte lanes form one line of four sectors", "[sm]") {
  Coalescer c;
  const auto addresses = strided(0x1000, 4);
  c.coalesce(addresses.data(), 32, all_lanes, 4);
  REQUIRE(c.request_count() == 1);
  CHECK(c.request(0).line_address == 0x1000);
  CHECK(c.request(0).sector_mask == 0xf);
  CHECK(bytes_in_mask(c.request(0)) == 128);
  CHECK(c.sector_count() == 4);
  CHECK(c.placement(5).piece_count == 1);
  CHECK(c.placement(5).pieces[0].request == 0);
  CHECK(c.placement(5).pieces[0].offset == 20);
  CHECK(c.placement(5).pieces[0].bytes == 4);
}

TEST_CASE("coalescer: a misaligned warp touches two lines, in lane order", "[sm]") {
  Coalescer c;
  const auto addresses = strided(0x1040, 4);  // 64 bytes into a line
  c.coalesce(addresses.data(), 32, all_lanes, 4);
  REQUIRE(c.request_count() == 2);
  CHECK(c.request(0).line_address == 0x1000);
  CHECK(c.request(0).sector_mask == 0xc);
  CHECK(c.request(1).line_address == 0x1080);
  CHECK(c.request(1).sector_mask == 0x3);
  CHECK(c.sector_count() == 4);
  CHECK(c.placement(16).pieces[0].request == 1);
  CHECK(c.placement(16).pieces[0].offset == 0);
}

TEST_CASE("coalescer: inactive lanes, broadcast and scattered lanes", "[sm]") {
  Coalescer c;
  // Only even lanes of a stride-8 access: every sector still touched, half the bytes.
  const auto addresses = strided(0x2000, 4);
  c.coalesce(addresses.data(), 32, 0x55555555u, 4);
  REQUIRE(c.request_count() == 1);
  CHECK(c.request(0).sector_mask == 0xf);
  CHECK(bytes_in_mask(c.request(0)) == 64);
  CHECK_FALSE(c.request(0).touches_byte(4));
  CHECK(c.placement(1).piece_count == 0);

  // All lanes read one word: one sector.
  const auto same = strided(0x3004, 0);
  c.coalesce(same.data(), 32, all_lanes, 4);
  REQUIRE(c.request_count() == 1);
  CHECK(c.request(0).sector_mask == 0x1);
  CHECK(bytes_in_mask(c.request(0)) == 4);

  // Stride of one line: 32 requests of one sector each, in lane order.
  const auto far = strided(0x10000, 128);
  c.coalesce(far.data(), 32, all_lanes, 4);
  REQUIRE(c.request_count() == 32);
  CHECK(c.sector_count() == 32);
  for (uint32_t lane = 0; lane < 32; ++lane) {
    CHECK(c.request(lane).line_address == 0x10000 + lane * 128);
    CHECK(c.placement(lane).pieces[0].request == lane);
  }

  // Lanes out of order: requests follow the first lane that touches each line.
  std::array<uint64_t, 4> mixed{0x500, 0x480, 0x504, 0x400};
  c.coalesce(mixed.data(), 4, 0xf, 4);
  REQUIRE(c.request_count() == 3);
  CHECK(c.request(0).line_address == 0x500);
  CHECK(c.request(1).line_address == 0x480);
  CHECK(c.request(2).line_address == 0x400);
  CHECK(c.placement(2).pieces[0].request == 0);
  CHECK(c.placement(2).pieces[0].offset == 4);
}

TEST_CASE("coalescer: vector lanes and lanes that straddle sectors and lines", "[sm]") {
  Coalescer c;
  // 16-byte lanes: a warp covers 512 bytes, four full lines.
  const auto v4 = strided(0x4000, 16);
  c.coalesce(v4.data(), 32, all_lanes, 16);
  REQUIRE(c.request_count() == 4);
  for (size_t i = 0; i < 4; ++i) CHECK(c.request(i).sector_mask == 0xf);
  CHECK(c.placement(9).pieces[0].request == 1);
  CHECK(c.placement(9).pieces[0].offset == 16);
  CHECK(c.placement(9).pieces[0].bytes == 16);

  // An 8-byte lane at offset 28 straddles sectors 0 and 1 of one line.
  std::array<uint64_t, 2> straddle{0x101c, 0x107c};
  c.coalesce(straddle.data(), 2, 0x1, 8);
  REQUIRE(c.request_count() == 1);
  CHECK(c.request(0).sector_mask == 0x3);
  CHECK(c.placement(0).pieces[0].bytes == 8);

  // At offset 124 it crosses into the next line: two pieces of 4 bytes.
  c.coalesce(straddle.data(), 2, 0x2, 8);
  REQUIRE(c.request_count() == 2);
  CHECK(c.request(0).line_address == 0x1000);
  CHECK(c.request(0).sector_mask == 0x8);
  CHECK(c.request(1).line_address == 0x1080);
  CHECK(c.request(1).sector_mask == 0x1);
  const LanePlacement& p = c.placement(1);
  REQUIRE(p.piece_count == 2);
  CHECK(p.pieces[0].request == 0);
  CHECK(p.pieces[0].offset == 124);
  CHECK(p.pieces[0].bytes == 4);
  CHECK(p.pieces[1].request == 1);
  CHECK(p.pieces[1].offset == 0);
  CHECK(p.pieces[1].bytes == 4);
}

TEST_CASE("coalescer: 64-lane warps and bad arguments", "[sm]") {
  Coalescer c;
  const auto addresses = strided(0x8000, 4);
  c.coalesce(addresses.data(), 64, ~uint64_t{0}, 4);
  REQUIRE(c.request_count() == 2);
  CHECK(c.placement(63).pieces[0].request == 1);
  CHECK(c.placement(63).pieces[0].offset == 124);
  CHECK_THROWS_AS(c.coalesce(addresses.data(), 65, 1, 4), SimulationError);
  CHECK_THROWS_AS(c.coalesce(addresses.data(), 32, 1, 0), SimulationError);
  CHECK_THROWS_AS(c.coalesce(addresses.data(), 32, 1, 17), SimulationError);
  CHECK_THROWS_AS(Coalescer(256, 32), SimulationError);

  // 64-byte lines with 16-byte sectors.
  Coalescer small(64, 16);
  small.coalesce(addresses.data(), 32, all_lanes, 4);
  REQUIRE(small.request_count() == 2);
  CHECK(small.request(1).line_address == 0x8040);
  CHECK(small.request(1).sector_mask == 0xf);
}
