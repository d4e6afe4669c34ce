#pragma once

#include "modules/common/stats.h"
#include "platforms/memory_system.h"
#include "platforms/report.h"

namespace ohmvp {

// The hetero figures of a run's summary, from every channel's manager and XPoint controller.
// Brings their derived statistics (channel shares, hit rates, wear) up to date first, so the
// figures hold whether or not the simulation has ended. Call only on a hetero memory system.
RunSummary::Hetero summarise_hetero(const MemorySystem& memory, const StatsRegistry& stats);

}  // namespace ohmvp
