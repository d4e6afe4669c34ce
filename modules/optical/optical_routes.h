#pragma once

#include <string>
#include <vector>

#include "modules/optical/loss_budget.h"
#include "modules/optical/mrr_layout.h"
#include "modules/optical/optical_config.h"
#include "modules/optical/receiver_model.h"

namespace ohmvp {

enum class RouteKind : uint8_t {
  data,           // controller <-> device, one modulator and one detector
  snarf,          // auto-read/write: a half-coupled receiver on the way takes part of the light
  reverse_write,  // XPoint -> DRAM (half-coupled) -> the controller's DDR monitor
  swap_wom,       // controller's first-generation code with the XPoint's second generation on it
  swap_bw,        // Ohm-BW: half-coupled controller transmitter, XPoint stream on the rest
};

const char* to_string(RouteKind kind);

// The light of one wavelength from the laser to one receiver: what it loses on the way and the
// levels the receiver must tell apart (as shares of what reaches it).
struct OpticalRoute {
  RouteKind kind = RouteKind::data;
  std::string receiver;  // who reads the light at the end of the route
  OpticalPath path = OpticalPath::forward;
  LossBudget loss;
  LightLevels levels;
};

// The farthest receiver of each route the platform uses in `mode`, on a channel whose rings are
// `mrrs` (count_mrrs of the platform's layout). Every route passes the whole waveguide and
// every ring on its path (through loss) except the ones it modulates, taps or detects with.
std::vector<OpticalRoute> routes_of(OhmPlatform platform, HeteroMode mode,
                                    const OpticalChannelConfig& config, const MrrCounts& mrrs);

}  // namespace ohmvp
