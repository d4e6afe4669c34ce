#pragma once

#include <cstdint>

#include "modules/optical/optical_config.h"

namespace ohmvp {

// How a transfer's bits are put on the light.
enum class LightCoding : uint8_t {
  nrz,  // one data bit per light bit (plus the channel's coding overhead)
  wom,  // the route is shared by WOM coding: 3 light cells per 2 data bits (2/3 bandwidth)
};

// Data route: a memory controller and a device. Memory route: two devices (swap, reverse write),
// on the same wavelengths through half-coupled MRRs.
enum class OpticalRoutePurpose : uint8_t { data_route, memory_route };

const char* to_string(OpticalRoutePurpose route);

// What decides one transfer's time on a virtual channel.
struct TransferShape {
  uint64_t data_bits = 512;  // the payload's bits (64 bytes by default)
  VirtualChannelId vc{0};
  LightCoding coding = LightCoding::nrz;
  // Retuning the MRRs on the way needs before the first bit (MrrArray::retune*): 0 when every
  // MRR is already in the state the transfer needs.
  uint32_t tuning_ps = 0;
  // Distance the light travels from the transmitter to the receiver. Negative: the whole
  // waveguide (the farthest receiver).
  double route_length_cm = -1.0;
  // Whether the transfer crosses a device SerDes (every controller <-> device or device <-> device
  // transfer does; 1 by default).
  uint32_t serdes_crossings = 1;
};

struct TransferTiming {
  uint64_t light_bits = 0;  // bits on the light after WOM coding and line-code overhead
  uint64_t beats = 0;       // bit periods on the virtual channel's lanes
  uint64_t tuning_ps = 0;
  uint64_t serialisation_ps = 0;
  uint64_t propagation_ps = 0;
  uint64_t serdes_ps = 0;

  uint64_t total_ps() const { return tuning_ps + serialisation_ps + propagation_ps + serdes_ps; }
};

// Light bits for `data_bits`: WOM coding 3 per 2 (odd bit counts padded to a whole symbol), then
// the line-code overhead, rounded up.
uint64_t light_bits(const OpticalChannelConfig& config, uint64_t data_bits, LightCoding coding);

// Picoseconds for `beats` bit periods at the per-wavelength rate, rounded up to a whole ps (a
// value within 1e-6 ps of a whole number is taken as that number).
uint64_t beats_ps(const OpticalChannelConfig& config, uint64_t beats);

// Time of flight over `length_cm` of waveguide at c / group_index, rounded up to a whole ps.
uint64_t propagation_ps(const WaveguideConfig& waveguide, double length_cm);

// tuning + serialisation over the virtual channel's lanes + propagation + SerDes. Pure: the
// same shape always gives the same time.
TransferTiming transfer_timing(const OpticalChannelConfig& config, const TransferShape& shape);

}  // namespace ohmvp
