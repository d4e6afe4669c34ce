#include <catch2/catch.hpp>

#include <stdexcept>
#include <utility>
#include <vector>

#include "modules/common/random.h"
#include "modules/optical/shared_light.h"

using ohmvp::DualRouteMode;
using ohmvp::SharedLight;

namespace {

std::vector<uint8_t> random_bytes(ohmvp::Rng& rng, size_t n) {
  std::vector<uint8_t> bytes(n);
  for (uint8_t& b : bytes) b = static_cast<uint8_t>(rng.below(256));
  return bytes;
}

// A memory-route burst of random bytes over a data-route burst of random bytes: it must arrive
// unchanged. Returns the data route's bytes and the memory route's.
std::pair<std::vector<uint8_t>, std::vector<uint8_t>> carry_random_burst(SharedLight& light,
                                                                         ohmvp::Rng& rng) {
  const std::vector<uint8_t> data_route = random_bytes(rng, 64);
  const std::vector<uint8_t> sent = random_bytes(rng, 64);
  light.data_route_burst(data_route.data(), 64);
  std::vector<uint8_t> carried = sent;
  light.carry_memory_route(carried.data(), 64);
  CHECK(carried == sent);
  return {data_route, sent};
}

// 2-bit symbols equal in `a` and `b`: the WOM second write leaves exactly those.
uint64_t equal_symbols(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
  uint64_t equal = 0;
  for (size_t i = 0; i < a.size(); ++i)
    for (unsigned s = 0; s < 4; ++s) equal += ((a[i] >> (2 * s)) & 3u) == ((b[i] >> (2 * s)) & 3u);
  return equal;
}

}  // namespace

TEST_CASE("shared light: WOM carries the memory route's bytes over the data route's",
          "[optical][wom]") {
  SharedLight light(DualRouteMode::wom, 0.5, 0.1);
  ohmvp::Rng rng(3);
  uint64_t kept = 0;
  for (int burst = 0; burst < 50; ++burst) {
    const auto [data_route, sent] = carry_random_burst(light, rng);
    kept += equal_symbols(data_route, sent);
  }
  // Kept exactly where the first-generation cells already held the data.
  CHECK(light.wom_symbols_kept() == kept);
  CHECK(light.wom_symbols_kept() + light.wom_symbols_rewritten() == 50 * 64 * 4);
}

TEST_CASE("shared light: before any data-route burst the light is idle, and a short burst repeats",
          "[optical][wom]") {
  SharedLight light(DualRouteMode::wom, 0.5, 0.1);
  std::vector<uint8_t> zeros_and_ones = {0x00, 0x00, 0xff, 0xff};
  light.carry_memory_route(zeros_and_ones.data(), 4);
  CHECK(zeros_and_ones == std::vector<uint8_t>{0x00, 0x00, 0xff, 0xff});
  CHECK(light.wom_symbols_kept() == 8);  // the 0x00 bytes' symbols match idle light
  const std::vector<uint8_t> data_route = {0xff};
  light.data_route_burst(data_route.data(), 1);
  std::vector<uint8_t> carried = {0xff, 0x00, 0xff};
  light.carry_memory_route(carried.data(), 3);
  CHECK(carried == std::vector<uint8_t>{0xff, 0x00, 0xff});
  CHECK(light.wom_symbols_kept() == 8 + 8);  // the 0xff bytes under 0xff, repeated
}

TEST_CASE("shared light: half-coupled levels read right at both ends", "[optical][half_coupled]") {
  SharedLight light(DualRouteMode::half_coupled, 0.5, 0.1);
  ohmvp::Rng rng(4);
  for (int burst = 0; burst < 50; ++burst) carry_random_burst(light, rng);
  CHECK(light.bit_errors() == 0);
  CHECK(light.snarf_bit_errors() == 0);
  CHECK(light.wom_symbols_kept() + light.wom_symbols_rewritten() == 0);
}

TEST_CASE("shared light: routes that take turns share none; unreadable levels are refused",
          "[optical]") {
  CHECK_THROWS_AS(SharedLight(DualRouteMode::none, 0.5, 0.1), std::invalid_argument);
  // A fully coupled 0 that leaves as much light as the half-coupled 0.
  CHECK_THROWS_AS(SharedLight(DualRouteMode::half_coupled, 0.5, 0.5), std::invalid_argument);
  CHECK_NOTHROW(SharedLight(DualRouteMode::wom, 0.5, 0.5));
}
