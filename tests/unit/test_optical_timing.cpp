#include <catch2/catch.hpp>
#include <stdexcept>

#include "modules/common/stats.h"
#include "modules/memory/xpoint_end_buffer.h"
#include "modules/optical/mrr_state.h"
#include "modules/optical/register_buffer.h"
#include "modules/optical/transfer_timing.h"

using namespace ohmvp;

TEST_CASE("MRR tuning costs 100 ps on/off and 500 ps into or out of half-coupling", "[optical]") {
  const MrrTuningConfig t;
  CHECK(tuning_ps(t, MrrCoupling::full, MrrCoupling::full) == 0);
  CHECK(tuning_ps(t, MrrCoupling::off_resonance, MrrCoupling::full) == 100);
  CHECK(tuning_ps(t, MrrCoupling::full, MrrCoupling::off_resonance) == 100);
  CHECK(tuning_ps(t, MrrCoupling::full, MrrCoupling::half) == 500);
  CHECK(tuning_ps(t, MrrCoupling::half, MrrCoupling::off_resonance) == 500);
}

TEST_CASE("MRR array: retuning only when the state changes, in parallel", "[optical]") {
  const MrrTuningConfig t;
  MrrArray array(16);
  CHECK(array.state(3) == MrrCoupling::off_resonance);
  CHECK(array.retune_all(t, MrrCoupling::full) == 100);
  CHECK(array.retunings() == 16);
  CHECK(array.retune_all(t, MrrCoupling::full) == 0);
  CHECK(array.retunings() == 16);
  CHECK(array.retune(t, 5, MrrCoupling::half) == 500);
  // The slowest ring decides: ring 5 leaves half-coupling, the others stay.
  CHECK(array.retune_all(t, MrrCoupling::full) == 500);
  CHECK(array.retunings() == 18);
  CHECK(std::string(to_string(MrrCoupling::half)) == "half");
}

TEST_CASE("Transfer time: 64 bytes on a 16-wavelength virtual channel", "[optical]") {
  const OpticalChannelConfig c;
  TransferShape shape;
  shape.data_bits = 512;
  const TransferTiming t = transfer_timing(c, shape);
  CHECK(t.light_bits == 512);
  CHECK(t.beats == 32);
  CHECK(t.serialisation_ps == 1067);  // 32 x 33.33 ps
  CHECK(t.propagation_ps == 701);     // 5 cm x 4.2 / c = 700.48 ps
  CHECK(t.serdes_ps == 1000);
  CHECK(t.tuning_ps == 0);
  CHECK(t.total_ps() == 1067 + 701 + 1000);

  shape.tuning_ps = MrrTuningConfig{}.half_coupling_ps;
  shape.route_length_cm = 2.0;
  const TransferTiming tuned = transfer_timing(c, shape);
  CHECK(tuned.tuning_ps == 500);
  CHECK(tuned.propagation_ps == 281);  // 280.19 ps
  CHECK(tuned.total_ps() == 500 + 1067 + 281 + 1000);
}

TEST_CASE("Transfer time: WOM dual route at 2/3 of the bandwidth", "[optical]") {
  const OpticalChannelConfig c;
  TransferShape shape;
  shape.data_bits = 512;
  shape.coding = LightCoding::wom;
  const TransferTiming t = transfer_timing(c, shape);
  CHECK(t.light_bits == 768);
  CHECK(t.beats == 48);
  CHECK(t.serialisation_ps == 1600);
  CHECK(light_bits(c, 3, LightCoding::wom) == 6);  // an odd bit pads its symbol
}

TEST_CASE("Transfer time: coding overhead, waveguides, rate", "[optical]") {
  OpticalChannelConfig c;
  c.coding_overhead = 0.25;  // 8b/10b
  TransferShape shape;
  shape.data_bits = 512;
  CHECK(transfer_timing(c, shape).light_bits == 640);
  CHECK(transfer_timing(c, shape).serialisation_ps == 1334);  // 40 x 33.33
  c.coding_overhead = 0.0;
  c.waveguides = 8;
  CHECK(transfer_timing(c, shape).beats == 4);
  CHECK(transfer_timing(c, shape).serialisation_ps == 134);
  c.waveguides = 1;
  c.rate_gbps = 25.0;
  CHECK(transfer_timing(c, shape).serialisation_ps == 1280);  // 32 x 40 ps exactly
  shape.serdes_crossings = 2;
  CHECK(transfer_timing(c, shape).serdes_ps == 2000);
}

TEST_CASE("Register buffer: 16 KB with backpressure", "[optical]") {
  RegisterBuffer buffer(SerdesConfig{}.buffer_bytes);
  CHECK(buffer.capacity() == 16384);
  for (int i = 0; i < 256; ++i) REQUIRE(buffer.push(64));
  CHECK(buffer.free_bytes() == 0);
  CHECK_FALSE(buffer.can_accept(64));
  CHECK_FALSE(buffer.push(64));
  CHECK(buffer.backpressure_events() == 1);
  buffer.pop(64);
  CHECK(buffer.push(64));
  CHECK_THROWS_AS(RegisterBuffer(64).pop(1), std::logic_error);
}

TEST_CASE("the XPoint end's register buffer: reserved room, waits told once, its peak",
          "[optical]") {
  StatsRegistry stats;
  XPointEndBuffer buffer(256, stats, "end");
  CHECK(buffer.reserve(128));
  CHECK(buffer.reserve(128));
  CHECK_FALSE(buffer.reserve(64));  // full: the sender waits and says so
  buffer.held();
  buffer.release(128);
  CHECK(buffer.reserve(64));
  CHECK(stats.find_counter("end", "register_buffer_waits")->value() == 1);
  CHECK(stats.find_scalar("end", "register_buffer_peak_bytes")->value() == 256);
  buffer.release(192);
  CHECK_THROWS_AS(buffer.release(1), std::logic_error);
}
