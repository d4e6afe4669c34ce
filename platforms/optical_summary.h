#pragma once

#include <cstdint>

#include "modules/common/stats.h"
#include "platforms/memory_system.h"
#include "platforms/platform_config.h"
#include "platforms/report.h"

namespace ohmvp {

// The optical figures of a run's summary on an optical platform, from the existing models: the
// platform's link budget (laser, MRR count, worst BER: link_budget.h on the platform's own
// layout, one DRAM and one XPoint per controller) and the energy model over the run's counts
// (energy_model.h). Writes the budget and the energy breakdown into `stats` under
// "memory.optical" (optical_stats.h). Call only when `config.is_optical()`.
RunSummary::Optical summarise_optical(const MemorySystemConfig& config, const MemorySystem& memory,
                                      StatsRegistry& stats, uint64_t run_time_ps);

}  // namespace ohmvp
