// DataBusSchedule: out-of-order placement on one data path (wires or a virtual channel's
// light), with the switch between transfers of different devices and coding-loss blocks that no
// device owns.
#include <catch2/catch.hpp>

#include "modules/interconnect/data_bus_schedule.h"

using namespace ohmvp;

namespace {
constexpr BusUse dram = BusUse::dram;
constexpr BusUse xpoint = BusUse::xpoint;
constexpr BusUse memory_route = BusUse::memory_route;
constexpr BusUse loss = BusUse::coding_loss;
}  // namespace

TEST_CASE("data bus schedule: an empty bus is free at once", "[data_bus]") {
  DataBusSchedule bus(0);
  CHECK(bus.earliest_free(100, 4, dram) == 100);
  CHECK(bus.fits(0, 1000, dram));
  CHECK_FALSE(bus.starts_at(100));
}

TEST_CASE("data bus schedule: a transfer goes after the reservations it would overlap",
          "[data_bus]") {
  DataBusSchedule bus(0);
  REQUIRE(bus.reserve(10, 14, dram));
  REQUIRE(bus.reserve(20, 24, dram));
  CHECK(bus.earliest_free(0, 4, dram) == 0);    // ends where the first begins
  CHECK(bus.earliest_free(0, 11, dram) == 24);  // does not fit before 10, nor in 14..20
  CHECK(bus.earliest_free(12, 4, dram) == 14);  // the gap 14..20
  CHECK(bus.earliest_free(12, 6, dram) == 14);  // exactly the gap
  CHECK(bus.earliest_free(12, 7, dram) == 24);  // one more does not fit
  CHECK(bus.earliest_free(22, 1, dram) == 24);
  CHECK(bus.earliest_free(30, 4, dram) == 30);
}

TEST_CASE("data bus schedule: a reservation fills a gap and keeps the order", "[data_bus]") {
  DataBusSchedule bus(0);
  REQUIRE(bus.reserve(20, 24, dram));
  REQUIRE(bus.reserve(30, 34, dram));
  REQUIRE(bus.reserve(24, 28, dram));
  REQUIRE(bus.reserve(0, 4, dram));
  const auto& busy = bus.transfers();
  REQUIRE(busy.size() == 4);
  CHECK(busy[0].start == 0);
  CHECK(busy[1].start == 20);
  CHECK(busy[2].start == 24);
  CHECK(busy[3].start == 30);
  CHECK(bus.starts_at(24));
  CHECK_FALSE(bus.starts_at(28));
}

TEST_CASE("data bus schedule: overlapping or empty reservations are refused", "[data_bus]") {
  DataBusSchedule bus(0);
  REQUIRE(bus.reserve(10, 20, dram));
  CHECK_FALSE(bus.reserve(19, 21, dram));
  CHECK_FALSE(bus.reserve(5, 11, dram));
  CHECK_FALSE(bus.reserve(12, 13, dram));
  CHECK_FALSE(bus.reserve(0, 30, dram));
  CHECK_FALSE(bus.reserve(25, 25, dram));
  CHECK(bus.transfers().size() == 1);
  CHECK(bus.reserve(20, 21, dram));
  CHECK(bus.reserve(9, 10, dram));
}

TEST_CASE("data bus schedule: the past is forgotten", "[data_bus]") {
  DataBusSchedule bus(0);
  REQUIRE(bus.reserve(0, 4, dram));
  REQUIRE(bus.reserve(4, 8, dram));
  REQUIRE(bus.reserve(10, 14, dram));
  bus.forget_until(8);
  REQUIRE(bus.transfers().size() == 1);
  CHECK(bus.transfers()[0].start == 10);
  bus.forget_until(12);  // still busy until 14
  CHECK(bus.transfers().size() == 1);
  CHECK(bus.earliest_free(12, 2, dram) == 14);
}

TEST_CASE("data bus schedule: same-device transfers follow each other directly", "[data_bus]") {
  DataBusSchedule s(100);
  REQUIRE(s.reserve(1000, 2066, dram));
  CHECK(s.earliest_free(1000, 1066, dram) == 2066);
  REQUIRE(s.reserve(2066, 3132, dram));
  CHECK(s.switches() == 0);
  CHECK_FALSE(s.fits(3000, 4000, dram));
  CHECK(s.starts_at(2066));
  CHECK_FALSE(s.starts_at(2000));
}

TEST_CASE("data bus schedule: a device change leaves the switch time idle", "[data_bus]") {
  DataBusSchedule s(100);
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

TEST_CASE("data bus schedule: a gap takes a transfer only with room for both switches",
          "[data_bus]") {
  DataBusSchedule s(100);
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
  DataBusSchedule t(100);
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

TEST_CASE("data bus schedule: forgotten transfers still guard the next one", "[data_bus]") {
  DataBusSchedule s(100);
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

TEST_CASE("data bus schedule: with no switch time it is a plain interval schedule", "[data_bus]") {
  DataBusSchedule s(0);
  REQUIRE(s.reserve(0, 1000, dram));
  CHECK(s.earliest_free(0, 500, xpoint) == 1000);
  REQUIRE(s.reserve(1000, 1500, xpoint));
  CHECK(s.switches() == 1);
  CHECK_FALSE(s.reserve(1400, 1600, dram));
  CHECK_FALSE(s.reserve(5, 5, dram));
}

TEST_CASE("data bus schedule: the memory route taking turns is on the XPoint's side",
          "[data_bus]") {
  DataBusSchedule s(100);
  REQUIRE(s.reserve(0, 1000, xpoint));
  REQUIRE(s.reserve(1000, 2000, memory_route));
  CHECK(s.switches() == 0);
  CHECK(s.earliest_free(2000, 500, dram) == 2100);
  CHECK(s.starts_at(1000));
  CHECK(s.starts_at(1000, memory_route));
  CHECK_FALSE(s.starts_at(1000, xpoint));
}

TEST_CASE("data bus schedule: a coding-loss block causes no switch", "[data_bus]") {
  DataBusSchedule s(100);
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

TEST_CASE("data bus schedule: a coding-loss block is busy, not a switch's idle time",
          "[data_bus]") {
  DataBusSchedule s(100);
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

TEST_CASE("data bus schedule: forgotten coding loss still counts against the idle time",
          "[data_bus]") {
  DataBusSchedule s(100);
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
