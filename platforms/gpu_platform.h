#pragma once

#include <memory>
#include <string>
#include <vector>

#include "modules/common/config_document.h"
#include "modules/common/stats.h"
#include "modules/common/vcd_writer.h"
#include "modules/gpu/gpu.h"
#include "modules/host/runtime.h"
#include "platforms/catalog.h"  // a program built against the installed package finds its data
#include "platforms/memory_system.h"
#include "platforms/platform_config.h"

namespace ohmvp {

// A GPU platform, elaborated: the memory system, the GPU bound to it channel by channel, and the
// host runtime; on a multi_gpu platform, each further GPU with its own memory and runtime. What a
// host program builds in sc_main before calling runtime():
//   ohmvp::GpuPlatform platform("gpu_small");
//   ohmvp::Runtime& cuda = platform.runtime();
// Construct at most one per process (SystemC elaborates once): a second is std::logic_error.
class GpuPlatform {
 public:
  // `platform`: a shipped platform's name or a file. ConfigError for a bad platform or one
  // without a "gpu" section. `vcd` may be null (no tracing).
  explicit GpuPlatform(const std::string& platform, const std::vector<std::string>& overrides = {},
                       VcdWriter* vcd = nullptr);
  GpuPlatform(const ConfigDocument& document, VcdWriter* vcd);
  ~GpuPlatform();

  Runtime& runtime() { return *m_runtime; }
  // The host runtime of GPU `index` of a multi_gpu platform (0: runtime()); a host program of a
  // GPU other than 0 runs in a SystemC thread of its own (see Runtime). std::out_of_range for an
  // index of no GPU, as gpu(index).
  Runtime& runtime(uint32_t index) {
    return index == 0 ? *m_runtime : *m_peer_runtimes[peer_of(index, "runtime")];
  }
  gpu::Gpu& gpu() { return *m_gpu; }
  // GPU `index` of a multi_gpu platform (0: gpu()).
  gpu::Gpu& gpu(uint32_t index) { return index == 0 ? *m_gpu : *m_peers[peer_of(index, "gpu")]; }
  uint32_t gpus() const { return static_cast<uint32_t>(m_peers.size() + 1); }
  // A GPU's unified-memory driver is serving faults or moving pages.
  bool uvm_working();
  MemorySystem& memory() { return *m_memory; }
  // The memory of GPU `index` (0: memory()).
  MemorySystem& memory(uint32_t index) {
    return index == 0 ? *m_memory : *m_peer_memories[peer_of(index, "memory")];
  }
  StatsRegistry& stats() { return m_stats; }
  const PlatformConfig& config() const { return m_config; }
  const ConfigDocument& document() const { return m_document; }

 private:
  size_t peer_of(uint32_t index, const char* call) const;
  // memHarvester: each harvesting GPU's driver borrows from every yielding GPU.
  void connect_harvesters();

  ConfigDocument m_document;
  PlatformConfig m_config;
  StatsRegistry m_stats;
  std::unique_ptr<MemorySystem> m_memory;
  std::unique_ptr<gpu::Gpu> m_gpu;
  std::unique_ptr<Runtime> m_runtime;
  // multi_gpu: GPUs 1 and up, each with its own memory, and the NVSwitch between all of them.
  std::vector<std::unique_ptr<MemorySystem>> m_peer_memories;
  std::vector<std::unique_ptr<gpu::Gpu>> m_peers;
  std::vector<std::unique_ptr<Runtime>> m_peer_runtimes;
  std::unique_ptr<NvlinkFabric> m_fabric;
};

}  // namespace ohmvp
