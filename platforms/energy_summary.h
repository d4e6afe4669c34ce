#pragma once

#include <cstdint>

#include "modules/common/stats.h"
#include "platforms/memory_system.h"
#include "platforms/platform_config.h"

namespace ohmvp {

// The memory system's energy over a run, on every platform: the energy model
// (modules/optical/energy_model.h, `memory.energy`) over the run's counts: DRAM commands,
// background and refresh, XPoint media bits, and the channel: on an optical one the laser (from the
// platform's link budget), MRR tuning and SerDes per light bit, on an electrical one its I/O per
// bit on the wires. Writes the breakdown under "<memory's name>.energy" ("memory.energy" for
// GPU 0's) and returns the total, in joules.
double summarise_energy(const MemorySystemConfig& config, const MemorySystem& memory,
                        StatsRegistry& stats, uint64_t run_time_ps);

}  // namespace ohmvp
