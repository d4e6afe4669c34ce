#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "modules/common/stats.h"
#include "modules/gpu/ptx/program.h"
#include "modules/host/gpu_workload.h"
#include "modules/host/runtime.h"
#include "platforms/platform_config.h"
#include "platforms/reference_check.h"

namespace ohmvp {

namespace gpu {
class Gpu;
}

// ConfigError for a workload the platform's GPUs cannot run, found before any file is written: a
// launch its PTX cannot take, a kernel beyond the GPU's architecture (compute capability, warp
// size, tensor modes), a stream priority beyond its range, managed buffers in chunks larger than
// its memory.
void check_workload_on_platform(const GpuWorkload& workload, const gpu::Module& module,
                                const PlatformConfig& config);

// The host program of GPU `gpu` (1 and up) of a multi-GPU platform (--gpu-workload): its workload
// run through that GPU's runtime in a SystemC thread of its own, beside GPU 0's, as the host
// threads of a multi-GPU machine drive their GPUs side by side. It copies its buffers in, runs
// its steps, copies its outputs back and, with --verify, checks them against the C++ reference.
class HostThread {
 public:
  // Loads and checks the workload before anything is written: ConfigError for a bad one, a
  // kernel this GPU cannot run, or (with `verify`) one without a reference. The program starts
  // at simulated time `start_ps`.
  HostThread(uint32_t gpu, const std::filesystem::path& file, const PlatformConfig& config,
             bool verify, uint64_t start_ps = 0);
  HostThread(const HostThread&) = delete;
  HostThread& operator=(const HostThread&) = delete;

  // Spawns the thread; it starts when the simulation does.
  void start(Runtime& runtime);
  bool done() const { return m_done; }
  // The program's failure, if any, rethrown with its GPU named (the error's kind kept). A failure
  // stops the simulation (sc_stop) as it happens.
  void rethrow_failure() const;

  uint32_t gpu() const { return m_gpu; }
  uint64_t start_ps() const { return m_start_ps; }
  const GpuWorkload& workload() const { return m_workload; }
  const std::optional<Verification>& verification() const { return m_verification; }
  // Its output buffers as the program read them back at its end (empty until done).
  const std::map<std::string, std::vector<uint8_t>>& outputs() const { return m_outputs; }
  // The files it reads: the workload, its PTX, its buffers' files (roles "gpu<i>.workload", ...).
  std::vector<RunInput> inputs() const;
  // Its entry in report.json's "other_gpus": when it started and ended, its kernels' time and
  // launches (`gpu`'s, the one it ran on), its verification.
  nlohmann::json report(const StatsRegistry& stats, const gpu::Gpu& gpu) const;

 private:
  void run(Runtime& runtime);

  uint32_t m_gpu;
  uint64_t m_start_ps;
  GpuWorkload m_workload;
  gpu::Module m_module;
  std::optional<ReferenceCheck> m_check;
  std::optional<Verification> m_verification;
  std::map<std::string, std::vector<uint8_t>> m_outputs;
  bool m_done = false;
  uint64_t m_end_ps = 0;
  std::function<void()> m_failure;  // rethrows it
  std::map<Runtime::StreamId, uint32_t> m_stream_numbers;  // SimulatedExecutor::stream_numbers
  nlohmann::json m_events;                                 // SimulatedExecutor::events_report
};

}  // namespace ohmvp
