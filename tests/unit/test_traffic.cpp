#include <catch2/catch.hpp>

#include <cstdint>
#include <set>
#include <vector>

#include "modules/common/config_reader.h"
#include "modules/common/errors.h"
#include "modules/common/random.h"
#include "modules/host/traffic_pattern.h"

using nlohmann::json;
using ohmvp::ConfigError;
using ohmvp::ConfigReader;
using ohmvp::MemoryRequest;
using ohmvp::Rng;
using ohmvp::TrafficConfig;
using ohmvp::TrafficGenerator;
using ohmvp::TrafficPattern;

namespace {

std::vector<uint64_t> addresses(const TrafficConfig& config, size_t count) {
  TrafficGenerator generator(config);
  std::vector<uint64_t> result;
  MemoryRequest request;
  while (result.size() < count && generator.next(request)) result.push_back(request.address);
  return result;
}

std::vector<MemoryRequest> all_requests(const TrafficConfig& config) {
  TrafficGenerator generator(config);
  std::vector<MemoryRequest> result;
  MemoryRequest request;
  while (generator.next(request)) result.push_back(request);
  return result;
}

TrafficConfig parsed(const json& node) {
  TrafficConfig config;
  parse(ConfigReader(node, "traffic"), config);
  return config;
}

}  // namespace

TEST_CASE("traffic: Rng is deterministic and pinned") {
  Rng a(1), b(1), c(2);
  std::vector<uint64_t> first;
  for (int i = 0; i < 1000; ++i) {
    const uint64_t value = a.next();
    REQUIRE(value == b.next());
    if (i < 4) first.push_back(value);
  }
  // xoshiro256** seeded by splitmix64(1): the same on every platform and standard library.
  CHECK(first == std::vector<uint64_t>{0xb3f2af6d0fc710c5ull, 0x853b559647364ceaull,
                                       0x92f89756082a4514ull, 0x642e1c7bc266a3a7ull});
  CHECK(Rng(0).next() == 0x99ec5f36cb75f2b4ull);
  CHECK(c.next() != Rng(1).next());
}

TEST_CASE("traffic: Rng below() and unit() stay in bounds") {
  Rng rng(7);
  for (uint64_t bound : std::vector<uint64_t>{1, 2, 3, 10, 1000003, (1ull << 63) + 1, UINT64_MAX}) {
    for (int i = 0; i < 10000; ++i) REQUIRE(rng.below(bound) < bound);
  }
  std::vector<int> counts(10, 0);
  for (int i = 0; i < 100000; ++i) ++counts[rng.below(10)];
  for (int count : counts) CHECK(count == Approx(10000).epsilon(0.05));
  for (int i = 0; i < 100000; ++i) {
    const double u = rng.unit();
    REQUIRE(u >= 0.0);
    REQUIRE(u < 1.0);
  }
}

TEST_CASE("traffic: sequential addresses wrap inside the range") {
  TrafficConfig config;
  config.base = 0x1000;
  config.range = 256;
  config.size = 64;
  CHECK(addresses(config, 6) ==
        std::vector<uint64_t>{0x1000, 0x1040, 0x1080, 0x10c0, 0x1000, 0x1040});
}

TEST_CASE("traffic: strided addresses wrap modulo the range") {
  TrafficConfig config;
  config.pattern = TrafficPattern::strided;
  config.base = 0x10000;
  config.range = 1024;
  config.stride = 384;
  CHECK(addresses(config, 8) == std::vector<uint64_t>{0x10000, 0x10180, 0x10300, 0x10080, 0x10200,
                                                      0x10380, 0x10100, 0x10280});

  SECTION("a stride longer than the range") {
    config.stride = 1024 + 64;
    CHECK(addresses(config, 3) == std::vector<uint64_t>{0x10000, 0x10040, 0x10080});
  }
  SECTION("a range near the top of the address space does not overflow") {
    config.base = 0;
    config.range = UINT64_MAX - 63;  // 2^64 - 64
    config.stride = 1ull << 63;
    CHECK(addresses(config, 4) == std::vector<uint64_t>{0, 1ull << 63, 64, (1ull << 63) + 64});
  }
}

TEST_CASE("traffic: random addresses are aligned, in range and seeded") {
  TrafficConfig config;
  config.pattern = TrafficPattern::random;
  config.base = 0x40000000;
  config.range = 1 << 20;
  config.size = 128;
  config.requests = 10000;
  const std::vector<uint64_t> first = addresses(config, 10000);
  REQUIRE(first.size() == 10000);
  std::set<uint64_t> distinct;
  for (uint64_t address : first) {
    REQUIRE(address >= config.base);
    REQUIRE(address < config.base + config.range);
    REQUIRE(address % config.size == 0);
    distinct.insert(address);
  }
  CHECK(distinct.size() > 5000);  // 8192 slots: mostly distinct, certainly not constant
  CHECK(addresses(config, 10000) == first);
  config.seed = 2;
  CHECK(addresses(config, 10000) != first);
}

