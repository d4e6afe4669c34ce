// VirtualChannelSchedule: out-of-order placement on one virtual channel's light, with the
// detector switch between transfers of different detectors and coding-loss blocks that no
// detector owns.
#include <catch2/catch.hpp>

#include "modules/optical/virtual_channel_schedule.h"

using namespace ohmvp;

namespace {
constexpr LightUse dram = LightUse::dram;
constexpr LightUse xpoint = LightUse::xpoint;
constexpr LightUse memory_route = LightUse::memory_route;
constexpr LightUse loss = LightUse::coding_loss;
}  // namespace

TEST_CASE("virtual channel schedule: same-device transfers follow each other directly",
          "[optical_schedule]") {
  VirtualChannelSchedule s(100);
  REQUIRE(s.reserve(1000, 2066, dram));
  CHECK(s.earliest_free(1000, 1066, dram) == 2066);
  REQUIRE(s.reserve(2066, 3132, dram));
  CHECK(s.switches() == 0);
  CHECK_FALSE(s.fits(3000, 4000, dram));
  CHECK(s.starts_at(2066));
  CHECK_FALSE(s.starts_at(2000));
}

TEST_CASE("virtual channel schedule: a device change leaves the switch time dark",
          "[optical_schedule]") {
  VirtualChannelSchedule s(100);
  REQUIRE(s.reserve(1000, 2066, dram));
  // XPoint data right after the DRAM burst waits for its detector: 2066 + 100.
  CHECK(s.earliest_free(1500, 1067, xpoint) == 2166);
  CHECK_FALSE(s.fits(2066, 3133, xpoint));
  CHECK_FALSE(s.reserve(2100, 3167, xpoint));
  REQUIRE(s.reserve(2166, 3233, xpoint));
  CHECK(s.switches() == 1);
  // A DRAM burst after it pays the switch back.
  CHECK(s.earliest_free(3233, 1066, dram) == 3333);
  REQUIRE(s.reserve(3333, 4399, dram));
  CHECK(s.switches() == 2);
}

TEST_CASE("virtual channel schedule: a gap takes a transfer only with room for both switches",
          "[optical_schedule]") {
  VirtualChannelSchedule s(100);
  REQUIRE(s.reserve(0, 1000, dram));
  REQUIRE(s.reserve(2100, 3100, dram));
  // 1100 ps free between them: 1000 of XPoint needs 100 + 1000 + 100 = 1200.
  CHECK(s.earliest_free(0, 1000, xpoint) == 3200);
  // 900 ps of XPoint fits: 1000 + 100 .. 2000, 100 before 2100.
  CHECK(s.earliest_free(0, 900, xpoint) == 1100);
  REQUIRE(s.reserve(1100, 2000, xpoint));
  // DRAM, XPoint, DRAM: two switches.
  CHECK(s.switches() == 2);
  // Another DRAM burst into a DRAM-DRAM gap costs nothing; into the middle of X..D it would.
  VirtualChannelSchedule t(100);
  REQUIRE(t.reserve(0, 1000, dram));
  REQUIRE(t.reserve(5000, 6000, xpoint));
  CHECK(t.switches() == 1);
  REQUIRE(t.reserve(1000, 2000, dram));  // D D .. X: still one switch
  CHECK(t.switches() == 1);
  REQUIRE(t.reserve(3000, 4000, xpoint));  // D D X X: one
  CHECK(t.switches() == 1);
  REQUIRE(t.reserve(2100, 2900, dram));  // D D D X X: one
  CHECK(t.switches() == 1);
  CHECK_FALSE(t.fits(4050, 4950, dram));  // X D X would need 100 on each side: 4100..4900
  REQUIRE(t.reserve(4100, 4900, dram));
  CHECK(t.switches() == 3);
}

TEST_CASE("virtual channel schedule: forgotten transfers still guard the next one",
          "[optical_schedule]") {
  VirtualChannelSchedule s(100);
  REQUIRE(s.reserve(0, 1000, dram));
  s.forget_until(1050);  // 1000 + 100 > 1050: kept
  CHECK(s.transfers().size() == 1);
  s.forget_until(1100);
  CHECK(s.transfers().empty());
  CHECK(s.earliest_free(1000, 500, xpoint) == 1100);
  CHECK(s.earliest_free(1000, 500, dram) == 1000);
  REQUIRE(s.reserve(1100, 1600, xpoint));
  CHECK(s.switches() == 1);
}

