#include "modules/optical/link_budget.h"

#include <algorithm>

namespace ohmvp {

namespace {

RouteBudget evaluate(const OpticalRoute& route, const OpticalChannelConfig& c, double laser_mw) {
  RouteBudget b;
  b.route = route;
  const double loss = route.loss.total_db();
  b.received_mw = dbm_to_mw(mw_to_dbm(laser_mw) - loss);
  b.q = q_factor(c.receiver, c.rate_gbps, b.received_mw, route.levels);
  b.ber = ber_from_q(b.q);
  b.required_laser_mw =
      dbm_to_mw(mw_to_dbm(required_power_mw(c.receiver, c.rate_gbps, route.levels)) + loss);
  return b;
}

}  // namespace

const RouteBudget& PlatformBudget::worst_route() const {
  return *std::max_element(routes.begin(), routes.end(),
                           [](const RouteBudget& a, const RouteBudget& b) {
                             return a.required_laser_mw < b.required_laser_mw;
                           });
}

MrrCounts count_channel_mrrs(const OpticalChannelConfig& c, MrrLayoutShape shape,
                             const std::vector<OhmFunction>& functions) {
  shape.controllers = 1;
  MrrCounts total;
  for (uint32_t vc = 0; vc < c.virtual_channels; ++vc) {
    shape.rings_per_array = c.lanes(VirtualChannelId{vc});
    const MrrCounts one = count_mrrs(shape, functions);
    total.modulators += one.modulators;
    total.detectors += one.detectors;
    total.forward_rings += one.forward_rings;
    total.backward_rings += one.backward_rings;
    total.half_coupled += one.half_coupled;
  }
  return total;
}

PlatformBudget platform_budget(OhmPlatform platform, HeteroMode mode, const OpticalChannelConfig& c,
                               MrrLayoutShape shape) {
  PlatformBudget budget;
  budget.platform = platform;
  budget.mode = mode;
  budget.mrrs = count_channel_mrrs(c, shape, functions_of(platform, mode));
  budget.general_mrrs = count_channel_mrrs(c, shape, all_functions());
  // A wavelength passes the rings on its own waveguide only: the layout's rings spread evenly.
  MrrCounts per_waveguide = budget.mrrs;
  per_waveguide.forward_rings /= c.waveguides;
  per_waveguide.backward_rings /= c.waveguides;
  budget.laser_mw = c.laser.optical_mw();
  budget.wavelengths = c.lit_wavelengths();
  for (const OpticalRoute& route : routes_of(platform, mode, c, per_waveguide)) {
    RouteBudget b = evaluate(route, c, budget.laser_mw);
    budget.required_laser_mw = std::max(budget.required_laser_mw, b.required_laser_mw);
    budget.ber_max = std::max(budget.ber_max, b.ber);
    budget.routes.push_back(std::move(b));
  }
  return budget;
}

double implied_noise_pa_per_sqrt_hz(const PlatformBudget& budget,
                                    const OpticalChannelConfig& config, double ber) {
  const RouteBudget& worst = budget.worst_route();
  const double q = q_for_ber(ber);
  ReceiverConfig receiver = config.receiver;
  double low = 1e-3;
  double high = 1e5;
  for (int i = 0; i < 200; ++i) {
    receiver.noise_pa_per_sqrt_hz = 0.5 * (low + high);
    const double at = q_factor(receiver, config.rate_gbps, worst.received_mw, worst.route.levels);
    (at > q ? low : high) = receiver.noise_pa_per_sqrt_hz;
  }
  return low;
}

}  // namespace ohmvp
