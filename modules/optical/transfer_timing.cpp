#include "modules/optical/transfer_timing.h"

#include <cmath>

#include "modules/optical/wom_code.h"

namespace ohmvp {

namespace {

constexpr double k_light_cm_per_ps = 0.0299792458;

uint64_t ceil_whole(double exact) {
  const double nearest = std::round(exact);
  if (std::abs(exact - nearest) <= 1e-6) return static_cast<uint64_t>(nearest);
  return static_cast<uint64_t>(std::ceil(exact));
}

}  // namespace

const char* to_string(OpticalRoutePurpose route) {
  return route == OpticalRoutePurpose::data_route ? "data_route" : "memory_route";
}

uint64_t light_bits(const OpticalChannelConfig& config, uint64_t data_bits, LightCoding coding) {
  uint64_t bits = data_bits;
  if (coding == LightCoding::wom) {
    const uint64_t symbols =
        (data_bits + wom::data_bits_per_symbol - 1) / wom::data_bits_per_symbol;
    bits = symbols * wom::cells_per_symbol;
  }
  return ceil_whole(static_cast<double>(bits) * (1.0 + config.coding_overhead));
}

uint64_t beats_ps(const OpticalChannelConfig& config, uint64_t beats) {
  return ceil_whole(static_cast<double>(beats) * 1000.0 / config.rate_gbps);
}

uint64_t propagation_ps(const WaveguideConfig& waveguide, double length_cm) {
  return ceil_whole(length_cm * waveguide.group_index / k_light_cm_per_ps);
}

TransferTiming transfer_timing(const OpticalChannelConfig& config, const TransferShape& shape) {
  TransferTiming t;
  t.light_bits = light_bits(config, shape.data_bits, shape.coding);
  const uint64_t lanes = config.lanes(shape.vc);
  t.beats = (t.light_bits + lanes - 1) / lanes;
  t.tuning_ps = shape.tuning_ps;
  t.serialisation_ps = beats_ps(config, t.beats);
  const double length =
      shape.route_length_cm < 0 ? config.waveguide.length_cm : shape.route_length_cm;
  t.propagation_ps = propagation_ps(config.waveguide, length);
  t.serdes_ps = static_cast<uint64_t>(shape.serdes_crossings) * config.serdes.latency_ps;
  return t;
}

}  // namespace ohmvp
