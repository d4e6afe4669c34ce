#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "modules/common/errors.h"
#include "modules/gpu/ptx/program.h"
#include "modules/host/buffer_locator.h"
#include "modules/host/gpu_workload.h"
#include "modules/host/gpu_workload_runner.h"
#include "modules/host/kernel_arguments.h"
#include "modules/host/runtime.h"
#include "platforms/interruption.h"

namespace ohmvp {

// Runs a workload's steps on the simulated platform through the runtime, buffer by name.
class SimulatedExecutor : public WorkloadExecutor {
 public:
  // `module` is the workload's PTX, parsed.
  SimulatedExecutor(Runtime& runtime, const GpuWorkload& workload, gpu::Module module);

  // Ends a run a signal asked to end (Interrupted).
  void before_step() override { end_if_interrupted(); }
  void launch(const KernelLaunch& launch, const std::vector<ResolvedArg>& args,
              uint32_t stream) override;
  void copy(const std::string& from, const std::string& to,
            std::optional<uint32_t> stream) override;
  void fill(const std::string& name, uint64_t element_bits,
            std::optional<uint32_t> stream) override;
  uint64_t read_element(const std::string& name, uint64_t index) override;
  void prefetch(const std::string& name, bool to_host, std::optional<uint32_t> stream) override;
  void advise(const std::string& name, ManagedAdvice advice) override;
  void to_device(const std::string& name, uint64_t byte_offset, const uint8_t* bytes, uint64_t size,
                 uint32_t stream) override;
  void to_host(const std::string& name, uint64_t byte_offset, uint64_t bytes,
               uint32_t stream) override;
  void synchronize(std::optional<uint32_t> stream) override;
  void record_event(const std::string& name, uint32_t stream) override;
  void wait_event(const std::string& name, uint32_t stream) override;
  void synchronize_event(const std::string& name) override;

  // The workload's buffers where they were allocated, for a fault message to name.
  std::vector<LocatedBuffer> located_buffers() const;
  // "; that is <where>" for a fault at a global address in or next to one of them; else empty.
  std::string fault_location(const DeviceFaultError& fault) const;

  // An output buffer's bytes, copied back to the host.
  std::vector<uint8_t> read_buffer(const std::string& name);
  // The report's "events": for each event the workload recorded, how many times it was recorded
  // and when its stream reached the last record (simulated ns; null if it never did).
  nlohmann::json events_report();

  // The workload's number of each stream the runtime made for it, by the runtime's (0, the
  // default stream, included).
  std::map<Runtime::StreamId, uint32_t> stream_numbers() const;

 private:
  const BufferSpec& buffer(const std::string& name) const;
  void add(KernelArguments& packed, const ResolvedArg& arg);
  uint64_t texture(const ResolvedArg& arg);
  // The runtime's stream for the workload's stream `number`, made at its first use.
  Runtime::StreamId stream(uint32_t number);
  // The runtime's event of that name, made at its first use.
  Runtime::EventId event(const std::string& name);

  Runtime& m_runtime;
  const GpuWorkload& m_workload;
  Runtime::ModuleId m_module = 0;
  std::map<std::string, uint64_t> m_addresses;
  std::map<uint32_t, Runtime::StreamId> m_streams;
  struct Event {
    Runtime::EventId id;
    uint64_t records = 0;
  };
  std::map<std::string, Event> m_events;
  // What to_host steps copy back into, a buffer's size each: as a program's pinned host array.
  std::map<std::string, std::vector<uint8_t>> m_host_side;
};

// The host reads every output buffer back at the end, dumped or not, so a run's timing does not
// depend on --dump.
std::map<std::string, std::vector<uint8_t>> read_outputs(const GpuWorkload& workload,
                                                         SimulatedExecutor& executor);

// A GPU's launch log with each host stream named by the workload's number (`numbers`, from
// SimulatedExecutor::stream_numbers), as the report's "launches" give them.
std::vector<gpu::LaunchRecord> with_workload_streams(
    std::vector<gpu::LaunchRecord> log, const std::map<Runtime::StreamId, uint32_t>& numbers);

}  // namespace ohmvp