TEST_CASE("virtual channel schedule: with no switch time it is a plain interval schedule",
          "[optical_schedule]") {
  VirtualChannelSchedule s(0);
  REQUIRE(s.reserve(0, 1000, dram));
  CHECK(s.earliest_free(0, 500, xpoint) == 1000);
  REQUIRE(s.reserve(1000, 1500, xpoint));
  CHECK(s.switches() == 1);
  CHECK_FALSE(s.reserve(1400, 1600, dram));
  CHECK_FALSE(s.reserve(5, 5, dram));
}

TEST_CASE("virtual channel schedule: the memory route taking turns uses the XPoint's detector",
          "[optical_schedule]") {
  VirtualChannelSchedule s(100);
  REQUIRE(s.reserve(0, 1000, xpoint));
  REQUIRE(s.reserve(1000, 2000, memory_route));
  CHECK(s.switches() == 0);
  CHECK(s.earliest_free(2000, 500, dram) == 2100);
  CHECK(s.starts_at(1000));
  CHECK(s.starts_at(1000, memory_route));
  CHECK_FALSE(s.starts_at(1000, xpoint));
}

TEST_CASE("virtual channel schedule: a coding-loss block causes no detector switch",
          "[optical_schedule]") {
  VirtualChannelSchedule s(100);
  REQUIRE(s.reserve(0, 1000, dram));
  // Right after a DRAM burst, and a DRAM burst right after it: no dark time, no switch.
  CHECK(s.earliest_free(0, 300, loss) == 1000);
  REQUIRE(s.reserve(1000, 1300, loss));
  CHECK(s.earliest_free(1000, 500, dram) == 1300);
  REQUIRE(s.reserve(1300, 1800, dram));
  CHECK(s.switches() == 0);
  // Between two XPoint transfers too.
  REQUIRE(s.reserve(5000, 6000, xpoint));
  CHECK(s.switches() == 1);
  REQUIRE(s.reserve(6000, 6300, loss));
  REQUIRE(s.reserve(6300, 7000, xpoint));
  CHECK(s.switches() == 1);
  CHECK(s.starts_at(6000, loss));
  CHECK_FALSE(s.starts_at(6000, xpoint));
}

TEST_CASE("virtual channel schedule: a coding-loss block is light, not a switch's dark time",
          "[optical_schedule]") {
  VirtualChannelSchedule s(100);
  REQUIRE(s.reserve(0, 1000, dram));
  REQUIRE(s.reserve(1000, 1300, loss));
  // XPoint data after the loss still waits for 100 ps of dark light: 1300 + 100.
  CHECK(s.earliest_free(1000, 500, xpoint) == 1400);
  CHECK_FALSE(s.fits(1300, 1800, xpoint));
  REQUIRE(s.reserve(1400, 1900, xpoint));
  CHECK(s.switches() == 1);
  // Between them there is 100 ps of gap, all of it the switch's: no loss block fits there,
  // the next one goes after the XPoint data.
  CHECK(s.earliest_free(1300, 50, loss) == 1900);
  // A loss block before a transfer of the other detector leaves it its dark time too: in the
  // gap 1900..2600 before a DRAM burst at 2600, 600 ps of loss leaves exactly 100.
  REQUIRE(s.reserve(2600, 3000, dram));
  CHECK(s.switches() == 2);
  CHECK_FALSE(s.fits(1900, 2550, loss));
  REQUIRE(s.reserve(1900, 2500, loss));
  CHECK_FALSE(s.fits(2500, 2510, loss));
  CHECK(s.switches() == 2);
  // A DRAM burst inside the 100 ps after the XPoint data would need its own dark time.
  CHECK(s.earliest_free(1900, 50, dram) == 3000);
}

TEST_CASE("virtual channel schedule: forgotten coding loss still counts against the dark time",
          "[optical_schedule]") {
  VirtualChannelSchedule s(100);
  REQUIRE(s.reserve(0, 1000, dram));
  REQUIRE(s.reserve(1000, 1050, loss));
  s.forget_until(1200);
  CHECK(s.transfers().empty());
  // The DRAM burst ended at 1000 and 50 ps of the light after it was loss: dark from 1050.
  CHECK(s.earliest_free(1100, 500, xpoint) == 1150);
  CHECK(s.earliest_free(1100, 500, dram) == 1100);
  REQUIRE(s.reserve(1150, 1650, xpoint));
  CHECK(s.switches() == 1);
}
