#pragma once

#include <cstdint>

#include "modules/optical/ohm_platform.h"

namespace ohmvp {

// How a platform lets a memory route share a virtual channel's light with the data route
// (OpticalChannel places the transfers accordingly).
enum class DualRouteMode : uint8_t {
  none,          // one route at a time (Ohm-base, Auto-rw: a snarf rides on the data route)
  wom,           // Ohm-WOM: the memory route overlays WOM second-generation words on the data
                 // route's first-generation ones; the data route loses a third meanwhile
  half_coupled,  // Ohm-BW: half-coupled transmitters; both routes at the full bandwidth
};

const char* to_string(DualRouteMode mode);

// The sharing each platform uses: swaps (planar) share the light by WOM coding on Ohm-WOM and by
// half-coupled transmitters on Ohm-BW. Reverse writes (two-level) do not share it: the
// controller stops issuing while its DDR monitor snarfs the fill (OHM_FUNCTIONS.md), so the
// memory route takes its turn. Ohm-base and Auto-rw have no memory route on the light.
DualRouteMode dual_route_mode(OhmPlatform platform, HeteroMode mode);

}  // namespace ohmvp
