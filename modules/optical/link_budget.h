#pragma once

#include <vector>

#include "modules/optical/mrr_layout.h"
#include "modules/optical/optical_routes.h"

namespace ohmvp {

struct RouteBudget {
  OpticalRoute route;
  double received_mw = 0.0;        // full light at the receiver with the configured laser
  double q = 0.0;                  // at the configured laser
  double ber = 0.0;                // at the configured laser
  double required_laser_mw = 0.0;  // laser per wavelength for the target BER on this route
};

// The power and reliability picture of one platform: each route's loss, Q and BER at the
// configured laser (config.laser.optical_mw()), and the laser the farthest receiver needs.
struct PlatformBudget {
  OhmPlatform platform = OhmPlatform::ohm_base;
  HeteroMode mode = HeteroMode::planar;
  MrrCounts mrrs;
  MrrCounts general_mrrs;  // the same devices in the layout that supports every function
  std::vector<RouteBudget> routes;
  double laser_mw = 0.0;           // per wavelength, configured
  double required_laser_mw = 0.0;  // per wavelength: max over the routes
  double ber_max = 0.0;            // worst route at the configured laser
  uint32_t wavelengths = 0;        // lit wavelengths, every waveguide

  double laser_optical_mw() const { return laser_mw * wavelengths; }
  const RouteBudget& worst_route() const;
};

// The rings of a layout supporting `functions` on the channel: one controller per virtual
// channel with `shape`'s devices, each array as wide as its virtual channel's wavelengths on
// every waveguide (virtual channels of unequal width count each at its own width).
MrrCounts count_channel_mrrs(const OpticalChannelConfig& config, MrrLayoutShape shape,
                             const std::vector<OhmFunction>& functions);

// P_laser[dBm] >= required received power[dBm] + path loss[dB] for every route of the platform;
// BER = 0.5 erfc(Q / sqrt(2)) per route. The layout is the platform's mode-specific one,
// count_channel_mrrs on `shape`'s devices per channel.
PlatformBudget platform_budget(OhmPlatform platform, HeteroMode mode,
                               const OpticalChannelConfig& config, MrrLayoutShape shape);

// The white-noise density (pA/sqrt(Hz)) at which the configured laser would give `ber` on the
// platform's worst route: what a published BER implies about the receiver (for comparison only).
double implied_noise_pa_per_sqrt_hz(const PlatformBudget& budget,
                                    const OpticalChannelConfig& config, double ber);

}  // namespace ohmvp
