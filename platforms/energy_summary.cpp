#include "platforms/energy_summary.h"

#include <stdexcept>
#include <string>

#include "modules/optical/energy_model.h"
#include "modules/optical/optical_stats.h"
#include "platforms/optical_summary.h"

namespace ohmvp {

namespace {

uint64_t counter(const StatsRegistry& stats, const std::string& group, const std::string& name) {
  const Counter* found = stats.find_counter(group, name);
  if (found == nullptr) throw std::logic_error("no counter " + group + "." + name);
  return found->value();
}

// What the run did, counted by the channels, the controllers and the XPoint controllers.
EnergyCounts run_counts(const MemorySystemConfig& config, const MemorySystem& memory,
                        const StatsRegistry& stats, uint64_t run_time_ps) {
  EnergyCounts n;
  n.run_time_ps = run_time_ps;
  if (config.is_optical()) {
    n.laser_optical_mw = platform_budget_of(config).laser_optical_mw();
    n.laser_wall_plug_efficiency = config.optical.laser.wall_plug_efficiency;
  }
  for (const auto& channel : memory.channels()) {
    if (config.is_optical()) {
      // Every transfer is one crossing between two devices: one device SerDes.
      const uint64_t bits = counter(stats, channel->channel_name(), "light_bits");
      n.light_bits += bits;
      n.serdes_bits += bits;
    } else {
      n.electrical_bits += counter(stats, channel->channel_name(), "data_bytes") * 8;
    }
  }
  // REF occupies a rank for tRFC, rounded up to whole clocks as the controller times it.
  const DramTiming timing = config.timing_cycles();
  const uint64_t refresh_ps = timing.ps(timing.RFC);
  for (uint32_t c = 0; c < config.channels; ++c) {
    const std::string mc = std::string(memory.name()) + ".mc" + std::to_string(c);
    n.dram_activates += counter(stats, mc, "cmd_ACT");
    n.dram_reads += counter(stats, mc, "cmd_RD") + counter(stats, mc, "cmd_RDA");
    n.dram_writes += counter(stats, mc, "cmd_WR") + counter(stats, mc, "cmd_WRA");
    n.dram_refresh_ps += counter(stats, mc, "cmd_REF") * refresh_ps;
  }
  n.dram_burst_bytes = config.burst_bytes();
  n.dram_ranks = config.channels * config.geometry.ranks;
  const uint64_t line_bits = uint64_t{config.xpoint.line_bytes} * 8;
  for (const auto& xpoint : memory.xpoints()) {
    n.xpoint_read_bits += counter(stats, xpoint->name(), "media_reads") * line_bits;
    // A Start-Gap gap move copies a line: its read is among media_reads, its write is not among
    // media_writes (the drained lines).
    n.xpoint_write_bits += (counter(stats, xpoint->name(), "media_writes") +
                            counter(stats, xpoint->name(), "gap_moves")) *
                           line_bits;
  }
  return n;
}

}  // namespace

double summarise_energy(const MemorySystemConfig& config, const MemorySystem& memory,
                        StatsRegistry& stats, uint64_t run_time_ps) {
  const EnergyBreakdown energy =
      EnergyModel(config.energy).breakdown(run_counts(config, memory, stats, run_time_ps));
  record_energy(stats, std::string(memory.name()) + ".energy", energy);
  return energy.total_j();
}

}  // namespace ohmvp
