// --vcd-limit text: a size and its unit, or none.
#include <catch2/catch.hpp>

#include <stdexcept>

#include "platforms/vcd_limit.h"

using Catch::Matchers::Contains;
using ohmvp::parse_vcd_limit_bytes;
using ohmvp::vcd_limit_text;

TEST_CASE("vcd limit: a size and a unit, as bytes; none is no limit") {
  CHECK(parse_vcd_limit_bytes("2GiB") == uint64_t{2} << 30);
  CHECK(parse_vcd_limit_bytes("500MB") == 500'000'000);
  CHECK(parse_vcd_limit_bytes("1.5 KiB") == 1536);
  CHECK(parse_vcd_limit_bytes("100B") == 100);
  CHECK(parse_vcd_limit_bytes("1kB") == 1000);
  CHECK(parse_vcd_limit_bytes("none") == 0);
  CHECK(ohmvp::k_default_vcd_limit_bytes == parse_vcd_limit_bytes("2GiB"));
}

TEST_CASE("vcd limit: anything else says what is expected") {
  for (const char* bad : {"", "5", "GB", "5x", "5 gb", "-1MB", "1e3MB", "1.2.3MB", "5MB ", "None"})
    CHECK_THROWS_WITH(parse_vcd_limit_bytes(bad), Contains("expected a size and its unit"));
  CHECK_THROWS_WITH(parse_vcd_limit_bytes("0MB"), Contains("expected from 1 B"));
  CHECK_THROWS_WITH(parse_vcd_limit_bytes("0.1B"), Contains("expected from 1 B"));
  CHECK_THROWS_WITH(parse_vcd_limit_bytes("99999999TiB"), Contains("to 8 EiB"));
}

TEST_CASE("vcd limit: messages show it in the unit it was likely given in") {
  CHECK(vcd_limit_text(uint64_t{2} << 30) == "2 GiB");
  CHECK(vcd_limit_text(500'000'000) == "500 MB");
  CHECK(vcd_limit_text(1536) == "1.5 KiB");
  CHECK(vcd_limit_text(999) == "999 B");
}
