#include "modules/optical/mrr_layout.h"

#include <algorithm>

namespace ohmvp {

bool carries(const MrrArraySpec& spec, const std::vector<OhmFunction>& functions) {
  return std::any_of(spec.used_by.begin(), spec.used_by.end(), [&](OhmFunction f) {
    return std::find(functions.begin(), functions.end(), f) != functions.end();
  });
}

uint32_t endpoint_count(const MrrLayoutShape& shape, EndpointKind kind) {
  switch (kind) {
    case EndpointKind::memory_controller:
      return shape.controllers;
    case EndpointKind::dram:
      return shape.controllers * shape.dram_per_channel;
    case EndpointKind::xpoint:
      return shape.controllers * shape.xpoint_per_channel;
  }
  return 0;
}

const char* to_string(EndpointKind kind) {
  switch (kind) {
    case EndpointKind::memory_controller:
      return "memory_controller";
    case EndpointKind::dram:
      return "dram";
    case EndpointKind::xpoint:
      return "xpoint";
  }
  return "?";
}

const std::vector<MrrArraySpec>& mrr_array_specs() {
  using E = EndpointKind;
  using F = OhmFunction;
  using P = OpticalPath;
  using C = MrrCoupling;
  static const std::vector<MrrArraySpec> specs = {
      {E::memory_controller,
       true,
       P::forward,
       C::full,
       {F::conventional},
       "controller transmitter"},
      {E::memory_controller,
       false,
       P::backward,
       C::full,
       {F::conventional, F::reverse_write},
       "controller receiver (also the DDR monitor's snarf in reverse write)"},
      {E::memory_controller,
       true,
       P::forward,
       C::half,
       {F::half_coupled_controller},
       "Ohm-BW half-coupled controller transmitter: a 0 keeps half the light"},
      {E::dram, true, P::backward, C::full, {F::conventional}, "DRAM transmitter"},
      {E::dram, false, P::forward, C::full, {F::conventional}, "DRAM receiver"},
      {E::dram,
       false,
       P::forward,
       C::half,
       {F::auto_rw},
       "DRAM half-coupled receiver: the controller's light goes on to the XPoint"},
      {E::dram,
       false,
       P::backward,
       C::half,
       {F::auto_rw, F::reverse_write},
       "DRAM half-coupled receiver on the backward path (OHM_FUNCTIONS.md: auto-read/write's on "
       "both paths of both devices; the XPoint's fill, snarfed on by the controller)"},
      {E::dram, true, P::backward, C::half, {F::swap}, "DRAM half-coupled transmitter for swap"},
      {E::dram, true, P::forward, C::full, {F::parallel_tx}, "DRAM extra transmitter"},
      {E::xpoint, true, P::backward, C::full, {F::conventional}, "XPoint transmitter"},
      {E::xpoint, false, P::forward, C::full, {F::conventional}, "XPoint receiver"},
      {E::xpoint,
       false,
       P::forward,
       C::half,
       {F::auto_rw, F::half_coupled_controller},
       "XPoint half-coupled receiver on the forward path (snarf; Ohm-BW's half-coupled detector)"},
      {E::xpoint,
       false,
       P::backward,
       C::half,
       {F::auto_rw},
       "XPoint half-coupled receiver on the backward path (snarf of DRAM read data)"},
      {E::xpoint,
       true,
       P::forward,
       C::half,
       {F::swap},
       "XPoint half-coupled transmitter for swap (WOM second generation, Ohm-BW's own stream)"},
  };
  return specs;
}

MrrLayoutShape MrrLayoutShape::paper_default(HeteroMode mode) {
  MrrLayoutShape shape;
  if (mode == HeteroMode::two_level) {
    shape.dram_per_channel = 1;
    shape.xpoint_per_channel = 3;
  }
  return shape;
}

std::pair<uint32_t, uint32_t> arrays_per_endpoint(EndpointKind kind,
                                                  const std::vector<OhmFunction>& functions) {
  uint32_t tx = 0;
  uint32_t rx = 0;
  for (const MrrArraySpec& spec : mrr_array_specs()) {
    if (spec.endpoint != kind || !carries(spec, functions)) continue;
    ++(spec.transmitter ? tx : rx);
  }
  return {tx, rx};
}

MrrCounts count_mrrs(const MrrLayoutShape& shape, const std::vector<OhmFunction>& functions) {
  MrrCounts counts;
  for (const MrrArraySpec& spec : mrr_array_specs()) {
    if (!carries(spec, functions)) continue;
    const uint64_t rings = uint64_t{endpoint_count(shape, spec.endpoint)} * shape.rings_per_array;
    (spec.transmitter ? counts.modulators : counts.detectors) += rings;
    (spec.path == OpticalPath::forward ? counts.forward_rings : counts.backward_rings) += rings;
    if (spec.coupling == MrrCoupling::half) counts.half_coupled += rings;
  }
  return counts;
}

MrrCounts count_four_pair_layout(const MrrLayoutShape& shape) {
  const uint64_t devices =
      uint64_t{shape.controllers} * (shape.dram_per_channel + shape.xpoint_per_channel);
  const uint64_t ring = shape.rings_per_array;
  MrrCounts counts;
  counts.modulators = (shape.controllers + 4 * devices) * ring;
  counts.detectors = (shape.controllers + 4 * devices) * ring;
  // Per device two transmitters and two receivers on each path; the controller's pair.
  counts.forward_rings = (shape.controllers + 4 * devices) * ring;
  counts.backward_rings = (shape.controllers + 4 * devices) * ring;
  counts.half_coupled = 4 * devices * ring;
  return counts;
}

double saving(const MrrCounts& specific, const MrrCounts& general) {
  return 1.0 - static_cast<double>(specific.total()) / static_cast<double>(general.total());
}

PublishedMrrCounts published_mrr_counts(OhmPlatform platform, HeteroMode mode) {
  const bool planar = mode == HeteroMode::planar;
  switch (platform) {
    case OhmPlatform::ohm_base:
      return planar ? PublishedMrrCounts{2112, 2112} : PublishedMrrCounts{2368, 2368};
    case OhmPlatform::ohm_bw:
      return planar ? PublishedMrrCounts{2176, 3136} : PublishedMrrCounts{2368, 4928};
    default:
      return {0, 0};  // Table 3 lists Ohm-base and Ohm-BW only
  }
}

double mrr_cost_usd(const MrrCounts& counts, double usd_per_ring) {
  return static_cast<double>(counts.total()) * usd_per_ring;
}

}  // namespace ohmvp
