#include "modules/optical/virtual_channel_arbiter.h"

#include <algorithm>

namespace ohmvp {

const char* to_string(DualRouteMode mode) {
  switch (mode) {
    case DualRouteMode::none:
      return "none";
    case DualRouteMode::wom:
      return "wom";
    case DualRouteMode::half_coupled:
      return "half_coupled";
  }
  return "?";
}

DualRouteMode dual_route_mode(OhmPlatform platform, HeteroMode mode) {
  if (mode != HeteroMode::planar) return DualRouteMode::none;
  if (platform == OhmPlatform::ohm_wom) return DualRouteMode::wom;
  if (platform == OhmPlatform::ohm_bw) return DualRouteMode::half_coupled;
  return DualRouteMode::none;
}

VirtualChannelArbiter::VirtualChannelArbiter(const OpticalChannelConfig& config, DualRouteMode mode)
    : m_config(config), m_mode(mode), m_channels(config.virtual_channels) {}

uint64_t VirtualChannelArbiter::free_at_ps(VirtualChannelId vc, OpticalRoutePurpose route) const {
  const Channel& c = channel(vc);
  return route == OpticalRoutePurpose::data_route ? c.data.free_at_ps : c.memory.free_at_ps;
}

uint64_t VirtualChannelArbiter::busy_ps(VirtualChannelId vc, OpticalRoutePurpose route) const {
  const Channel& c = channel(vc);
  return route == OpticalRoutePurpose::data_route ? c.data.busy_ps : c.memory.busy_ps;
}

uint64_t VirtualChannelArbiter::earliest_start(const Channel& c, OpticalRoutePurpose route,
                                               uint64_t ready_ps) const {
  const bool data = route == OpticalRoutePurpose::data_route;
  const Route& own = data ? c.data : c.memory;
  uint64_t start = std::max(ready_ps, own.free_at_ps);
  if (m_mode == DualRouteMode::none) {
    start = std::max(start, data ? c.memory.free_at_ps : c.data.free_at_ps);
  } else if (m_mode == DualRouteMode::wom && !data) {
    start = std::max(start, c.uncoded_data_until_ps);
  }
  return start;
}

VirtualChannelArbiter::Grant VirtualChannelArbiter::schedule(const TransferShape& shape,
                                                             OpticalRoutePurpose route,
                                                             uint32_t destination,
                                                             uint64_t ready_ps) {
  Channel& c = m_channels.at(index_of(shape.vc));
  const bool data = route == OpticalRoutePurpose::data_route;
  Route& own = data ? c.data : c.memory;
  Grant grant;
  grant.start_ps = earliest_start(c, route, ready_ps);

  TransferShape tuned = shape;
  if (m_mode == DualRouteMode::wom)
    tuned.coding =
        (!data || grant.start_ps < c.memory.free_at_ps) ? LightCoding::wom : shape.coding;
  grant.coding = tuned.coding;
  grant.switched_detector = own.has_destination && own.destination != destination;
  if (grant.switched_detector) {
    tuned.tuning_ps = std::max(tuned.tuning_ps, m_config.mrr.on_off_ps);
    ++c.switches;
  }
  grant.timing = transfer_timing(m_config, tuned);
  grant.end_ps = grant.start_ps + grant.timing.total_ps();

  // The light is the route's next transfer's once the last bit has left: tuning +
  // serialisation. Flight and SerDes overlap the next transfer.
  const uint64_t occupied = grant.timing.tuning_ps + grant.timing.serialisation_ps;
  own.free_at_ps = grant.start_ps + occupied;
  own.busy_ps += occupied;
  own.has_destination = true;
  own.destination = destination;
  if (grant.coding == LightCoding::wom) {
    c.wom_busy_ps += occupied;
  } else if (data) {
    c.uncoded_data_until_ps = own.free_at_ps;
  }
  return grant;
}

}  // namespace ohmvp
