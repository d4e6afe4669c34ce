#include <catch2/catch.hpp>

#include "modules/interconnect/data_bus_schedule.h"

using ohmvp::DataBusSchedule;

TEST_CASE("an empty bus is free at once", "[data_bus]") {
  DataBusSchedule bus;
  CHECK(bus.earliest_free(100, 4) == 100);
  CHECK(bus.is_free(0, 1000));
  CHECK_FALSE(bus.starts_at(100));
}

TEST_CASE("a transfer goes after the reservations it would overlap", "[data_bus]") {
  DataBusSchedule bus;
  REQUIRE(bus.reserve(10, 14));
  REQUIRE(bus.reserve(20, 24));
  CHECK(bus.earliest_free(0, 4) == 0);    // ends where the first begins
  CHECK(bus.earliest_free(0, 11) == 24);  // does not fit before 10, nor in 14..20
  CHECK(bus.earliest_free(12, 4) == 14);  // the gap 14..20
  CHECK(bus.earliest_free(12, 6) == 14);  // exactly the gap
  CHECK(bus.earliest_free(12, 7) == 24);  // one more does not fit
  CHECK(bus.earliest_free(22, 1) == 24);
  CHECK(bus.earliest_free(30, 4) == 30);
}

TEST_CASE("a reservation fills a gap and keeps the order", "[data_bus]") {
  DataBusSchedule bus;
  REQUIRE(bus.reserve(20, 24));
  REQUIRE(bus.reserve(30, 34));
  REQUIRE(bus.reserve(24, 28));
  REQUIRE(bus.reserve(0, 4));
  const auto& busy = bus.intervals();
  REQUIRE(busy.size() == 4);
  CHECK(busy[0].start == 0);
  CHECK(busy[1].start == 20);
  CHECK(busy[2].start == 24);
  CHECK(busy[3].start == 30);
  CHECK(bus.starts_at(24));
  CHECK_FALSE(bus.starts_at(28));
}

TEST_CASE("overlapping or empty reservations are refused", "[data_bus]") {
  DataBusSchedule bus;
  REQUIRE(bus.reserve(10, 20));
  CHECK_FALSE(bus.reserve(19, 21));
  CHECK_FALSE(bus.reserve(5, 11));
  CHECK_FALSE(bus.reserve(12, 13));
  CHECK_FALSE(bus.reserve(0, 30));
  CHECK_FALSE(bus.reserve(25, 25));
  CHECK(bus.intervals().size() == 1);
  CHECK(bus.reserve(20, 21));
  CHECK(bus.reserve(9, 10));
}

TEST_CASE("the past is forgotten", "[data_bus]") {
  DataBusSchedule bus;
  REQUIRE(bus.reserve(0, 4));
  REQUIRE(bus.reserve(4, 8));
  REQUIRE(bus.reserve(10, 14));
  bus.forget_until(8);
  REQUIRE(bus.intervals().size() == 1);
  CHECK(bus.intervals()[0].start == 10);
  bus.forget_until(12);  // still busy until 14
  CHECK(bus.intervals().size() == 1);
  CHECK(bus.earliest_free(12, 2) == 14);
}
