#pragma once

#include <string>
#include <vector>

#include "modules/common/stats.h"
#include "modules/optical/link_budget.h"
#include "platforms/memory_system.h"
#include "platforms/platform_config.h"
#include "platforms/report.h"

namespace ohmvp {

// The link budget of an optical platform's own layout: one DRAM and one XPoint per controller,
// arrays as wide as a virtual channel (link_budget.h).
PlatformBudget platform_budget_of(const MemorySystemConfig& config);

// A warning for a laser below the loss budget (the worst route's BER above the receiver's
// target), or "" when the links meet it. The model carries data error-free either way unless
// fault injection forces a BER, which the warning says.
std::string laser_budget_warning(const MemorySystemConfig& config);

// What the failure or the warning of a run with fault injection says of the chunks it left
// uncorrectable on the light, over `memories` (every GPU's): "" when fault injection is off or
// none was.
std::string link_errors_text(const MemorySystemConfig& config,
                             const std::vector<const MemorySystem*>& memories,
                             const StatsRegistry& stats);

// The optical figures of a run's summary (laser, MRR count, worst BER) from that budget, which
// it also writes into `stats` under "memory.optical" (optical_stats.h). Call only when
// `config.is_optical()`.
RunSummary::Optical summarise_optical(const MemorySystemConfig& config, StatsRegistry& stats);

}  // namespace ohmvp
