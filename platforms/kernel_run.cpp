#include "platforms/kernel_run.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iomanip>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <utility>
#include <vector>

#include "modules/common/errors.h"
#include "modules/common/json_file.h"
#include "modules/gpu/ptx/ptx_parser.h"
#include "modules/gpu/warp_positions.h"
#include "modules/host/gpu_workload.h"
#include "modules/host/gpu_workload_runner.h"
#include "modules/host/kernel_arguments.h"
#include "modules/host/workload_texture.h"
#include "platforms/catalog.h"
#include "platforms/energy_summary.h"
#include "platforms/file_kind.h"
#include "platforms/gpu_platform.h"
#include "platforms/hetero_summary.h"
#include "platforms/host_thread.h"
#include "platforms/interruption.h"
#include "platforms/optical_summary.h"
#include "platforms/reference_check.h"
#include "platforms/report.h"
#include "platforms/run_monitor.h"
#include "platforms/run_outputs.h"
#include "platforms/simulated_executor.h"
#include "platforms/time_limit.h"
#include "platforms/vcd_limit.h"

namespace ohmvp {

namespace {

// "kernel 'a' is running", "kernels 'a', 'b' and 'c' are running", or what runs when none is.
std::string running_text(const std::vector<std::string>& kernels) {
  if (kernels.empty()) return "no kernel is running (copies or the memory's migrations are)";
  if (kernels.size() == 1) return "kernel '" + kernels[0] + "' is running";
  std::string text = "kernels";
  for (size_t k = 0; k < kernels.size(); ++k)
    text += std::string(k == 0                    ? " '"
                        : k + 1 == kernels.size() ? " and '"
                                                  : ", '") +
            kernels[k] + "'";
  return text + " are running";
}

// The --dump files of another GPU's program (--gpu-workload) are in a folder of their own.
std::string gpu_dump_folder(uint32_t gpu) {
  return "gpu" + std::to_string(gpu);
}

// The names --dump writes for `workload`, below `folder` when not empty.
std::vector<std::string> dump_names(const GpuWorkload& workload, const std::string& folder = "") {
  const std::string prefix = folder.empty() ? "" : folder + "/";
  std::vector<std::string> names{prefix + "index.json"};
  for (const std::string& name : workload.outputs) names.push_back(prefix + name + ".bin");
  return names;
}

// What the GPUs run when a run does not end: "kernel 'a' is running" and where its warps are
// (warp_positions_text), per GPU ("GPU 1: ...") on a platform of several.
std::string running_where(GpuPlatform& platform) {
  std::string text;
  for (uint32_t g = 0; g < platform.gpus(); ++g) {
    const gpu::Gpu& gpu = platform.gpu(g);
    if (g > 0 && gpu.running_kernels().empty()) continue;
    if (g > 0) text += "; ";
    if (platform.gpus() > 1) text += "GPU " + std::to_string(g) + ": ";
    text += running_text(gpu.running_kernels()) + gpu::warp_positions_text(gpu);
  }
  return text;
}

void write_dump(const std::filesystem::path& dir, const GpuWorkload& workload,
                const std::map<std::string, std::vector<uint8_t>>& outputs) {
  create_folder(dir);  // another GPU's, below --dump's
  nlohmann::json index = nlohmann::json::array();
  for (const std::string& name : workload.outputs) {
    const BufferSpec& spec = *workload.find_buffer(name);
    const std::vector<uint8_t>& bytes = outputs.at(name);
    write_file_atomically(dir / (name + ".bin"), std::string(bytes.begin(), bytes.end()));
    index.push_back({{"name", name},
                     {"type", element_type_name(spec.type)},
                     {"count", spec.count},
                     {"file", name + ".bin"}});
  }
  write_file_atomically(dir / "index.json", index.dump(2) + "\n");
}

RunSummary summarise(GpuPlatform& platform) {
  RunSummary s;
  s.simulated_ns = sc_core::sc_time_stamp().to_seconds() * 1e9;
  Histogram latency;
  uint64_t bytes = 0;
  uint64_t reads = 0;
  const StatsRegistry& stats = platform.stats();
  // In a hetero mode the GPU's requests reach the managers; their controllers also carry
  // migration traffic.
  const bool hetero = platform.config().memory.is_hetero();
  for (uint32_t channel = 0; channel < platform.config().memory.channels; ++channel) {
    const std::string group = (hetero ? "memory.hmm" : "memory.mc") + std::to_string(channel);
    const uint64_t group_reads = stats.find_counter(group, "reads")->value();
    reads += group_reads;
    s.requests += group_reads + stats.find_counter(group, "writes")->value();
    bytes += stats.find_counter(group, "read_bytes")->value() +
             stats.find_counter(group, "write_bytes")->value();
    latency.merge(*stats.find_histogram(group, "read_latency"));
  }
  s.avg_latency_ns = latency.mean() / 1000.0;
  s.p99_latency_ns = double(latency.percentile(99)) / 1000.0;
  s.bandwidth_gbps = s.simulated_ns > 0 ? double(bytes) / s.simulated_ns : 0.0;
  RunSummary::Gpu gpu;
  gpu.cycles = stats.find_counter("gpu", "cycles")->value();
  gpu.warp_instructions = stats.find_counter("gpu", "warp_instructions")->value();
  gpu.thread_instructions = stats.find_counter("gpu", "thread_instructions")->value();
  gpu.ipc = stats.find_scalar("gpu", "ipc")->value();
  gpu.simd_efficiency = stats.find_scalar("gpu", "simd_efficiency")->value();
  gpu.hmma = stats.find_counter("gpu", "hmma")->value();
  gpu.tensor_tflops = stats.find_scalar("gpu", "tensor_tflops")->value();
  gpu.tensor_utilization = stats.find_scalar("gpu", "tensor_utilization")->value();
  if (gpu.warp_instructions != 0)
    gpu.memory_apki = 1000.0 * double(s.requests) / double(gpu.warp_instructions);
  if (s.requests != 0) gpu.memory_read_ratio = double(reads) / double(s.requests);
  gpu.launches = platform.gpu().launch_log();
  s.gpu = gpu;
  if (hetero) s.hetero = summarise_hetero(platform.memory(), stats);
  const MemorySystemConfig& memory = platform.config().memory;
  if (memory.is_optical()) s.optical = summarise_optical(memory, platform.stats());
  s.energy_j = summarise_energy(memory, platform.memory(), platform.stats(),
                                sc_core::sc_time_stamp().value());
  // The other GPUs' memories have their own breakdowns; the summary's figures are GPU 0's.
  for (uint32_t g = 1; g < platform.gpus(); ++g)
    summarise_energy(memory, platform.memory(g), platform.stats(),
                     sc_core::sc_time_stamp().value());
  return s;
}

// The summary's line for outputs that matched: "verified: every output matches the C++
// reference", or which outputs matched the file's expected values.
std::string verified_text(const Verification& verification, const GpuWorkload& workload) {
  if (!verification.reference.empty()) return "verified: every output matches the C++ reference\n";
  if (verification.checked.size() == workload.outputs.size())
    return "verified: every output matches " + verification.against + "\n";
  std::string names;
  for (const std::string& name : verification.checked) names += (names.empty() ? "" : ", ") + name;
  return "verified: " + names + (verification.checked.size() == 1 ? " matches " : " match ") +
         verification.against + " (the other outputs have none)\n";
}

// The summary's lines of the report's "events", in the order they completed: "<prefix>event
// <name> at <t> us" (", <n> records" for more than one).
void print_events(std::ostream& out, const nlohmann::json& events, const std::string& prefix = "") {
  std::vector<std::pair<double, std::string>> timeline;
  for (const auto& [name, event] : events.items())
    if (event["ns"].is_number()) timeline.emplace_back(event["ns"].get<double>(), name);
  std::stable_sort(timeline.begin(), timeline.end());
  for (const auto& [ns, name] : timeline) {
    const uint64_t records = events[name]["records"].get<uint64_t>();
    std::ostringstream line;
    line << prefix << "event " << name << " at " << std::fixed << std::setprecision(3)
         << ns / 1000.0 << " us";
    if (records > 1) line << ", " << records << " records";
    out << line.str() << "\n";
  }
}

// One line for the summary: what GPU `thread.gpu()` ran and how long its kernels took.
// `entry`: its report's other_gpus entry (HostThread::report).
void print_host_thread(std::ostream& out, const HostThread& thread, const nlohmann::json& entry) {
  out << "gpu" << thread.gpu() << ": " << thread.workload().name;
  if (thread.start_ps() != 0) out << " from " << time_limit_text(thread.start_ps());
  const uint64_t kernels = entry["kernel_launches"].get<uint64_t>();
  out << ", " << kernels << (kernels == 1 ? " kernel in " : " kernels in ") << std::fixed
      << std::setprecision(3) << entry["kernel_time_ns"].get<double>() / 1000.0
      << " us, host program ended at " << entry["end_ns"].get<double>() / 1000.0 << " us";
  if (thread.verification())
    out << (thread.verification()->matches()
                ? ", verified"
                : ", outputs differ from " + thread.verification()->against);
  out << "\n";
  if (entry.contains("events"))
    print_events(out, entry["events"], "gpu" + std::to_string(thread.gpu()) + ": ");
}

// The host programs of GPUs 1 and up, loaded and checked; each starts before `time_limit_ps`
// (0: no limit).
std::vector<std::unique_ptr<HostThread>> load_host_threads(const RunOptions& options,
                                                           const PlatformConfig& config,
                                                           uint64_t time_limit_ps) {
  std::vector<std::unique_ptr<HostThread>> threads;
  for (const auto& [gpu, choice] : options.gpu_workloads) {
    const std::string& name = choice.workload;
    const std::string option = "--gpu-workload " + std::to_string(gpu) + "=" + name;
    if (gpu == 0) throw ConfigError(option + ": GPU 0 runs --workload; give GPUs 1 and up here");
    if (config.gpus == 1)
      throw ConfigError(option + ": platform " + config.name +
                        " has one GPU (multi_gpu.gpus); --gpu-workload needs a platform of "
                        "several, such as multi_gpu_huvm");
    if (gpu >= config.gpus)
      throw ConfigError(
          option + ": platform " + config.name + " has " + std::to_string(config.gpus) +
          " GPUs (multi_gpu.gpus); expected a GPU from 1 to " + std::to_string(config.gpus - 1));
    if (time_limit_ps != 0 && choice.start_ps >= time_limit_ps)
      throw ConfigError(option + ": starts at " + time_limit_text(choice.start_ps) +
                        ", not before the run's time limit of " + time_limit_text(time_limit_ps) +
                        " (--time-limit)");
    std::filesystem::path file;
    try {
      file = resolve_workload(name);
    } catch (const ConfigError& error) {
      throw ConfigError(option + ": " + error.what());
    }
    if (!is_kernel_workload(load_workload_json(file)))
      throw ConfigError(option + ": " + file.string() +
                        " is memory traffic; a GPU runs kernel workloads");
    threads.push_back(
        std::make_unique<HostThread>(gpu, file, config, options.verify, choice.start_ps));
  }
  return threads;
}

// The GTKWave save file's markers: the workload's events, then each GPU's launches as the report
// numbers them ("3 spmv", "gpu1 2 bfs"), the first 26 of them.
void mark_waveform(RunOutputs& outputs, GpuPlatform& platform, uint32_t gpus,
                   const nlohmann::json& events) {
  for (const auto& [name, event] : events.items())
    if (event["ns"].is_number())
      outputs.mark(static_cast<uint64_t>(std::llround(event["ns"].get<double>() * 1000)), name);
  for (uint32_t g = 0; g < gpus; ++g) {
    const gpu::Gpu& gpu = platform.gpu(g);
    const std::vector<gpu::LaunchRecord>& launches = gpu.launch_log();
    for (size_t i = 0; i < launches.size(); ++i)
      outputs.mark(gpu.cycle_loop().time_ps(launches[i].start_cycle),
                   (g == 0 ? "" : "gpu" + std::to_string(g) + " ") + std::to_string(i + 1) + " " +
                       launches[i].kernel);
  }
}

}  // namespace

void run_kernel_workload(const RunOptions& options, const ConfigDocument& document,
                         const PlatformConfig& config, const std::filesystem::path& file) {
  if (!config.gpu)
    throw ConfigError("platform " + config.name +
                      " has no GPU (no \"gpu\" section); kernel workload " + file.string() +
                      " needs one");
  const GpuWorkload workload = load_gpu_workload(
      file, MemoryRoom(config.memory.capacity_bytes(), config.memory.capacity_text()));
  gpu::Module module = gpu::load_ptx_file(workload.ptx.string());
  check_workload_on_platform(workload, module, config);
  std::optional<ReferenceCheck> reference_check;
  if (options.verify) reference_check.emplace(workload);
  const uint64_t time_limit_ps = options.time_limit_ps.value_or(k_default_time_limit_ps);
  const std::vector<std::unique_ptr<HostThread>> host_threads =
      load_host_threads(options, config, time_limit_ps);

  std::vector<RunInput> inputs{{"platform", document.file()}};
  for (RunInput& input : workload_inputs(workload)) inputs.push_back(std::move(input));
  for (const auto& thread : host_threads)
    for (RunInput& input : thread->inputs()) inputs.push_back(std::move(input));
  std::vector<std::string> dump_files = dump_names(workload);
  for (const auto& thread : host_threads)
    for (std::string& name : dump_names(thread->workload(), gpu_dump_folder(thread->gpu())))
      dump_files.push_back(std::move(name));
  RunOutputs outputs(options, inputs, "platform " + config.name + ", workload " + workload.name,
                     dump_files);
  // Bad input found from here on (a PTX module, a launch's arguments) removes the outputs.
  outputs.guard([&] {
    GpuPlatform platform(document, outputs.vcd());
    RunMonitor monitor(
        "monitor",
        [&] {
          const uint64_t kernels = platform.stats().find_counter("gpu", "launches")->value();
          // An issued instruction, a finished CTA or a packet on the crossbar is progress too: a
          // kernel that computes for long without touching memory, or waits for data a slow
          // crossbar carries, is not stuck.
          const uint64_t progress = kernels + platform.gpu().warp_instructions_issued() +
                                    platform.gpu().ctas_done() + platform.gpu().crossbar_packets() +
                                    platform.memory().device_operations();
          // A page crossing a slow host link, or a far fault waiting for its batch, is a wait,
          // not a stall.
          const bool busy = platform.gpu().busy() && !platform.memory().waiting_on_host() &&
                            !platform.uvm_working();
          return RunMonitor::Progress{kernels, 0, progress, busy, "kernels"};
        },
        outputs.vcd(), options.progress, monitor_period(),
        stall_looks(monitor_period(), config.memory.longest_operation_ps()),
        sc_core::sc_time::from_value(time_limit_ps));

    // `text` followed by what fault injection left uncorrectable on the light, if anything.
    const auto with_link_errors = [&](const std::string& text) {
      std::vector<const MemorySystem*> memories;
      for (uint32_t g = 0; g < platform.gpus(); ++g) memories.push_back(&platform.memory(g));
      const std::string errors = link_errors_text(config.memory, memories, platform.stats());
      return errors.empty() ? text : text + " (" + errors + ")";
    };
    for (const auto& thread : host_threads) thread->start(platform.runtime(thread->gpu()));
    std::unique_ptr<SimulatedExecutor> executor;
    std::optional<Verification> verification;
    try {
      executor =
          std::make_unique<SimulatedExecutor>(platform.runtime(), workload, std::move(module));
      run_workload_steps(workload, *executor);  // ends with a synchronize
      const auto outputs = read_outputs(workload, *executor);
      if (options.dump) write_dump(*options.dump, workload, outputs);
      if (reference_check) verification = reference_check->check(outputs);
      platform.runtime().run_until(
          [&host_threads] {
            return std::all_of(host_threads.begin(), host_threads.end(),
                               [](const auto& thread) { return thread->done(); });
          },
          "waiting for the other GPUs' host programs");
      for (const auto& thread : host_threads) thread->rethrow_failure();
      if (options.dump)
        for (const auto& thread : host_threads)
          write_dump(*options.dump / gpu_dump_folder(thread->gpu()), thread->workload(),
                     thread->outputs());
    } catch (const SimulationError& error) {
      monitor.clear_line();
      end_if_interrupted();
      for (const auto& thread : host_threads) thread->rethrow_failure();  // it stopped the run
      // Errors injected on the light may be what corrupted a pointer or a loop bound.
      const std::string noted = with_link_errors("");
      if (monitor.stalled()) {
        std::ostringstream message;
        message << "simulation stalled at " << sc_core::sc_time_stamp()
                << ": nothing progressed for the last " << monitor.stall_window()
                << " (no instruction issued, no CTA ended, no DRAM command or XPoint media "
                   "access, no unified-memory fault waiting for its batch or page moving): a "
                   "deadlock; "
                << running_where(platform) << noted;
        throw SimulationError(message.str());
      }
      if (monitor.over_vcd_limit()) {
        std::ostringstream message;
        message << vcd_stopped_text(options.vcd->string(), *outputs.vcd()) << ": "
                << running_where(platform)
                << "; a kernel that never ends, or a run that needs a larger --vcd-limit" << noted;
        throw SimulationError(message.str());
      }
      if (monitor.over_time_limit()) {
        throw SimulationError("simulated time reached the time limit of " +
                              time_limit_text(time_limit_ps) +
                              " (--time-limit): " + running_where(platform) +
                              "; a kernel that never ends, or a run that needs a larger "
                              "--time-limit" +
                              noted);
      }
      std::string where;
      if (const auto* fault = dynamic_cast<const DeviceFaultError*>(&error); fault && executor)
        where = executor->fault_location(*fault);
      if (where.empty() && noted.empty()) throw;
      throw SimulationError(error.what() + where + noted);
    }
    monitor.clear_line();
    end_if_interrupted();
    if (outputs.vcd()) {
      outputs.vcd()->close(sc_core::sc_time_stamp().value());
      // Full after the monitor's last look: the waveform stops short of the run's end.
      if (outputs.vcd()->full())
        throw SimulationError(vcd_full_text(options.vcd->string(), outputs.vcd()->size_limit()) +
                              " near the end of the run; a run that needs a larger --vcd-limit");
    }
    nlohmann::json events = executor->events_report();
    mark_waveform(outputs, platform, config.gpus, events);
    outputs.finish();

    RunSummary summary = summarise(platform);
    summary.gpu->launches =
        with_workload_streams(std::move(summary.gpu->launches), executor->stream_numbers());
    platform.memory().record_utilisation(summary.simulated_ns, platform.stats());
    nlohmann::json report =
        make_report(config.name, workload.name, options.seed, summary, platform.stats(),
                    document.json(), load_json_file(file), inputs);
    if (!events.empty()) report["events"] = std::move(events);
    if (verification) report["verification"] = verification->json();
    for (const auto& thread : host_threads)
      report["other_gpus"].push_back(thread->report(platform.stats(), platform.gpu(thread->gpu())));
    write_file_atomically(options.out_dir / "report.json", report.dump(2) + "\n");
    if (options.print_summary) {
      print_summary(std::cout, config.name, workload.name, summary, platform.stats());
      if (verification && verification->matches())
        std::cout << verified_text(*verification, workload);
      if (report.contains("events")) print_events(std::cout, report["events"]);
      for (size_t i = 0; i < host_threads.size(); ++i)
        print_host_thread(std::cout, *host_threads[i], report["other_gpus"][i]);
    }
    // With --verify the outputs were checked: a mismatch below names the errors.
    if (const std::string link_errors = with_link_errors(""); !link_errors.empty() && !verification)
      std::cerr << "ohmvp: warning: outputs may be wrong" << link_errors
                << "; --verify checks them\n";
    // The report is written first, so that a failed check can be looked into.
    const std::string written =
        " (report written to " + (options.out_dir / "report.json").string() + ")";
    if (verification && !verification->matches())
      throw SimulationError("outputs differ from " + verification->against +
                            with_link_errors(written) + ":\n" + verification->result.message);
    for (const auto& thread : host_threads)
      if (thread->verification() && !thread->verification()->matches())
        throw SimulationError("GPU " + std::to_string(thread->gpu()) + ": outputs differ from " +
                              thread->verification()->against + written + ":\n" +
                              thread->verification()->result.message);
  });
}

}  // namespace ohmvp
