#include "modules/optical/virtual_channel_arbiter.h"

#include <algorithm>

namespace ohmvp {

VirtualChannelArbiter::VirtualChannelArbiter(const OpticalChannelConfig& config)
    : m_config(config), m_channels(config.virtual_channels) {}

VirtualChannelArbiter::Grant VirtualChannelArbiter::schedule(const TransferShape& shape,
                                                             uint32_t destination,
                                                             uint64_t ready_ps) {
  Channel& channel = m_channels.at(index_of(shape.vc));
  Grant grant;
  grant.switched_detector = channel.has_destination && channel.destination != destination;
  TransferShape tuned = shape;
  if (grant.switched_detector) {
    tuned.tuning_ps = std::max(tuned.tuning_ps, m_config.mrr.on_off_ps);
    ++channel.switches;
  }
  grant.timing = transfer_timing(m_config, tuned);
  grant.start_ps = std::max(ready_ps, channel.free_at_ps);
  grant.end_ps = grant.start_ps + grant.timing.total_ps();
  // The light is the next transfer's once the last bit has left: tuning + serialisation. Flight
  // and SerDes overlap the next transfer.
  const uint64_t occupied = grant.timing.tuning_ps + grant.timing.serialisation_ps;
  channel.free_at_ps = grant.start_ps + occupied;
  channel.busy_ps += occupied;
  channel.has_destination = true;
  channel.destination = destination;
  return grant;
}

}  // namespace ohmvp
