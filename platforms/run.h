#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "modules/common/config_document.h"
#include "platforms/platform_config.h"

namespace ohmvp {

struct RunOptions {
  std::string platform;  // name or file; empty for the default platform
  std::string workload;  // name or file; empty for the platform's default workload
  // Multi-GPU platforms: the workloads of GPUs 1 and up (--gpu-workload N=WORKLOAD[@TIME]), each
  // run by a host program of its own beside GPU 0's, from simulated time `start_ps`.
  struct GpuWorkloadChoice {
    std::string workload;
    uint64_t start_ps = 0;
  };
  std::map<uint32_t, GpuWorkloadChoice> gpu_workloads;
  std::vector<std::string> overrides;  // "json.path=value"
  std::filesystem::path out_dir = "out";
  std::optional<std::filesystem::path> vcd;
  // With --vcd: GTKWave's save file for it (modules/common/gtkwave_save_file.h).
  std::optional<std::filesystem::path> gtkw;
  std::optional<std::filesystem::path> dump;  // kernel workloads: output buffers as raw bytes
  bool verify = false;  // kernel workloads: outputs checked against the C++ reference
  // Kernel workloads: simulated time at which the run ends (exit 1); 0 for none, nullopt for
  // k_default_time_limit_ps (time_limit.h).
  std::optional<uint64_t> time_limit_ps;
  // With --vcd: the VCD size at which the run ends (exit 1); 0 for none, nullopt for
  // k_default_vcd_limit_bytes (vcd_limit.h).
  std::optional<uint64_t> vcd_limit_bytes;
  uint64_t seed = 1;
  bool progress = false;  // progress line on stderr
  bool print_summary = true;
};

// The platform document with its extends resolved and the overrides applied.
ConfigDocument load_platform_document(const std::string& platform,
                                      const std::vector<std::string>& overrides);

// The platform's default workload (platform.default_workload) as a file; ConfigError naming that
// key when it names no workload, or a file that is not one.
std::filesystem::path resolve_default_workload(const ConfigDocument& document,
                                               const PlatformConfig& config);

// What a platform's values make of it that its file may not mean, on stderr as "ohmvp: warning:
// ...": a laser below what its receivers need, bursts rounded up to whole DRAM clocks.
void print_platform_warnings(const PlatformConfig& config);

// Elaborates the platform, runs the workload to completion and writes out_dir/report.json
// (and the VCD when asked). Throws ConfigError for bad input before anything is written, and
// SimulationError when the run fails.
void run_platform(const RunOptions& options);

}  // namespace ohmvp
