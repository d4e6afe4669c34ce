#include "platforms/gpu_platform.h"

#include <stdexcept>

#include "modules/common/errors.h"
#include "platforms/run.h"

namespace ohmvp {

namespace {

// Peak data bandwidth of the memory system in GB/s (bytes per ns).
double peak_gb_per_s(const MemorySystemConfig& memory) {
  return memory.peak_gb_per_s();
}

// Device addresses start at 64 KiB, or the first interleave block boundary above it: a null or
// small pointer a kernel dereferences is a fault, not a hit on someone's buffer (modelling
// choice). The address maps to the memory's first byte, so the guard costs no memory.
uint64_t device_base(const MemorySystemConfig& memory) {
  constexpr uint64_t guard = 64 * 1024;
  return (guard + memory.interleave_bytes - 1) / memory.interleave_bytes * memory.interleave_bytes;
}

}  // namespace

GpuPlatform::GpuPlatform(const std::string& platform, const std::vector<std::string>& overrides,
                         VcdWriter* vcd)
    : GpuPlatform(load_platform_document(platform, overrides), vcd) {}

GpuPlatform::GpuPlatform(const ConfigDocument& document, VcdWriter* vcd)
    : m_document(document), m_config(parse_platform(document)) {
  if (!m_config.gpu)
    throw ConfigError(document.file().string() + ": platform '" + m_config.name +
                      "' has no \"gpu\" section: it runs memory traffic and traces only");
  static bool built = false;  // SystemC elaborates once: a second platform's modules cannot join
  if (built)
    throw std::logic_error("GpuPlatform '" + m_config.name +
                           "': a process builds one GpuPlatform (SystemC elaborates once); a "
                           "platform of several GPUs is one, with multi_gpu.gpus");
  built = true;
  m_memory = std::make_unique<MemorySystem>("memory", m_config.memory, m_stats, vcd,
                                            MemorySystem::Front::per_channel);
  m_gpu = std::make_unique<gpu::Gpu>("gpu", *m_config.gpu, *m_memory, m_stats, vcd,
                                     device_base(m_config.memory));
  m_runtime =
      std::make_unique<Runtime>("host", *m_gpu, m_config.pcie, m_config.memory.capacity_bytes(),
                                peak_gb_per_s(m_config.memory), m_stats, m_config.uvm, vcd);
  // The host's functional copies wait for the memory to settle: for writes still queued in a
  // controller (an L2 write-back), and for pages a heterogeneous memory is moving.
  m_runtime->settle_with(*m_memory);
  if (m_config.gpus > 1) m_fabric = std::make_unique<NvlinkFabric>(m_config.nvlink, m_config.gpus);
  for (uint32_t g = 1; g < m_config.gpus; ++g) {
    const std::string suffix = std::to_string(g);
    m_peer_memories.push_back(std::make_unique<MemorySystem>(("memory" + suffix).c_str(),
                                                             m_config.memory, m_stats, vcd,
                                                             MemorySystem::Front::per_channel));
    m_peers.push_back(std::make_unique<gpu::Gpu>(("gpu" + suffix).c_str(), *m_config.gpu,
                                                 *m_peer_memories.back(), m_stats, vcd,
                                                 device_base(m_config.memory)));
    UvmConfig own_uvm = m_config.uvm;  // GPUs 0 to harvesters - 1 harvest; the others lend
    own_uvm.harvest = own_uvm.harvest && g < own_uvm.harvesters;
    m_peer_runtimes.push_back(std::make_unique<Runtime>(
        ("host" + suffix).c_str(), *m_peers.back(), m_config.pcie, m_config.memory.capacity_bytes(),
        peak_gb_per_s(m_config.memory), m_stats, own_uvm, vcd));
    m_peer_runtimes.back()->settle_with(*m_peer_memories.back());
  }
  if (m_config.uvm.harvest) connect_harvesters();
}

void GpuPlatform::connect_harvesters() {
  const uint32_t harvesters = m_config.uvm.harvesters;
  for (uint32_t h = 0; h < harvesters; ++h) {
    UvmDriver& driver = runtime(h).uvm();
    driver.join_fabric(*m_fabric, h);
    for (uint32_t y = harvesters; y < m_config.gpus; ++y)
      driver.add_peer(gpu(y), y, runtime(y), m_config.uvm.harvest_bytes, runtime(y).pcie());
  }
}

GpuPlatform::~GpuPlatform() = default;

size_t GpuPlatform::peer_of(uint32_t index, const char* call) const {
  if (index >= gpus()) {
    throw std::out_of_range(
        "GpuPlatform::" + std::string(call) + "(" + std::to_string(index) + "): platform " +
        m_config.name + " has " + std::to_string(gpus()) +
        (gpus() == 1 ? " GPU (index 0)"
                     : " GPUs (indices 0 to " + std::to_string(gpus() - 1) + ", multi_gpu.gpus)"));
  }
  return index - 1;
}

bool GpuPlatform::uvm_working() {
  for (uint32_t g = 0; g < gpus(); ++g)
    if (runtime(g).uvm().working()) return true;
  return false;
}

}  // namespace ohmvp
