#include "modules/optical/optical_stats.h"

namespace ohmvp {

void record_budget(StatsRegistry& stats, const std::string& group, const PlatformBudget& b) {
  stats.scalar(group, "laser_power_mw", "mW", "laser power per wavelength").set(b.laser_mw);
  stats.scalar(group, "laser_optical_mw", "mW", "laser power over every lit wavelength")
      .set(b.laser_optical_mw());
  stats.scalar(group, "laser_needed_mw", "mW", "laser per wavelength the worst route needs")
      .set(b.required_laser_mw);
  stats
      .scalar(group, "ber_max", "probability",
              "worst route's bit error rate at the configured laser")
      .set(b.ber_max);
  stats.scalar(group, "mrr_count", "rings", "MRRs of the layout (modulators + detectors)")
      .set(static_cast<double>(b.mrrs.total()));
  stats.scalar(group, "mrr_modulators", "rings", "transmitter MRRs")
      .set(static_cast<double>(b.mrrs.modulators));
  stats.scalar(group, "mrr_detectors", "rings", "receiver MRRs")
      .set(static_cast<double>(b.mrrs.detectors));
  stats.scalar(group, "mrr_cost_usd", "USD", "MRR fabrication cost").set(mrr_cost_usd(b.mrrs));
  stats
      .scalar(group, "mrr_general_count", "rings",
              "MRRs of the general layout (every function) on the same devices")
      .set(static_cast<double>(b.general_mrrs.total()));
  stats
      .scalar(group, "mrr_saving", "fraction",
              "share of the general layout's MRRs the platform's layout saves")
      .set(saving(b.mrrs, b.general_mrrs));
  for (size_t i = 0; i < b.routes.size(); ++i) {
    const RouteBudget& r = b.routes[i];
    stats
        .scalar(group, "ber_" + std::string(to_string(r.route.kind)) + "_" + std::to_string(i),
                "probability", "bit error rate at " + r.route.receiver)
        .set(r.ber);
  }
}

void record_energy(StatsRegistry& stats, const std::string& group, const EnergyBreakdown& e) {
  for (const auto& item : e.items())
    stats.scalar(group, "energy_" + item.first + "_j", "J", item.first + " energy")
        .set(item.second);
  stats.scalar(group, "energy_j", "J", "memory-system energy, every component").set(e.total_j());
}

}  // namespace ohmvp