TEST_CASE("traffic: a hot set's window moves on and wraps in the range") {
  TrafficConfig config;
  config.pattern = TrafficPattern::hot_set;
  config.base = 1 << 20;
  config.range = 16384;
  config.size = 64;
  config.hot_bytes = 4096;
  config.hot_ratio = 1.0;
  config.hot_shift_every = 100;
  config.hot_shift_bytes = 8192;
  config.requests = 300;
  const std::vector<uint64_t> a = addresses(config, 300);
  REQUIRE(a.size() == 300);
  // Requests 0..99 in [0, 4 KiB), 100..199 in [8, 12 KiB), 200..299 back in [0, 4 KiB).
  for (size_t i = 0; i < a.size(); ++i) {
    const uint64_t window = (i / 100) % 2 == 1 ? 8192 : 0;
    REQUIRE(a[i] % 64 == 0);
    REQUIRE(a[i] >= config.base + window);
    REQUIRE(a[i] < config.base + window + 4096);
  }
  // A window that runs past the range's end continues at its start.
  config.hot_shift_bytes = 14336;  // the second window is [14, 16) + [0, 2) KiB
  const std::vector<uint64_t> wrapped = addresses(config, 200);
  std::set<bool> low_half;
  for (size_t i = 100; i < 200; ++i) {
    const uint64_t offset = wrapped[i] - config.base;
    REQUIRE((offset >= 14336 || offset < 2048));
    low_half.insert(offset < 2048);
  }
  CHECK(low_half.size() == 2);  // both ends were drawn
  // With hot_ratio 0 the draws are uniform over the range, as random's.
  config.hot_ratio = 0.0;
  std::set<uint64_t> distinct;
  for (uint64_t address : addresses(config, 300)) distinct.insert(address / 4096);
  CHECK(distinct.size() == 4);
}

TEST_CASE("traffic: read ratio") {
  TrafficConfig config;
  config.pattern = TrafficPattern::random;
  config.requests = 100000;

  SECTION("0.7 gives about 70% reads") {
    config.read_ratio = 0.7;
    uint64_t reads = 0;
    for (const MemoryRequest& request : all_requests(config)) reads += !request.is_write;
    CHECK(static_cast<double>(reads) / config.requests == Approx(0.7).margin(0.01));
  }
  SECTION("1 and 0 are exact") {
    config.read_ratio = 1.0;
    for (const MemoryRequest& request : all_requests(config)) REQUIRE_FALSE(request.is_write);
    config.read_ratio = 0.0;
    for (const MemoryRequest& request : all_requests(config)) REQUIRE(request.is_write);
  }
  SECTION("does not change the address sequence") {
    config.read_ratio = 0.5;
    const std::vector<uint64_t> mixed = addresses(config, 1000);
    config.read_ratio = 1.0;
    CHECK(addresses(config, 1000) == mixed);
  }
}

TEST_CASE("traffic: same seed gives the same requests; the count is exact") {
  TrafficConfig config;
  config.pattern = TrafficPattern::random;
  config.read_ratio = 0.3;
  config.requests = 5000;
  config.size = 32;
  const std::vector<MemoryRequest> first = all_requests(config);
  const std::vector<MemoryRequest> second = all_requests(config);
  REQUIRE(first.size() == 5000);
  REQUIRE(second.size() == 5000);
  for (size_t i = 0; i < first.size(); ++i) {
    REQUIRE(first[i].address == second[i].address);
    REQUIRE(first[i].is_write == second[i].is_write);
    REQUIRE(first[i].size == 32);
    REQUIRE(first[i].not_before_ps == 0);
  }
  TrafficGenerator generator(config);
  CHECK(generator.total() == 5000);
  MemoryRequest request;
  for (int i = 0; i < 5000; ++i) REQUIRE(generator.next(request));
  CHECK_FALSE(generator.next(request));
  CHECK_FALSE(generator.next(request));
}

