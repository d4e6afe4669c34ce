#include "platforms/optical_summary.h"

#include "modules/optical/link_budget.h"
#include "modules/optical/optical_stats.h"

namespace ohmvp {

PlatformBudget platform_budget_of(const MemorySystemConfig& config) {
  MrrLayoutShape shape;
  shape.controllers = config.channels;
  shape.dram_per_channel = 1;
  shape.xpoint_per_channel = config.is_hetero() && !config.is_paged() ? 1 : 0;
  shape.rings_per_array = config.optical.lanes(VirtualChannelId{0});
  const HeteroMode mode =
      config.mode == MemoryMode::two_level ? HeteroMode::two_level : HeteroMode::planar;
  return platform_budget(config.ohm_platform, mode, config.optical, shape);
}

RunSummary::Optical summarise_optical(const MemorySystemConfig& config, StatsRegistry& stats) {
  const PlatformBudget budget = platform_budget_of(config);
  record_budget(stats, "memory.optical", budget);
  RunSummary::Optical o;
  o.laser_power_mw = budget.laser_mw;
  o.mrr_count = budget.mrrs.total();
  o.ber_max = budget.ber_max;
  return o;
}

}  // namespace ohmvp
