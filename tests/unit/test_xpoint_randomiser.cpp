#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "modules/xpoint/feistel_randomiser.h"

using namespace ohmvp;

TEST_CASE("the Feistel randomiser is a bijection with its inverse", "[xpoint]") {
  const uint64_t lines = GENERATE(1u, 2u, 3u, 5u, 64u, 1000u, 4096u, 5000u);
  const FeistelRandomiser r(lines, 17);
  std::vector<uint8_t> seen(lines, 0);
  for (uint64_t l = 0; l < lines; ++l) {
    const uint64_t f = r.forward(l);
    REQUIRE(f < lines);
    REQUIRE(seen[f] == 0);
    seen[f] = 1;
    REQUIRE(r.inverse(f) == l);
  }
}

TEST_CASE("the Feistel randomiser scatters neighbours and depends on the seed", "[xpoint]") {
  const uint64_t lines = 1 << 16;
  const FeistelRandomiser a(lines, 1), b(lines, 2);
  int same_seed_adjacent = 0, differs = 0;
  for (uint64_t l = 0; l < 1000; ++l) {
    const uint64_t x = a.forward(l), y = a.forward(l + 1);
    if ((x > y ? x - y : y - x) < 16) ++same_seed_adjacent;
    if (a.forward(l) != b.forward(l)) ++differs;
  }
  CHECK(same_seed_adjacent < 10);
  CHECK(differs > 990);
  CHECK_THROWS_AS(FeistelRandomiser(0, 1), std::invalid_argument);
}

// The mapping itself, pinned: the shipped XPoint figures (wear, which lines share a partition)
// were made with it, and a change to the rounds would move them all.
TEST_CASE("the Feistel randomiser's mapping is the one the shipped figures were made with",
          "[xpoint]") {
  const FeistelRandomiser r(1 << 16, 1);
  std::vector<uint64_t> first;
  for (uint64_t l = 0; l < 6; ++l) first.push_back(r.forward(l));
  CHECK(first == std::vector<uint64_t>{46188, 25855, 6538, 40107, 51164, 45664});
  const FeistelRandomiser odd(5000, 17);
  CHECK(odd.forward(4999) == 3731);
}
