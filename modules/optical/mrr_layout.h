#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "modules/optical/mrr_state.h"
#include "modules/optical/ohm_platform.h"

namespace ohmvp {

enum class EndpointKind : uint8_t { memory_controller, dram, xpoint };
// Forward: light the controller modulates for the devices; backward: light the devices modulate
// for the controller (the two directions of a virtual channel's waveguide path).
enum class OpticalPath : uint8_t { forward, backward };

const char* to_string(EndpointKind kind);

// One MRR array an endpoint may carry: one ring per wavelength of its virtual channel on each
// waveguide. `used_by` lists the functions that need it; a layout carries the array when it
// supports any of them (an array serves every function that lists it).
struct MrrArraySpec {
  EndpointKind endpoint;
  bool transmitter;
  OpticalPath path;
  MrrCoupling coupling;  // the state it is built for: full or half
  std::vector<OhmFunction> used_by;
  const char* role;
};

// The arrays OHM_FUNCTIONS.md ("MRR layout") derives from the functions: in the general layout a
// DRAM has three transmitters and three receivers, an XPoint two and three.
const std::vector<MrrArraySpec>& mrr_array_specs();

// Endpoints per virtual channel. The paper configures "up to 24 memory devices" with DRAM and
// XPoint chips in the mode's capacity ratio but does not list them: the defaults (2 + 2 per
// channel planar, 1 + 3 two-level, 24 devices either way) are modelling choices.
struct MrrLayoutShape {
  uint32_t controllers = 6;  // one per virtual channel
  uint32_t dram_per_channel = 2;
  uint32_t xpoint_per_channel = 2;
  uint32_t rings_per_array = 16;  // the virtual channel's wavelengths x waveguides

  static MrrLayoutShape paper_default(HeteroMode mode);
};

struct MrrCounts {
  uint64_t modulators = 0;      // transmitter rings
  uint64_t detectors = 0;       // receiver rings
  uint64_t forward_rings = 0;   // rings on the forward path (all virtual channels)
  uint64_t backward_rings = 0;  // rings on the backward path
  uint64_t half_coupled = 0;    // rings built for half-coupling

  uint64_t total() const { return modulators + detectors; }
};

// Endpoints of `kind` in the whole channel.
uint32_t endpoint_count(const MrrLayoutShape& shape, EndpointKind kind);
// Whether a layout supporting `functions` carries the array `spec`.
bool carries(const MrrArraySpec& spec, const std::vector<OhmFunction>& functions);

// The rings a layout supporting `functions` needs.
MrrCounts count_mrrs(const MrrLayoutShape& shape, const std::vector<OhmFunction>& functions);
// Arrays (not rings) one endpoint of `kind` carries for `functions`: {transmitters, receivers}.
std::pair<uint32_t, uint32_t> arrays_per_endpoint(EndpointKind kind,
                                                  const std::vector<OhmFunction>& functions);

// The paper's first, unoptimised array (Section IV, "Optical channel optimization"): four pairs
// per memory device, a fully coupled and a half-coupled transmitter/receiver pair on each path;
// the controllers keep their conventional pair.
MrrCounts count_four_pair_layout(const MrrLayoutShape& shape);

// Share of the general layout's rings a mode-specific layout saves (0.58 = 58%).
double saving(const MrrCounts& specific, const MrrCounts& general);

// Ohm-GPU Table 3, for comparison.
struct PublishedMrrCounts {
  uint64_t modulators;
  uint64_t detectors;
};
PublishedMrrCounts published_mrr_counts(OhmPlatform platform, HeteroMode mode);

// MRR fabrication cost. The paper prices MRRs from [22] without the figure; it says Ohm-BW's 41%
// more MRRs than Ohm-base cost $4, and Table 3 puts that difference at 3,648 rings over both
// modes: about $0.0011 per ring, the default here (derived from the paper, not given by it).
constexpr double k_mrr_cost_usd = 4.0 / 3648.0;
double mrr_cost_usd(const MrrCounts& counts, double usd_per_ring = k_mrr_cost_usd);

}  // namespace ohmvp
