#pragma once

#include <filesystem>

#include "modules/common/config_document.h"
#include "platforms/platform_config.h"
#include "platforms/run.h"

namespace ohmvp {

// Runs a kernel workload (testbenches/workloads/*.json with "ptx") on a GPU platform: buffers
// copied in over PCIe, the workload's launches and host-side loops through the runtime, the
// outputs copied back (and dumped with --dump), report.json written. Input errors are
// ConfigError before anything is written; a device fault or a stall is SimulationError.
void run_kernel_workload(const RunOptions& options, const ConfigDocument& document,
                         const PlatformConfig& config, const std::filesystem::path& workload_file);

}  // namespace ohmvp
