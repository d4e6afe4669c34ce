#pragma once

#include <cstdint>
#include <vector>

#include "modules/optical/optical_config.h"
#include "modules/optical/transfer_timing.h"

namespace ohmvp {

// When a transfer on a virtual channel runs. Ohm-GPU arbitrates inside a virtual channel with a
// photonic demultiplexer: it enables the detector of the device that is ready and disables the
// others, so transfers on one virtual channel are serialised and virtual channels never
// conflict. Switching the enabled detector to another endpoint retunes two arrays in parallel
// (one off, one on): the on/off tuning time, unless the transfer's own tuning is longer.
class VirtualChannelArbiter {
 public:
  explicit VirtualChannelArbiter(const OpticalChannelConfig& config);

  struct Grant {
    uint64_t start_ps = 0;  // the channel is the transfer's from here
    uint64_t end_ps = 0;    // the last bit is in the destination's SerDes
    TransferTiming timing;
    bool switched_detector = false;
  };

  // Books the transfer `shape` for `destination` (an endpoint id the caller chooses), ready at
  // `ready_ps`: it starts when both it and the channel are ready. Grants are in call order.
  Grant schedule(const TransferShape& shape, uint32_t destination, uint64_t ready_ps);

  uint64_t free_at_ps(VirtualChannelId vc) const { return m_channels.at(index_of(vc)).free_at_ps; }
  uint64_t busy_ps(VirtualChannelId vc) const { return m_channels.at(index_of(vc)).busy_ps; }
  uint64_t detector_switches(VirtualChannelId vc) const {
    return m_channels.at(index_of(vc)).switches;
  }

 private:
  struct Channel {
    uint64_t free_at_ps = 0;
    uint64_t busy_ps = 0;
    uint64_t switches = 0;
    bool has_destination = false;
    uint32_t destination = 0;
  };

  const OpticalChannelConfig& m_config;
  std::vector<Channel> m_channels;
};

}  // namespace ohmvp