TEST_CASE("traffic: parse reads every key") {
  const TrafficConfig config = parsed({{"pattern", "strided"},
                                       {"requests", 1000},
                                       {"size", 128},
                                       {"read_ratio", 0.25},
                                       {"base", 4096},
                                       {"range", 65536},
                                       {"stride", 256},
                                       {"seed", 99},
                                       {"max_outstanding", 16}});
  CHECK(config.pattern == TrafficPattern::strided);
  CHECK(config.requests == 1000);
  CHECK(config.size == 128);
  CHECK(config.read_ratio == 0.25);
  CHECK(config.base == 4096);
  CHECK(config.range == 65536);
  CHECK(config.stride == 256);
  CHECK(config.seed == 99);
  CHECK(config.max_outstanding == 16);

  const TrafficConfig defaults = parsed(json::object());
  CHECK(defaults.pattern == TrafficPattern::sequential);
  CHECK(defaults.requests == 100000);
  CHECK(parsed({{"pattern", "random"}}).pattern == TrafficPattern::random);
  const TrafficConfig hot = parsed({{"pattern", "hot_set"},
                                    {"hot_bytes", 8192},
                                    {"hot_ratio", 0.5},
                                    {"hot_shift_every", 7},
                                    {"hot_shift_bytes", 128}});
  CHECK(hot.pattern == TrafficPattern::hot_set);
  CHECK(hot.hot_bytes == 8192);
  CHECK(hot.hot_ratio == 0.5);
  CHECK(hot.hot_shift_every == 7);
  CHECK(hot.hot_shift_bytes == 128);
}

TEST_CASE("traffic: parse rejects bad configs") {
  using Catch::Contains;
  auto error = [](const json& node) {
    try {
      parsed(node);
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK_THAT(error({{"pattern", "sequental"}}),
             Contains("traffic.pattern: unknown value 'sequental'") &&
                 Contains("did you mean 'sequential'"));
  CHECK_THAT(error({{"requests", 0}}), Contains("traffic.requests: value 0 out of range"));
  CHECK_THAT(error({{"requests", 2000000000}}), Contains("traffic.requests"));
  CHECK_THAT(error({{"size", 48}}),
             Contains("traffic.size: expected a power of two from 1 to 4096"));
  CHECK_THAT(error({{"size", 8192}}), Contains("traffic.size: value 8192 out of range"));
  CHECK_THAT(error({{"read_ratio", 1.5}}), Contains("traffic.read_ratio: value 1.5 out of range"));
  CHECK_THAT(error({{"base", 100}}), Contains("traffic.base: expected a multiple of size (64)"));
  CHECK_THAT(error({{"range", 0}}), Contains("traffic.range: value 0 out of range"));
  CHECK_THAT(error({{"range", 1000}}),
             Contains("traffic.range: expected a positive multiple of size (64)"));
  CHECK_THAT(error({{"base", UINT64_MAX - 63}, {"range", 128}}),
             Contains("traffic.range: expected base + range to fit in 64-bit addresses"));
  CHECK_THAT(error({{"stride", 0}}), Contains("traffic.stride: value 0 out of range"));
  CHECK_THAT(error({{"pattern", "strided"}, {"stride", 96}}),
             Contains("traffic.stride: expected a positive multiple of size (64)"));
  CHECK_THAT(error({{"pattern", "hot_set"}, {"range", 4096}, {"hot_bytes", 8192}}),
             Contains("traffic.hot_bytes: expected a positive multiple of size (64) up to range"));
  CHECK_THAT(error({{"pattern", "hot_set"}, {"hot_shift_bytes", 100}}),
             Contains("traffic.hot_shift_bytes: expected a multiple of size (64)"));
  CHECK_THAT(error({{"hot_ratio", 2}}), Contains("traffic.hot_ratio: value 2 out of range"));
  CHECK_THAT(error({{"hot_shift_every", 0}}), Contains("traffic.hot_shift_every"));
  CHECK_THAT(error({{"max_outstanding", 0}}), Contains("traffic.max_outstanding"));
  CHECK_THAT(error({{"max_outstanding", 5000}}), Contains("traffic.max_outstanding"));
  CHECK_THAT(error({{"seed", -1}}), Contains("traffic.seed: expected unsigned integer"));
  CHECK_THAT(error({{"strides", 128}}),
             Contains("unknown key 'strides' at traffic") && Contains("did you mean 'stride'"));
  CHECK(error({{"size", 128}}) == "no error");  // the default stride matters only when strided
  // A key another pattern uses would be ignored: refused.
  CHECK(error({{"pattern", "sequential"}, {"stride", 128}}) ==
        "traffic.stride: only 'strided' traffic uses it");
  CHECK(error({{"pattern", "random"}, {"hot_ratio", 0.5}}) ==
        "traffic.hot_ratio: only 'hot_set' traffic uses it");
  // The last range that still fits: [2^64 - 128, 2^64).
  CHECK(error({{"base", UINT64_MAX - 127}, {"range", 128}}) == "no error");
}

TEST_CASE("traffic: the generator rejects a config parse() would reject") {
  TrafficConfig config;
  config.size = 48;
  CHECK_THROWS_AS(TrafficGenerator(config), ConfigError);
  config = TrafficConfig();
  config.range = 0;
  CHECK_THROWS_WITH(TrafficGenerator(config), Catch::Contains("traffic: range"));
}
