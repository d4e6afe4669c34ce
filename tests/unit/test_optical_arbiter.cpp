#include <catch2/catch.hpp>

#include <vector>

#include "modules/optical/bit_error_injector.h"
#include "modules/optical/virtual_channel_arbiter.h"

using namespace ohmvp;

TEST_CASE("Virtual channel arbiter: one virtual channel serialises, others do not conflict",
          "[optical]") {
  const OpticalChannelConfig c;
  VirtualChannelArbiter arbiter(c);
  TransferShape shape;  // 64 bytes: 1067 ps on the light, 701 ps flight, 1000 ps SerDes
  const auto first = arbiter.schedule(shape, 1, 0);
  CHECK(first.start_ps == 0);
  CHECK(first.end_ps == 2768);
  CHECK_FALSE(first.switched_detector);
  // Same channel, same destination, ready at once: waits for the light, no retuning.
  const auto second = arbiter.schedule(shape, 1, 0);
  CHECK(second.start_ps == 1067);
  CHECK(second.end_ps == 1067 + 2768);
  // Another destination: the demultiplexer retunes detectors (100 ps) before the bits.
  const auto third = arbiter.schedule(shape, 2, 0);
  CHECK(third.switched_detector);
  CHECK(third.start_ps == 2134);
  CHECK(third.timing.tuning_ps == 100);
  CHECK(third.end_ps == 2134 + 100 + 2768);
  CHECK(arbiter.free_at_ps(VirtualChannelId{0}) == 2134 + 100 + 1067);
  CHECK(arbiter.busy_ps(VirtualChannelId{0}) == 3 * 1067 + 100);
  CHECK(arbiter.detector_switches(VirtualChannelId{0}) == 1);
  // Another virtual channel is free.
  shape.vc = VirtualChannelId{3};
  CHECK(arbiter.schedule(shape, 7, 500).start_ps == 500);
  // A transfer ready later than the channel starts when ready; a half-coupling tuning wins over
  // the detector switch.
  shape.vc = VirtualChannelId{0};
  shape.tuning_ps = 500;
  const auto late = arbiter.schedule(shape, 1, 10'000);
  CHECK(late.start_ps == 10'000);
  CHECK(late.timing.tuning_ps == 500);
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
