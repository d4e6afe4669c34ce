#pragma once

#include <string>

#include "modules/common/stats.h"
#include "modules/optical/energy_model.h"
#include "modules/optical/link_budget.h"

namespace ohmvp {

// Writes a platform's power/reliability picture into `stats` under `group`: laser_power_mw (per
// wavelength, configured), laser_optical_mw (every lit wavelength), laser_needed_mw (per
// wavelength, worst route), ber_max, mrr_count (modulators + detectors), mrr_modulators,
// mrr_detectors, mrr_cost_usd, and ber_<route>_<n> for each route in order.
void record_budget(StatsRegistry& stats, const std::string& group, const PlatformBudget& budget);

// Writes energy_<component>_j for each component and energy_j (the total) under `group`.
void record_energy(StatsRegistry& stats, const std::string& group, const EnergyBreakdown& energy);

}  // namespace ohmvp
