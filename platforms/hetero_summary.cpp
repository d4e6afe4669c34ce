#include "platforms/hetero_summary.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ohmvp {

namespace {

uint64_t counter(const StatsRegistry& stats, const std::string& group, const char* name) {
  const Counter* found = stats.find_counter(group, name);
  if (found == nullptr) throw std::logic_error("no counter " + group + "." + name);
  return found->value();
}

double scalar(const StatsRegistry& stats, const std::string& group, const char* name) {
  const Scalar* found = stats.find_scalar(group, name);
  if (found == nullptr) throw std::logic_error("no scalar " + group + "." + name);
  return found->value();
}

double ratio(double part, double whole) {
  return whole > 0 ? part / whole : 0.0;
}

}  // namespace

RunSummary::Hetero summarise_hetero(const MemorySystem& memory, const StatsRegistry& stats) {
  RunSummary::Hetero h;
  uint64_t regular_ps = 0;
  uint64_t migration_ps = 0;
  uint64_t dram_served = 0;
  uint64_t lookups = 0;
  for (const auto& manager : memory.managers()) {
    manager->finish_stats();
    const std::string group = manager->name();
    h.migration_bytes += counter(stats, group, "migration_bytes");
    regular_ps += counter(stats, group, "channel_regular_ps");
    migration_ps += counter(stats, group, "channel_migration_ps");
    if (manager->mode() == HeteroMode::planar) {
      h.migrations += counter(stats, group, "migrations");
      const uint64_t dram = counter(stats, group, "dram_requests");
      dram_served += dram;
      lookups += dram + counter(stats, group, "xpoint_requests");
    } else if (manager->mode() == HeteroMode::paged) {
      // Pages in (faults) and out (dirty evictions).
      h.migrations += counter(stats, group, "migrations") + counter(stats, group, "writebacks");
      const uint64_t hits = counter(stats, group, "page_hits");
      dram_served += hits;
      lookups += hits + counter(stats, group, "page_misses");
    } else {
      h.migrations += counter(stats, group, "fills") + counter(stats, group, "writebacks");
      const uint64_t hits = counter(stats, group, "dram_cache_hits");
      dram_served += hits;
      lookups += hits + counter(stats, group, "dram_cache_misses");
    }
  }
  h.migration_channel_share = ratio(double(migration_ps), double(regular_ps + migration_ps));
  h.dram_cache_hit_rate = ratio(double(dram_served), double(lookups));
  // Every channel's XPoint has the same number of lines, so the mean of the means is the mean.
  double wear_max = 0;
  double wear_mean_sum = 0;
  double utilisation_sum = 0;
  for (const auto& xpoint : memory.xpoints()) {
    xpoint->finish_stats();
    wear_max = std::max(wear_max, scalar(stats, xpoint->name(), "wear_max"));
    wear_mean_sum += scalar(stats, xpoint->name(), "wear_mean");
    utilisation_sum += scalar(stats, xpoint->name(), "media_utilisation");
  }
  if (!memory.xpoints().empty()) {
    const double xpoints = static_cast<double>(memory.xpoints().size());
    h.xpoint_wear_max_over_mean = ratio(wear_max, ratio(wear_mean_sum, xpoints));
    h.xpoint_media_utilisation = ratio(utilisation_sum, xpoints);
  }
  return h;
}

}  // namespace ohmvp
