#include "platforms/optical_summary.h"

#include <stdexcept>
#include <string>

#include "modules/optical/energy_model.h"
#include "modules/optical/link_budget.h"
#include "modules/optical/optical_stats.h"

namespace ohmvp {

namespace {

uint64_t counter(const StatsRegistry& stats, const std::string& group, const std::string& name) {
  const Counter* found = stats.find_counter(group, name);
  if (found == nullptr) throw std::logic_error("no counter " + group + "." + name);
  return found->value();
}

// What the run did, counted by the channels, the controllers and the XPoint controllers.
EnergyCounts run_counts(const MemorySystemConfig& config, const MemorySystem& memory,
                        const StatsRegistry& stats, const PlatformBudget& budget,
                        uint64_t run_time_ps) {
  EnergyCounts n;
  n.run_time_ps = run_time_ps;
  n.laser_optical_mw = budget.laser_optical_mw();
  n.laser_wall_plug_efficiency = config.optical.laser.wall_plug_efficiency;
  for (const auto& channel : memory.channels()) {
    // Every transfer is one controller <-> device crossing: one device SerDes.
    const uint64_t bits = counter(stats, channel->channel_name(), "light_bits");
    n.light_bits += bits;
    n.serdes_bits += bits;
  }
  for (uint32_t c = 0; c < config.channels; ++c) {
    const std::string mc = std::string(memory.name()) + ".mc" + std::to_string(c);
    n.dram_activates += counter(stats, mc, "cmd_ACT");
    n.dram_reads += counter(stats, mc, "cmd_RD") + counter(stats, mc, "cmd_RDA");
    n.dram_writes += counter(stats, mc, "cmd_WR") + counter(stats, mc, "cmd_WRA");
  }
  n.dram_devices = config.channels;
  const uint64_t line_bits = uint64_t{config.xpoint.line_bytes} * 8;
  for (const auto& xpoint : memory.xpoints()) {
    n.xpoint_read_bits += counter(stats, xpoint->name(), "media_reads") * line_bits;
    n.xpoint_write_bits += counter(stats, xpoint->name(), "media_writes") * line_bits;
  }
  return n;
}

HeteroMode budget_mode(const MemorySystemConfig& config) {
  return config.mode == MemoryMode::two_level ? HeteroMode::two_level : HeteroMode::planar;
}

}  // namespace

RunSummary::Optical summarise_optical(const MemorySystemConfig& config, const MemorySystem& memory,
                                      StatsRegistry& stats, uint64_t run_time_ps) {
  MrrLayoutShape shape;
  shape.controllers = config.channels;
  shape.dram_per_channel = 1;
  shape.xpoint_per_channel = config.is_hetero() && !config.is_paged() ? 1 : 0;
  shape.rings_per_array = config.optical.lanes(VirtualChannelId{0});
  const PlatformBudget budget =
      platform_budget(config.ohm_platform, budget_mode(config), config.optical, shape);
  const EnergyBreakdown energy =
      EnergyModel(config.energy).breakdown(run_counts(config, memory, stats, budget, run_time_ps));
  const std::string group = "memory.optical";
  record_budget(stats, group, budget);
  record_energy(stats, group, energy);
  RunSummary::Optical o;
  o.laser_power_mw = budget.laser_mw;
  o.mrr_count = budget.mrrs.total();
  o.ber_max = budget.ber_max;
  o.energy_j = energy.total_j();
  return o;
}

}  // namespace ohmvp
