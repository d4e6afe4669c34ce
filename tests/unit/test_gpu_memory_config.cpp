#include <catch2/catch.hpp>

#include <string>

#include "modules/common/config_reader.h"
#include "modules/common/errors.h"
#include "modules/gpu/l2_slice_config.h"
#include "modules/interconnect/crossbar_config.h"

using namespace ohmvp;
using Catch::Matchers::Contains;
using nlohmann::json;

namespace {

template <class Config>
Config parse_json(const std::string& text, const std::string& path) {
  const json node = json::parse(text);
  Config config;
  parse(ConfigReader(node, path), config);
  return config;
}

template <class Config>
std::string error_of(const std::string& text, const std::string& path) {
  try {
    parse_json<Config>(text, path);
  } catch (const ConfigError& e) {
    return e.what();
  }
  FAIL("no ConfigError for " << text);
  return {};
}

}  // namespace

TEST_CASE("L2 slice config: keys, defaults and errors", "[cache]") {
  const auto defaults = parse_json<gpu::L2SliceConfig>("{}", "gpu.l2");
  CHECK(defaults.cache.size_bytes == 1024 * 1024);
  CHECK(defaults.cache.ways == 8);
  const auto c = parse_json<gpu::L2SliceConfig>(
      R"({"size_bytes": 65536, "ways": 4, "line_bytes": 128, "sector_bytes": 32,
          "hit_latency": 20, "mshr_entries": 16, "max_merges": 3})",
      "gpu.l2");
  CHECK(c.cache.size_bytes == 65536);
  CHECK(c.cache.ways == 4);
  CHECK(c.hit_latency == 20);
  CHECK(c.mshr_entries == 16);
  CHECK(c.max_merges == 3);
  CHECK_THAT(error_of<gpu::L2SliceConfig>(R"({"way": 4})", "gpu.l2"),
             Contains("'way' at gpu.l2") && Contains("did you mean 'ways'"));
  CHECK_THAT(error_of<gpu::L2SliceConfig>(R"({"mshr_entries": 0})", "gpu.l2"),
             Contains("gpu.l2.mshr_entries"));
  CHECK_THAT(error_of<gpu::L2SliceConfig>(R"({"size_bytes": 100000})", "gpu.l2"),
             Contains("gpu.l2.size_bytes") && Contains("multiple"));
  CHECK_THAT(error_of<gpu::L2SliceConfig>(R"({"sector_bytes": 256})", "gpu.l2"),
             Contains("gpu.l2.sector_bytes") && Contains("no larger than line_bytes"));
}

TEST_CASE("crossbar config: keys, defaults and errors", "[cache]") {
  const auto c = parse_json<CrossbarConfig>(
      R"({"latency": 3, "bytes_per_cycle": 64, "queue_depth": 2})", "gpu.crossbar");
  CHECK(c.latency == 3);
  CHECK(c.bytes_per_cycle == 64);
  CHECK(c.queue_depth == 2);
  CHECK_THAT(error_of<CrossbarConfig>(R"({"bytes_per_cycle": 0})", "gpu.crossbar"),
             Contains("gpu.crossbar.bytes_per_cycle"));
  CHECK_THAT(error_of<CrossbarConfig>(R"({"latncy": 3})", "gpu.crossbar"), Contains("latency"));
}
