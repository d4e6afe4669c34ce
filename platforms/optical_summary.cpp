#include "platforms/optical_summary.h"

#include <sstream>

#include "modules/optical/link_budget.h"
#include "modules/optical/optical_stats.h"

namespace ohmvp {

PlatformBudget platform_budget_of(const MemorySystemConfig& config) {
  MrrLayoutShape shape;
  shape.controllers = config.channels;
  shape.dram_per_channel = 1;
  shape.xpoint_per_channel = config.is_hetero() && !config.is_paged() ? 1 : 0;
  shape.rings_per_array = config.optical.lanes(VirtualChannelId{0});
  return platform_budget(config.ohm_platform, config.optical_mode(), config.optical, shape);
}

std::string laser_budget_warning(const MemorySystemConfig& config) {
  const PlatformBudget budget = platform_budget_of(config);
  const double target = config.optical.receiver.target_ber;
  if (!(budget.ber_max > target)) return "";
  std::ostringstream text;
  text << "the optical links' worst BER is " << budget.ber_max << ", above the target " << target
       << " (memory.optical.receiver.target_ber): the laser is below the loss budget; bits "
       << "still arrive intact unless memory.optical.fault_injection.ber forces errors";
  return text.str();
}

std::string link_errors_text(const MemorySystemConfig& config,
                             const std::vector<const MemorySystem*>& memories,
                             const StatsRegistry& stats) {
  if (!config.is_optical() || config.optical.fault_injection.ber == 0.0) return "";
  uint64_t uncorrectable = 0;
  for (const MemorySystem* memory : memories)
    for (const auto& channel : memory->channels())
      if (const Counter* chunks = stats.find_counter(channel->channel_name(), "ecc_uncorrectable"))
        uncorrectable += chunks->value();
  if (uncorrectable == 0) return "";
  std::ostringstream text;
  text << "fault injection (memory.optical.fault_injection.ber "
       << config.optical.fault_injection.ber << ") left " << uncorrectable << " chunk"
       << (uncorrectable == 1 ? "" : "s")
       << " (of up to 64 bytes) with errors the link's SEC-DED could not correct; "
       << "they reached their receivers as they arrived";
  return text.str();
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
