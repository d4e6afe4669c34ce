#include "modules/optical/dual_route_mode.h"

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

}  // namespace ohmvp
