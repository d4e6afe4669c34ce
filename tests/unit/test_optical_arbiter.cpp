#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "modules/optical/bit_error_injector.h"
#include "modules/optical/virtual_channel_arbiter.h"

using namespace ohmvp;

namespace {

constexpr OpticalRoutePurpose k_data = OpticalRoutePurpose::data_route;
constexpr OpticalRoutePurpose k_memory = OpticalRoutePurpose::memory_route;
constexpr VirtualChannelId k_vc0{0};

}  // namespace

TEST_CASE("Virtual channel arbiter: one virtual channel serialises, others do not conflict",
          "[optical]") {
  const OpticalChannelConfig c;
  VirtualChannelArbiter arbiter(c, DualRouteMode::none);
  TransferShape shape;  // 64 bytes: 1067 ps on the light, 701 ps flight, 1000 ps SerDes
  const auto first = arbiter.schedule(shape, k_data, 1, 0);
  CHECK(first.start_ps == 0);
  CHECK(first.end_ps == 2768);
  CHECK_FALSE(first.switched_detector);
  // Same channel, same destination, ready at once: waits for the light, no retuning.
  const auto second = arbiter.schedule(shape, k_data, 1, 0);
  CHECK(second.start_ps == 1067);
  CHECK(second.end_ps == 1067 + 2768);
  // Another destination: the demultiplexer retunes detectors (100 ps) before the bits.
  const auto third = arbiter.schedule(shape, k_data, 2, 0);
  CHECK(third.switched_detector);
  CHECK(third.start_ps == 2134);
  CHECK(third.timing.tuning_ps == 100);
  CHECK(third.end_ps == 2134 + 100 + 2768);
  CHECK(arbiter.free_at_ps(k_vc0, k_data) == 2134 + 100 + 1067);
  CHECK(arbiter.busy_ps(k_vc0, k_data) == 3 * 1067 + 100);
  CHECK(arbiter.detector_switches(k_vc0) == 1);
  // Another virtual channel is free.
  shape.vc = VirtualChannelId{3};
  CHECK(arbiter.schedule(shape, k_data, 7, 500).start_ps == 500);
  // A transfer ready later than the channel starts when ready; a half-coupling tuning wins over
  // the detector switch.
  shape.vc = k_vc0;
  shape.tuning_ps = 500;
  const auto late = arbiter.schedule(shape, k_data, 1, 10'000);
  CHECK(late.start_ps == 10'000);
  CHECK(late.timing.tuning_ps == 500);
}

TEST_CASE("Virtual channel arbiter: without dual routes the memory route takes turns",
          "[optical]") {
  const OpticalChannelConfig c;
  VirtualChannelArbiter arbiter(c, DualRouteMode::none);
  const TransferShape shape;
  CHECK(arbiter.schedule(shape, k_data, 1, 0).start_ps == 0);
  const auto swap = arbiter.schedule(shape, k_memory, 9, 0);
  CHECK(swap.start_ps == 1067);
  CHECK(swap.coding == LightCoding::nrz);
  CHECK(arbiter.schedule(shape, k_data, 1, 0).start_ps == 2134);
  CHECK(arbiter.busy_ps(k_vc0, k_memory) == 1067);
  CHECK(arbiter.wom_busy_ps(k_vc0) == 0);
}

TEST_CASE("Virtual channel arbiter: Ohm-BW's half-coupled routes run side by side at full rate",
          "[optical]") {
  const OpticalChannelConfig c;
  VirtualChannelArbiter arbiter(c, DualRouteMode::half_coupled);
  const TransferShape shape;
  CHECK(arbiter.schedule(shape, k_data, 1, 0).start_ps == 0);
  const auto swap = arbiter.schedule(shape, k_memory, 9, 0);
  CHECK(swap.start_ps == 0);
  CHECK(swap.timing.serialisation_ps == 1067);
  CHECK(arbiter.schedule(shape, k_data, 1, 0).start_ps == 1067);
  CHECK(arbiter.schedule(shape, k_memory, 9, 0).start_ps == 1067);
}

TEST_CASE("Virtual channel arbiter: Ohm-WOM shares the light at 2/3 of the bandwidth",
          "[optical]") {
  const OpticalChannelConfig c;
  VirtualChannelArbiter arbiter(c, DualRouteMode::wom);
  const TransferShape shape;
  // Nothing shares the light yet: plain, 1067 ps.
  const auto d1 = arbiter.schedule(shape, k_data, 1, 0);
  CHECK(d1.coding == LightCoding::nrz);
  // The swap overlays second-generation words: it waits for d1's plain bits to leave the light.
  const auto m1 = arbiter.schedule(shape, k_memory, 9, 0);
  CHECK(m1.start_ps == 1067);
  CHECK(m1.coding == LightCoding::wom);
  CHECK(m1.timing.serialisation_ps == 1600);
  // A data transfer while the swap runs is coded: 1600 ps; the next, after it, is plain again.
  const auto d2 = arbiter.schedule(shape, k_data, 1, 0);
  CHECK(d2.start_ps == 1067);
  CHECK(d2.coding == LightCoding::wom);
  CHECK(d2.end_ps == 1067 + 1600 + 701 + 1000);
  const auto d3 = arbiter.schedule(shape, k_data, 1, 0);
  CHECK(d3.start_ps == 2667);
  CHECK(d3.coding == LightCoding::nrz);
  CHECK(arbiter.busy_ps(k_vc0, k_data) == 1067 + 1600 + 1067);
  CHECK(arbiter.busy_ps(k_vc0, k_memory) == 1600);
  CHECK(arbiter.wom_busy_ps(k_vc0) == 3200);
  CHECK(std::string(to_string(arbiter.mode())) == "wom");
}

TEST_CASE("Dual-route sharing per platform and mode", "[optical]") {
  CHECK(dual_route_mode(OhmPlatform::ohm_base, HeteroMode::planar) == DualRouteMode::none);
  CHECK(dual_route_mode(OhmPlatform::auto_rw, HeteroMode::planar) == DualRouteMode::none);
  CHECK(dual_route_mode(OhmPlatform::ohm_wom, HeteroMode::planar) == DualRouteMode::wom);
  CHECK(dual_route_mode(OhmPlatform::ohm_bw, HeteroMode::planar) == DualRouteMode::half_coupled);
  CHECK(dual_route_mode(OhmPlatform::ohm_wom, HeteroMode::two_level) == DualRouteMode::none);
  CHECK(dual_route_mode(OhmPlatform::ohm_bw, HeteroMode::two_level) == DualRouteMode::none);
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
