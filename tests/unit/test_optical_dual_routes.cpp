#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "modules/common/bit_error_injector.h"
#include "modules/optical/dual_route_mode.h"

using namespace ohmvp;

TEST_CASE("Dual-route sharing per platform and mode", "[optical]") {
  CHECK(dual_route_mode(OhmPlatform::ohm_base, HeteroMode::planar) == DualRouteMode::none);
  CHECK(dual_route_mode(OhmPlatform::auto_rw, HeteroMode::planar) == DualRouteMode::none);
  CHECK(dual_route_mode(OhmPlatform::ohm_wom, HeteroMode::planar) == DualRouteMode::wom);
  CHECK(dual_route_mode(OhmPlatform::ohm_bw, HeteroMode::planar) == DualRouteMode::half_coupled);
  CHECK(dual_route_mode(OhmPlatform::ohm_wom, HeteroMode::two_level) == DualRouteMode::none);
  CHECK(dual_route_mode(OhmPlatform::ohm_bw, HeteroMode::two_level) == DualRouteMode::none);
  CHECK(std::string(to_string(DualRouteMode::wom)) == "wom");
}

TEST_CASE("Bit error injector: deterministic flips near the forced BER", "[optical]") {
  std::vector<uint8_t> a(1 << 16, 0);
  std::vector<uint8_t> b(1 << 16, 0);
  BitErrorInjector one(1e-3, 42);
  BitErrorInjector two(1e-3, 42);
  const uint64_t flipped = one.corrupt(a.data(), a.size());
  CHECK(two.corrupt(b.data(), b.size()) == flipped);
  CHECK(a == b);
  // 524,288 bits at 1e-3: 524 expected, within 5 sigma.
  CHECK(flipped > 524 - 5 * 23);
  CHECK(flipped < 524 + 5 * 23);
  uint64_t ones = 0;
  for (uint8_t byte : a) ones += static_cast<uint64_t>(__builtin_popcount(byte));
  CHECK(ones == flipped);
  CHECK(one.bits_seen() == a.size() * 8);

  std::vector<uint8_t> clean(64, 0xAB);
  BitErrorInjector none(0.0, 1);
  CHECK(none.corrupt(clean.data(), clean.size()) == 0);
  BitErrorInjector all(1.0, 1);
  CHECK(all.corrupt(clean.data(), clean.size()) == 512);
  CHECK(clean[0] == 0x54);
  CHECK_THROWS_AS(BitErrorInjector(1.5, 1), std::invalid_argument);
}

TEST_CASE("Bit error injector: flips spread across calls like one long buffer", "[optical]") {
  std::vector<uint8_t> whole(4096, 0);
  std::vector<uint8_t> pieces(4096, 0);
  BitErrorInjector a(5e-3, 9);
  BitErrorInjector b(5e-3, 9);
  a.corrupt(whole.data(), whole.size());
  for (size_t offset = 0; offset < pieces.size(); offset += 64) b.corrupt(&pieces[offset], 64);
  CHECK(whole == pieces);
}
