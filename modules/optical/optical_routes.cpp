#include "modules/optical/optical_routes.h"

#include <algorithm>

namespace ohmvp {

namespace {

bool uses(OhmPlatform platform, HeteroMode mode, OhmFunction function) {
  const std::vector<OhmFunction> functions = functions_of(platform, mode);
  return std::find(functions.begin(), functions.end(), function) != functions.end();
}

// Laser, coupler, `modulators` modulators passed (insertion loss), the waveguide, and every
// other ring on the path except the `own_rings` the route uses.
OpticalRoute start_route(RouteKind kind, std::string receiver, OpticalPath path,
                         const OpticalChannelConfig& c, const MrrCounts& mrrs, int modulators,
                         int own_rings) {
  OpticalRoute route;
  route.kind = kind;
  route.receiver = std::move(receiver);
  route.path = path;
  const auto& l = c.loss;
  const uint64_t path_rings =
      path == OpticalPath::forward ? mrrs.forward_rings : mrrs.backward_rings;
  const double passed = std::max<double>(0.0, static_cast<double>(path_rings) - own_rings);
  route.loss.add(LossKind::coupler, 1, l.coupler_db);
  route.loss.add(LossKind::modulator_insertion, modulators, l.modulator_insertion_db);
  route.loss.add(LossKind::ring_through, passed, l.ring_through_db);
  route.loss.add(LossKind::waveguide, c.waveguide.length_cm, l.waveguide_db_per_cm);
  return route;
}

void end_at_detector(OpticalRoute& route, const OpticalChannelConfig& c) {
  route.loss.add(LossKind::filter_drop, 1, c.loss.filter_drop_db);
  route.loss.add(LossKind::detector, 1, c.loss.detector_db);
}

void pass_half_tap(OpticalRoute& route, const OpticalChannelConfig& c) {
  route.loss.add(LossKind::half_tap_through, 1, ratio_to_db(1.0 - c.loss.half_coupling_ratio));
  route.loss.add(LossKind::splitter_excess, 1, c.loss.splitter_db);
}

void drop_at_half_tap(OpticalRoute& route, const OpticalChannelConfig& c) {
  route.loss.add(LossKind::half_tap_drop, 1, ratio_to_db(c.loss.half_coupling_ratio));
  route.loss.add(LossKind::splitter_excess, 1, c.loss.splitter_db);
  end_at_detector(route, c);
}

void add_data_routes(std::vector<OpticalRoute>& routes, const OpticalChannelConfig& c,
                     const MrrCounts& mrrs) {
  for (OpticalPath path : {OpticalPath::forward, OpticalPath::backward}) {
    OpticalRoute route = start_route(
        RouteKind::data, path == OpticalPath::forward ? "farthest device" : "memory controller",
        path, c, mrrs, 1, 2);
    end_at_detector(route, c);
    route.levels = on_off_levels(c.receiver);
    routes.push_back(std::move(route));
  }
}

// A transmitter, a half-coupled receiver that takes its share, and the receiver after it.
void add_tapped_routes(std::vector<OpticalRoute>& routes, RouteKind kind, OpticalPath path,
                       const char* tap, const char* after, const OpticalChannelConfig& c,
                       const MrrCounts& mrrs) {
  OpticalRoute tapped = start_route(kind, tap, path, c, mrrs, 1, 2);
  drop_at_half_tap(tapped, c);
  tapped.levels = on_off_levels(c.receiver);
  routes.push_back(std::move(tapped));
  OpticalRoute onward = start_route(kind, after, path, c, mrrs, 1, 3);
  pass_half_tap(onward, c);
  end_at_detector(onward, c);
  onward.levels = on_off_levels(c.receiver);
  routes.push_back(std::move(onward));
}

// Ohm-WOM: the XPoint's half-coupled transmitter writes the second generation over the
// controller's first: a cell's light is full (first-generation 0), half (second-generation 0)
// or absorbed (a 1 cell); the DRAM reads bright (full or half) against absorbed.
void add_wom_swap_route(std::vector<OpticalRoute>& routes, const OpticalChannelConfig& c,
                        const MrrCounts& mrrs) {
  OpticalRoute route = start_route(RouteKind::swap_wom, "DRAM (WOM-coded memory route)",
                                   OpticalPath::forward, c, mrrs, 2, 3);
  route.loss.add(LossKind::splitter_excess, 1, c.loss.splitter_db);
  end_at_detector(route, c);
  const double half = 1.0 - c.loss.half_coupling_ratio;
  const double dark = extinction_share(c.receiver);
  route.levels = LightLevels{{1.0, half}, {dark, half * dark}};
  routes.push_back(std::move(route));
}

// Ohm-BW: the controller's half-coupled transmitter leaves 1 or (1 - r) of the light; the
// XPoint's half-coupled detector reads that from its share r; the XPoint modulates its own
// stream on the remainder by full or no coupling; the DRAM reads the XPoint's bit by strength.
// The DRAM's route uses four rings of the path: both transmitters, the tap and its receiver.
void add_bw_swap_routes(std::vector<OpticalRoute>& routes, const OpticalChannelConfig& c,
                        const MrrCounts& mrrs) {
  const double half = 1.0 - c.loss.half_coupling_ratio;
  const double dark = extinction_share(c.receiver);
  OpticalRoute xpoint = start_route(RouteKind::swap_bw, "XPoint (half-coupled detector)",
                                    OpticalPath::forward, c, mrrs, 1, 2);
  drop_at_half_tap(xpoint, c);
  xpoint.levels = LightLevels{{1.0}, {half}};
  routes.push_back(std::move(xpoint));
  OpticalRoute dram = start_route(RouteKind::swap_bw, "DRAM (XPoint's stream by light strength)",
                                  OpticalPath::forward, c, mrrs, 2, 4);
  pass_half_tap(dram, c);
  end_at_detector(dram, c);
  dram.levels = LightLevels{{1.0, half}, {dark, half * dark}};
  routes.push_back(std::move(dram));
}

}  // namespace

const char* to_string(RouteKind kind) {
  switch (kind) {
    case RouteKind::data:
      return "data";
    case RouteKind::snarf:
      return "snarf";
    case RouteKind::reverse_write:
      return "reverse_write";
    case RouteKind::swap_wom:
      return "swap_wom";
    case RouteKind::swap_bw:
      return "swap_bw";
  }
  return "?";
}

std::vector<OpticalRoute> routes_of(OhmPlatform platform, HeteroMode mode,
                                    const OpticalChannelConfig& c, const MrrCounts& mrrs) {
  std::vector<OpticalRoute> routes;
  add_data_routes(routes, c, mrrs);
  if (uses(platform, mode, OhmFunction::auto_rw)) {
    add_tapped_routes(routes, RouteKind::snarf, OpticalPath::forward, "DRAM (half-coupled)",
                      "XPoint (snarf of the controller's request)", c, mrrs);
    add_tapped_routes(routes, RouteKind::snarf, OpticalPath::backward,
                      "XPoint (half-coupled snarf of DRAM read data)", "memory controller", c,
                      mrrs);
  }
  if (uses(platform, mode, OhmFunction::reverse_write)) {
    add_tapped_routes(routes, RouteKind::reverse_write, OpticalPath::backward,
                      "DRAM (half-coupled, the fill)", "memory controller (DDR monitor)", c, mrrs);
  }
  if (uses(platform, mode, OhmFunction::swap)) {
    if (uses(platform, mode, OhmFunction::half_coupled_controller)) {
      add_bw_swap_routes(routes, c, mrrs);
    } else {
      add_wom_swap_route(routes, c, mrrs);
    }
  }
  return routes;
}

}  // namespace ohmvp
