#include <catch2/catch.hpp>

#include <filesystem>
#include <functional>
#include <string>

#include "modules/common/config_document.h"
#include "modules/common/config_reader.h"
#include "modules/common/errors.h"
#include "modules/xpoint/xpoint_config.h"

using namespace ohmvp;
using Catch::Matchers::Contains;
using nlohmann::json;

namespace {

const std::filesystem::path k_configs = std::filesystem::path(OHMVP_SOURCE_DIR) / "configs";

XPointConfig parse_xpoint(const json& node) {
  XPointConfig config;
  parse(ConfigReader(node, "memory.xpoint"), config);
  return config;
}

XPointConfig load_preset(const std::string& name) {
  const ConfigDocument document =
      ConfigDocument::load(k_configs / "memory" / (name + ".json"), {k_configs});
  XPointConfig config;
  parse(ConfigReader(document.json().at("memory").at("xpoint"), "memory.xpoint", &document),
        config);
  return config;
}

std::string error_of(const json& node) {
  try {
    parse_xpoint(node);
  } catch (const ConfigError& e) {
    return e.what();
  }
  FAIL("expected a ConfigError");
  return "";
}

}  // namespace

TEST_CASE("XPoint presets: Ohm-GPU and Optane figures", "[xpoint]") {
  const XPointConfig ohm = load_preset("xpoint_ohm_gpu");
  CHECK(ohm.read_ns == 190.0);
  CHECK(ohm.write_ns == 763.0);
  CHECK(ohm.line_bytes == 256);
  CHECK(ohm.start_gap.psi == 100);
  CHECK(ohm.endurance_writes == 10'000'000);
  const XPointTiming t = to_cycles(ohm);
  CHECK(t.tCK_ps == 1000);
  CHECK(t.read == 190);
  CHECK(t.write == 763);

  const XPointConfig optane = load_preset("xpoint_optane");
  CHECK(optane.read_ns == 305.0);
  CHECK(optane.write_ns == 1000.0);
  CHECK(optane.write_buffer_entries * optane.line_bytes == 16 * 1024);
}

TEST_CASE("XPoint config: defaults, cycles rounding up", "[xpoint]") {
  const XPointConfig c = parse_xpoint(json{{"clock_ns", 0.8}, {"read_ns", 190.0}});
  CHECK(c.partitions == 8);
  const XPointTiming t = to_cycles(c);
  CHECK(t.tCK_ps == 800);
  CHECK(t.read == 238);   // 237.5 cycles
  CHECK(t.write == 954);  // 953.75 cycles
  CHECK(c.lines() == (uint64_t{1024} << 20) / 256);

  // A clock of a fraction of a ps runs at whole ps: the cycles are counted against that clock,
  // so that the media takes no less than its time (1540 cycles of 123 ps would be 189.4 ns).
  const XPointTiming odd = to_cycles(parse_xpoint(json{{"clock_ns", 0.1234}, {"read_ns", 190.0}}));
  CHECK(odd.tCK_ps == 123);
  CHECK(odd.read == 1545);  // 1544.7 cycles of 123 ps
  CHECK(odd.ps(odd.read) >= 190'000);
}

TEST_CASE("XPoint config errors name the key and what was expected", "[xpoint]") {
  CHECK_THAT(error_of(json{{"partitons", 4}}),
             Contains("'partitons' at memory.xpoint") && Contains("partitions"));
  CHECK_THAT(error_of(json{{"partitions", 0}}), Contains("memory.xpoint.partitions"));
  CHECK_THAT(error_of(json{{"read_ns", "fast"}}), Contains("expected number"));
  CHECK_THAT(error_of(json{{"line_bytes", 192}}), Contains("power of two"));
  CHECK_THAT(error_of(json{{"start_gap", {{"psi", 0}}}}), Contains("memory.xpoint.start_gap.psi"));
  CHECK_THAT(error_of(json{{"start_gap", {{"region_lines", 3000}}}}),
             Contains("start_gap.region_lines: 3000 must divide"));
  CHECK_THAT(error_of(json{{"start_gap", {{"randomize", true}}}}), Contains("randomise"));
  CHECK_THAT(error_of(json{{"ecc", 1}}), Contains("expected boolean"));
  // Disabled Start-Gap needs no region to divide the capacity.
  CHECK_NOTHROW(parse_xpoint(json{{"start_gap", {{"enabled", false}, {"region_lines", 3000}}}}));
}
