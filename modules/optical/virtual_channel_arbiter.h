#pragma once

#include <cstdint>
#include <vector>

#include "modules/optical/ohm_platform.h"
#include "modules/optical/optical_config.h"
#include "modules/optical/transfer_timing.h"

namespace ohmvp {

// How a platform lets a memory route share a virtual channel's light with the data route.
enum class DualRouteMode : uint8_t {
  none,          // one route at a time (Ohm-base, Auto-rw: a snarf rides on the data route)
  wom,           // Ohm-WOM: the memory route overlays WOM second-generation words on the data
                 // route's first-generation ones; both run at 2/3 of the bandwidth meanwhile
  half_coupled,  // Ohm-BW: half-coupled transmitters; both routes at the full bandwidth
};

const char* to_string(DualRouteMode mode);

// The sharing each platform uses: swaps (planar) share the light by WOM coding on Ohm-WOM and by
// half-coupled transmitters on Ohm-BW. Reverse writes (two-level) do not share it: the
// controller stops issuing while its DDR monitor snarfs the fill (OHM_FUNCTIONS.md), so the
// memory route takes its turn. Ohm-base and Auto-rw have no memory route on the light.
DualRouteMode dual_route_mode(OhmPlatform platform, HeteroMode mode);

// When a transfer on a virtual channel runs. Ohm-GPU arbitrates inside a virtual channel with a
// photonic demultiplexer: it enables the detector of the device that is ready and disables the
// others, so transfers on one route of a virtual channel are serialised and virtual channels
// never conflict. Switching a route's enabled detector to another endpoint retunes two arrays in
// parallel (one off, one on): the on/off tuning time, unless the transfer's own tuning is longer.
//
// Dual routes: with `none` the memory route and the data route take turns on the light. With
// `half_coupled` they run side by side at full rate. With `wom` they run side by side, each
// WOM-coded: a memory-route transfer waits for the data route's current uncoded transfer to
// leave the light (the overlay needs first-generation words under it), and a data-route
// transfer that starts while the memory route is busy is coded whole (3 cells per 2 bits).
class VirtualChannelArbiter {
 public:
  VirtualChannelArbiter(const OpticalChannelConfig& config, DualRouteMode mode);

  struct Grant {
    uint64_t start_ps = 0;  // the route is the transfer's from here
    uint64_t end_ps = 0;    // the last bit is in the destination's SerDes
    TransferTiming timing;
    LightCoding coding = LightCoding::nrz;  // as the arbiter decided (WOM while shared)
    bool switched_detector = false;
  };

  // Books the transfer `shape` on `route` for `destination` (an endpoint id the caller
  // chooses), ready at `ready_ps`: it starts when both it and its route are ready. The shape's
  // coding is overridden when the route is WOM-shared. Grants are in call order.
  Grant schedule(const TransferShape& shape, OpticalRoutePurpose route, uint32_t destination,
                 uint64_t ready_ps);

  // Until when the route holds the light (tuning + serialisation of its last transfer).
  uint64_t free_at_ps(VirtualChannelId vc, OpticalRoutePurpose route) const;
  // Light time taken by a route's transfers, and the part of it WOM-coded.
  uint64_t busy_ps(VirtualChannelId vc, OpticalRoutePurpose route) const;
  uint64_t wom_busy_ps(VirtualChannelId vc) const { return channel(vc).wom_busy_ps; }
  uint64_t detector_switches(VirtualChannelId vc) const { return channel(vc).switches; }
  DualRouteMode mode() const { return m_mode; }

 private:
  struct Route {
    uint64_t free_at_ps = 0;
    uint64_t busy_ps = 0;
    bool has_destination = false;
    uint32_t destination = 0;
  };
  struct Channel {
    Route data;
    Route memory;
    // End of the data route's last uncoded transfer on the light (a WOM overlay waits for it).
    uint64_t uncoded_data_until_ps = 0;
    uint64_t wom_busy_ps = 0;
    uint64_t switches = 0;
  };

  const Channel& channel(VirtualChannelId vc) const { return m_channels.at(index_of(vc)); }
  uint64_t earliest_start(const Channel& c, OpticalRoutePurpose route, uint64_t ready_ps) const;

  const OpticalChannelConfig& m_config;
  DualRouteMode m_mode;
  std::vector<Channel> m_channels;
};

}  // namespace ohmvp
