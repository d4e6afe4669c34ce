// --time-limit text: a number and a unit, or none.
#include <catch2/catch.hpp>

#include <stdexcept>

#include "platforms/time_limit.h"

using Catch::Matchers::Contains;
using ohmvp::parse_time_limit_ps;
using ohmvp::time_limit_text;

TEST_CASE("time limit: a number and a unit, as picoseconds; none is no limit") {
  CHECK(parse_time_limit_ps("1s") == 1'000'000'000'000);
  CHECK(parse_time_limit_ps("250us") == 250'000'000);
  CHECK(parse_time_limit_ps("2.5 ms") == 2'500'000'000);
  CHECK(parse_time_limit_ps("10ns") == 10'000);
  CHECK(parse_time_limit_ps("1ps") == 1);
  CHECK(parse_time_limit_ps("none") == 0);
  CHECK(ohmvp::k_default_time_limit_ps == parse_time_limit_ps("1s"));
}

TEST_CASE("time limit: anything else says what is expected") {
  for (const char* bad : {"", "5", "ms", "5x", "5 MS", "-1ms", "1e3ms", "1.2.3ms", "5ms ", "None"})
    CHECK_THROWS_WITH(parse_time_limit_ps(bad), Contains("expected a time and its unit"));
  CHECK_THROWS_WITH(parse_time_limit_ps("0ms"), Contains("expected from 1 ps"));
  CHECK_THROWS_WITH(parse_time_limit_ps("0.1ps"), Contains("expected from 1 ps"));
  CHECK_THROWS_WITH(parse_time_limit_ps("99999999s"), Contains("to 9.2e6 s"));
}

TEST_CASE("time limit: messages show it in the largest unit that keeps it at 1 or more") {
  CHECK(time_limit_text(1'000'000'000'000) == "1 s");
  CHECK(time_limit_text(250'000'000) == "250 us");
  CHECK(time_limit_text(2'500'000'000) == "2.5 ms");
  CHECK(time_limit_text(999) == "999 ps");
}
