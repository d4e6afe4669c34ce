#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "modules/gpu/ptx/program.h"
#include "modules/gpu/simt/device_memory.h"
#include "modules/gpu/simt/functional_executor.h"
#include "modules/host/gpu_workload.h"
#include "modules/host/gpu_workload_runner.h"

namespace ohmvp {

// Runs a kernel workload's steps on the functional GPU (parser + interpreter, no timing): every
// buffer is a DeviceMemory allocation filled with its initial bytes, each launch packs its
// arguments into the kernel's .param block (offsets and sizes of Function::params) and binds its
// texture arguments in the executor's texture table.
class FunctionalWorkloadExecutor : public WorkloadExecutor {
 public:
  // Throws ConfigError for a warp size outside 4..64.
  FunctionalWorkloadExecutor(const GpuWorkload& workload, const gpu::Module& module,
                             uint32_t warp_size = 32);

  // Throws ConfigError naming the workload file and kernel for an unknown kernel, an argument
  // count that differs from the kernel's parameters, an argument whose size differs from its
  // parameter's, or a texture the functional model cannot sample; SimulationError for a fault.
  void launch(const KernelLaunch& launch, const std::vector<ResolvedArg>& args,
              uint32_t stream) override;
  void copy(const std::string& from, const std::string& to,
            std::optional<uint32_t> stream) override;
  void fill(const std::string& buffer, uint64_t element_bits,
            std::optional<uint32_t> stream) override;
  uint64_t read_element(const std::string& buffer, uint64_t index) override;
  // In order: streams do not change what a workload computes.
  void to_device(const std::string& buffer, uint64_t byte_offset, const uint8_t* bytes,
                 uint64_t size, uint32_t stream) override;

  std::vector<uint8_t> read_buffer(const std::string& buffer) const;
  uint64_t buffer_address(const std::string& buffer) const { return find(buffer).address; }

  // Summed over every launch so far.
  const gpu::LaunchStatistics& totals() const { return m_totals; }
  uint64_t launches() const { return m_launches; }

 private:
  struct DeviceBuffer {
    uint64_t address = 0;
    uint64_t bytes = 0;
    size_t element_bytes = 1;
  };
  const DeviceBuffer& find(const std::string& name) const;
  std::vector<uint8_t> pack_arguments(const KernelLaunch& launch, const gpu::Function& kernel,
                                      const std::vector<ResolvedArg>& args);
  uint64_t bind_texture(const KernelLaunch& launch, const ResolvedArg& arg);

  const GpuWorkload& m_workload;
  const gpu::Module* m_module;
  gpu::DeviceMemory m_memory;
  gpu::FunctionalExecutor m_executor;
  std::map<std::string, DeviceBuffer> m_buffers;
  gpu::LaunchStatistics m_totals;
  uint64_t m_launches = 0;
  uint64_t m_next_texture_handle = 1;
};

struct FunctionalRun {
  std::map<std::string, std::vector<uint8_t>> outputs;  // the workload's outputs, by name
  gpu::LaunchStatistics totals;  // the counts of LaunchStatistics over all launches
  uint64_t launches = 0;
};

// Loads the workload's PTX, runs every step functionally and reads back its outputs.
FunctionalRun run_workload_functionally(const GpuWorkload& workload, uint32_t warp_size = 32);

}  // namespace ohmvp
