#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "modules/gpu/occupancy.h"
#include "modules/gpu/simt/execution_context.h"

namespace ohmvp::gpu {

// What one kernel launch was and how it ran, for the report's "launches" (docs/report.md).
struct LaunchRecord {
  std::string kernel;  // the .entry name
  Dim3 grid, block;
  uint64_t start_cycle = 0;
  uint64_t end_cycle = 0;
  uint64_t warp_instructions = 0;
  bool faulted = false;
  int priority = 0;     // the stream priority it ran at
  std::optional<uint32_t> stream;  // KernelLaunch::stream
  Occupancy occupancy;  // CTAs per SM, the limit that decided it, and the resources counted
};

}  // namespace ohmvp::gpu
