#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <vector>

#include "modules/common/random.h"
#include "modules/xpoint/start_gap.h"
#include "modules/xpoint/wear_leveller.h"

using namespace ohmvp;

TEST_CASE("Start-Gap maps onto every physical line but the gap, for every Start and Gap",
          "[xpoint]") {
  for (uint64_t n = 1; n <= 9; ++n) {
    StartGap sg(n, 100);
    for (uint64_t start = 0; start < n; ++start) {
      for (uint64_t gap = 0; gap <= n; ++gap) {
        sg.set_registers(start, gap);
        std::vector<int> hits(n + 1, 0);
        for (uint64_t la = 0; la < n; ++la) {
          const uint64_t pa = sg.to_physical(la);
          REQUIRE(pa <= n);
          ++hits[pa];
        }
        INFO("N " << n << " Start " << start << " Gap " << gap);
        CHECK(hits[gap] == 0);
        for (uint64_t pa = 0; pa <= n; ++pa) {
          if (pa != gap) CHECK(hits[pa] == 1);
        }
      }
    }
  }
}

TEST_CASE("Start-Gap moves the gap exactly once every psi writes", "[xpoint]") {
  const uint32_t psi = GENERATE(1u, 7u, 100u);
  StartGap sg(13, psi);
  uint64_t reported = 0;
  for (uint64_t w = 1; w <= 5000; ++w) {
    if (sg.count_write()) ++reported;
    REQUIRE(sg.moves() == w / psi);
    REQUIRE(reported == w / psi);
  }
}

TEST_CASE("Start-Gap advances Start once per (N + 1) * psi writes", "[xpoint]") {
  const uint64_t n = 10;
  const uint32_t psi = 4;
  StartGap sg(n, psi);
  for (uint64_t w = 1; w <= 3 * n * (n + 1) * psi; ++w) {
    sg.count_write();
    REQUIRE(sg.start() == (w / ((n + 1) * psi)) % n);
  }
}

TEST_CASE("Start-Gap's moves copy into the gap and leave the source as the new gap", "[xpoint]") {
  StartGap sg(4, 1);
  const GapMove first = *sg.count_write();
  CHECK(first.from == 3);
  CHECK(first.to == 4);
  CHECK(sg.gap() == 3);
  for (int i = 0; i < 3; ++i) sg.count_write();
  CHECK(sg.gap() == 0);
  const GapMove wrap = *sg.count_write();  // line N into line 0, Start advances
  CHECK(wrap.from == 4);
  CHECK(wrap.to == 0);
  CHECK(sg.gap() == 4);
  CHECK(sg.start() == 1);
}

TEST_CASE("Start-Gap rejects empty regions and psi 0", "[xpoint]") {
  CHECK_THROWS_AS(StartGap(0, 1), std::invalid_argument);
  CHECK_THROWS_AS(StartGap(4, 0), std::invalid_argument);
  StartGap sg(4, 1);
  CHECK_THROWS_AS(sg.set_registers(4, 0), std::invalid_argument);
  CHECK_THROWS_AS(sg.set_registers(0, 5), std::invalid_argument);
}

TEST_CASE("the wear leveller: its regions must tile the lines; disabled, it maps nothing",
          "[xpoint]") {
  StartGapConfig config;
  config.enabled = true;
  config.region_lines = 16;
  CHECK_THROWS_WITH(WearLeveller(0, config), "WearLeveller: needs at least one line");
  CHECK_THROWS_WITH(WearLeveller(100, config),
                    "WearLeveller: region_lines must divide the line count");
  // Two regions of 16 lines, each with its spare line (the gap) after them.
  const WearLeveller enabled(32, [&] {
    StartGapConfig c = config;
    c.randomise = false;
    return c;
  }());
  CHECK(enabled.physical_lines() == 34);
  CHECK(enabled.to_physical(16) == 17);
  config.enabled = false;
  WearLeveller disabled(100, config);  // no regions to tile
  CHECK(disabled.physical_lines() == 100);
  for (uint64_t line : {0u, 7u, 99u}) CHECK(disabled.to_physical(line) == line);
  for (int write = 0; write < 1000; ++write) CHECK_FALSE(disabled.count_write(7));
  CHECK(disabled.moves() == 0);
}

TEST_CASE("a shadow memory loses no data across gap moves (randomised, several regions)",
          "[xpoint]") {
  StartGapConfig config;
  config.psi = 3;
  config.region_lines = 16;
  config.randomise = GENERATE(false, true);
  config.seed = 42;
  const uint64_t lines = 64;
  WearLeveller leveller(lines, config);
  REQUIRE(leveller.physical_lines() == 4 * 17);
  std::vector<uint64_t> physical(leveller.physical_lines(), 0);  // what each line holds
  std::vector<uint64_t> shadow(lines, 0);
  Rng rng(7);
  for (uint64_t w = 1; w <= 50'000; ++w) {
    const uint64_t la = rng.below(lines);
    physical[leveller.to_physical(la)] = w;
    shadow[la] = w;
    if (const auto move = leveller.count_write(la)) physical[move->to] = physical[move->from];
    if (w % 97 == 0) {
      for (uint64_t l = 0; l < lines; ++l) REQUIRE(physical[leveller.to_physical(l)] == shadow[l]);
    }
  }
  CHECK(leveller.moves() > 50'000 / 3 - 4 * 3);
}

namespace {

// Lifetime, as a fraction of the ideal, under a hot-spot write pattern: 90% of the writes go to
// a contiguous tenth of the lines, the rest anywhere. Gap-move copies count as writes.
double hot_spot_lifetime(const StartGapConfig& config, uint64_t writes) {
  const uint64_t lines = 1024;
  WearLeveller leveller(lines, config);
  std::vector<uint32_t> wear(leveller.physical_lines(), 0);
  Rng rng(2009);
  const uint64_t hot = lines / 10;
  for (uint64_t w = 0; w < writes; ++w) {
    const uint64_t la = rng.below(10) < 9 ? rng.below(hot) : rng.below(lines);
    ++wear[leveller.to_physical(la)];
    if (const auto move = leveller.count_write(la)) ++wear[move->to];
  }
  uint64_t total = 0;
  for (uint32_t w : wear) total += w;
  const double max = *std::max_element(wear.begin(), wear.end());
  return static_cast<double>(total) / static_cast<double>(wear.size()) / max;
}

}  // namespace

TEST_CASE("randomised Start-Gap brings hot-spot lifetime close to the ideal", "[xpoint]") {
  StartGapConfig none;
  none.enabled = false;
  // 20 million writes: about 195 gap rotations per region of 256 lines, so each line has swept
  // most of its region. The fraction keeps rising with longer runs.
  StartGapConfig plain;
  plain.region_lines = 256;
  plain.randomise = false;
  StartGapConfig randomised = plain;
  randomised.randomise = true;
  const uint64_t writes = 20'000'000;
  const double without = hot_spot_lifetime(none, writes);
  const double with_plain = hot_spot_lifetime(plain, writes);
  const double with_randomised = hot_spot_lifetime(randomised, writes);
  std::cout << "hot-spot lifetime (fraction of ideal): no wear levelling " << without
            << ", Start-Gap " << with_plain << ", randomised Start-Gap " << with_randomised << "\n";
  CHECK(without < 0.15);
  CHECK(with_randomised > 0.6);
  CHECK(with_randomised > 5 * without);
  CHECK(with_randomised > with_plain);
}
