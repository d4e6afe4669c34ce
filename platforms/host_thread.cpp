#include "platforms/host_thread.h"

#include <memory>
#include <systemc>
#include <utility>

#include "modules/common/errors.h"
#include "modules/gpu/gpu.h"
#include "modules/gpu/ptx/ptx_parser.h"
#include "modules/host/gpu_workload_runner.h"
#include "modules/host/workload_architecture.h"
#include "platforms/report.h"
#include "platforms/simulated_executor.h"

namespace ohmvp {

void check_workload_on_platform(const GpuWorkload& workload, const gpu::Module& module,
                                const PlatformConfig& config) {
  check_launches(workload, module);
  check_workload_architecture(workload, module, *config.gpu);
  check_workload_priorities(workload, *config.gpu);
  check_managed_chunks(workload, config.uvm.chunk_bytes, config.memory.capacity_bytes(),
                       config.memory.capacity_text());
}

HostThread::HostThread(uint32_t gpu, const std::filesystem::path& file,
                       const PlatformConfig& config, bool verify, uint64_t start_ps)
    : m_gpu(gpu),
      m_start_ps(start_ps),
      m_workload(load_gpu_workload(
          file, MemoryRoom(config.memory.capacity_bytes(), config.memory.capacity_text()))),
      m_module(gpu::load_ptx_file(m_workload.ptx.string())) {
  check_workload_on_platform(m_workload, m_module, config);
  if (verify) m_check.emplace(m_workload);
}

std::vector<RunInput> HostThread::inputs() const {
  std::vector<RunInput> inputs = workload_inputs(m_workload);
  for (RunInput& input : inputs) input.role = "gpu" + std::to_string(m_gpu) + "." + input.role;
  return inputs;
}

void HostThread::start(Runtime& runtime) {
  sc_core::sc_spawn([this, &runtime] { run(runtime); },
                    ("host" + std::to_string(m_gpu) + "_program").c_str());
}

void HostThread::run(Runtime& runtime) {
  const std::string who = "GPU " + std::to_string(m_gpu) + " (workload '" + m_workload.name + "')";
  std::unique_ptr<SimulatedExecutor> executor;
  if (m_start_ps > 0) sc_core::wait(sc_core::sc_time::from_value(m_start_ps));  // from time 0
  try {
    executor = std::make_unique<SimulatedExecutor>(runtime, m_workload, std::move(m_module));
    run_workload_steps(m_workload, *executor);  // ends with a synchronize
    m_outputs = read_outputs(m_workload, *executor);
    if (m_check) m_verification = m_check->check(m_outputs);
    m_stream_numbers = executor->stream_numbers();
    m_events = executor->events_report();
  } catch (const sc_core::sc_unwind_exception&) {
    throw;  // SystemC ends the thread
  } catch (const OutOfDeviceMemory& error) {
    m_failure = [message = who + ": " + error.what()] { throw OutOfDeviceMemory(message); };
  } catch (const ConfigError& error) {
    m_failure = [message = who + ": " + error.what()] { throw ConfigError(message); };
  } catch (const DeviceFaultError& error) {
    const std::string message =
        who + ": " + error.what() + (executor ? executor->fault_location(error) : "");
    m_failure = [message] { throw SimulationError(message); };
  } catch (const std::exception& error) {
    m_failure = [message = who + ": " + error.what()] { throw SimulationError(message); };
  }
  m_end_ps = sc_core::sc_time_stamp().value();
  m_done = true;
  if (m_failure)
    sc_core::sc_stop();  // the run fails: sc_main finds it stopped and asks rethrow_failure
  else
    sc_core::sc_pause();  // sc_main, waiting for the host programs, looks again
}

void HostThread::rethrow_failure() const {
  if (m_failure) m_failure();
}

nlohmann::json HostThread::report(const StatsRegistry& stats, const gpu::Gpu& gpu) const {
  const std::string host = "host" + std::to_string(m_gpu);
  nlohmann::json entry = {
      {"gpu", m_gpu},
      {"workload", m_workload.name},
      {"start_ns", double(m_start_ps) / 1000.0},
      {"end_ns", double(m_end_ps) / 1000.0},
      {"kernel_launches", stats.find_counter(host, "kernel_launches")->value()},
      {"kernel_time_ns", double(stats.find_counter(host, "kernel_time")->value()) / 1000.0}};
  entry["launches"] = launches_json(with_workload_streams(gpu.launch_log(), m_stream_numbers));
  if (!m_events.empty()) entry["events"] = m_events;
  if (m_verification) entry["verification"] = m_verification->json();
  return entry;
}

}  // namespace ohmvp
