#include "platforms/run.h"

#include <iostream>
#include <memory>
#include <sstream>

#include "modules/common/errors.h"
#include "modules/common/json_file.h"
#include "modules/common/process_error.h"
#include "modules/host/gpu_workload.h"
#include "modules/host/traffic_initiator.h"
#include "platforms/catalog.h"
#include "platforms/energy_summary.h"
#include "platforms/file_kind.h"
#include "platforms/hetero_summary.h"
#include "platforms/interruption.h"
#include "platforms/kernel_run.h"
#include "platforms/memory_system.h"
#include "platforms/optical_summary.h"
#include "platforms/report.h"
#include "platforms/run_monitor.h"
#include "platforms/run_outputs.h"
#include "platforms/time_limit.h"
#include "platforms/vcd_limit.h"
#include "platforms/workload.h"

namespace ohmvp {

namespace {

void check_fits(const Workload& w, const MemorySystemConfig& m) {
  const uint64_t capacity = m.capacity_bytes();
  const uint32_t burst = m.burst_bytes();
  if (w.last_byte >= capacity) {
    throw ConfigError(w.reach_source + ": reaches byte " + std::to_string(w.last_byte) +
                      " but the memory holds " + std::to_string(capacity) +
                      " bytes: " + m.capacity_text());
  }
  if (w.largest_request > burst) {
    throw ConfigError(w.size_source + ": issues " + std::to_string(w.largest_request) +
                      "-byte requests; the memory serves at most one " + std::to_string(burst) +
                      "-byte burst per request");
  }
}

RunSummary summarise(const TrafficInitiator& initiator, const StatsRegistry& stats) {
  RunSummary s;
  s.simulated_ns = sc_core::sc_time_stamp().to_seconds() * 1e9;
  s.requests = initiator.completed();
  const Histogram* latency = stats.find_histogram(initiator.name(), "read_latency");
  s.avg_latency_ns = latency->mean() / 1000.0;
  s.p99_latency_ns = double(latency->percentile(99)) / 1000.0;
  const uint64_t bytes = stats.find_counter(initiator.name(), "bytes")->value();
  s.bandwidth_gbps = s.simulated_ns > 0 ? double(bytes) / s.simulated_ns : 0.0;
  return s;
}

}  // namespace

ConfigDocument load_platform_document(const std::string& platform,
                                      const std::vector<std::string>& overrides) {
  const std::filesystem::path file =
      resolve_platform(platform.empty() ? default_platform : platform);
  ConfigDocument document =
      load_platform_json(file, [&] { return ConfigDocument::load(file, {configs_dir()}); });
  check_not_workload(document);
  for (const std::string& assignment : overrides) document.apply_override(assignment);
  return document;
}

std::filesystem::path resolve_default_workload(const ConfigDocument& document,
                                               const PlatformConfig& config) {
  const std::string origin = document.origin_of("platform.default_workload");
  try {
    // A relative path is read from the folder of the platform file that names it, as "extends"
    // is, then from the working folder (a value given with --set is read from there).
    std::string name = config.default_workload;
    const std::filesystem::path given(name);
    const std::filesystem::path beside = std::filesystem::path(origin).parent_path() / given;
    if (given.is_relative() && (given.has_parent_path() || given.extension() == ".json") &&
        origin != "--set" && regular_file_exists(beside))
      name = beside.string();
    const std::filesystem::path file = resolve_workload(name);
    // A platform file or a trace is told so; a kernel workload needs a GPU to run on.
    if (is_kernel_workload(load_workload_json(file)) && !config.gpu)
      throw ConfigError("kernel workload " + file.string() +
                        " needs a GPU; this platform has none (no \"gpu\" section)");
    return file;
  } catch (const ConfigError& error) {
    throw ConfigError(origin + ": platform.default_workload: " + error.what());
  }
}

void print_platform_warnings(const PlatformConfig& config) {
  const std::string warnings[] = {
      config.memory.is_optical() ? laser_budget_warning(config.memory) : std::string(),
      config.memory.burst_rounding_warning()};
  for (const std::string& warning : warnings)
    if (!warning.empty()) std::cerr << "ohmvp: warning: " << warning << "\n";
}

void run_platform(const RunOptions& options) {
  // Everything that can be wrong with the input is found before any file is written.
  const ConfigDocument document = load_platform_document(options.platform, options.overrides);
  const PlatformConfig config = parse_platform(document);
  print_platform_warnings(config);
  const std::string workload_name =
      options.workload.empty() ? config.default_workload : options.workload;
  // Checked even when --workload names another: a platform file that names no workload is
  // refused by every command, as `ohmvp config` refuses it.
  const std::filesystem::path default_workload = resolve_default_workload(document, config);
  const std::filesystem::path workload_file =
      options.workload.empty() ? default_workload : resolve_workload(workload_name);
  if (is_kernel_workload(load_workload_json(workload_file))) {
    run_kernel_workload(options, document, config, workload_file);
    return;
  }
  Workload workload = load_workload(workload_file, options.seed);
  if (!options.gpu_workloads.empty())
    throw ConfigError(
        "--gpu-workload runs kernel workloads on the other GPUs beside GPU 0's; "
        "workload " +
        workload_name + " is memory traffic");
  if (options.dump)
    throw ConfigError("--dump writes a kernel workload's output buffers; workload " +
                      workload_name + " is memory traffic");
  if (options.verify)
    throw ConfigError("--verify checks a kernel workload's outputs; workload " + workload_name +
                      " is memory traffic (its reads are always checked against what was "
                      "written)");
  check_fits(workload, config.memory);

  std::vector<RunInput> inputs{{"platform", document.file()}, {"workload", workload_file}};
  if (!workload.trace_file.empty()) inputs.push_back({"trace", workload.trace_file});
  RunOutputs outputs(options, inputs, "platform " + config.name + ", workload " + workload.name);
  outputs.guard([&] {
    StatsRegistry stats;
    MemorySystem memory("memory", config.memory, stats, outputs.vcd());
    TrafficInitiator initiator("initiator", *workload.source, workload.max_outstanding,
                               options.seed, stats,
                               [&memory] { memory.when_idle([] { sc_core::sc_stop(); }); });
    memory.bind(initiator.out);
    RunMonitor monitor(
        "monitor",
        [&] {
          const bool busy = (initiator.outstanding() > 0 || !memory.idle()) &&
                            !memory.waiting_on_host();  // a slow host link is a wait
          return RunMonitor::Progress{initiator.completed(), initiator.total(),
                                      initiator.completed() + memory.device_operations(), busy};
        },
        outputs.vcd(), options.progress, monitor_period(),
        stall_looks(monitor_period(), config.memory.longest_operation_ps()),
        // Traffic ends when its requests are done: only a --time-limit given bounds it (a trace
        // whose idle gaps span days of simulated time).
        sc_core::sc_time::from_value(options.time_limit_ps.value_or(0)));

    const auto link_errors = [&] { return link_errors_text(config.memory, {&memory}, stats); };
    try {
      sc_core::sc_start();
    } catch (const sc_core::sc_report& report) {
      monitor.clear_line();
      // A read that found other data than was written may have crossed with injected errors.
      if (const std::string errors = link_errors(); !errors.empty())
        throw SimulationError(std::string(report.get_msg()) + " (" + errors + ")");
      rethrow_process_error(report);
    }
    monitor.clear_line();
    end_if_interrupted();
    const uint64_t end_ps = sc_core::sc_time_stamp().value();
    if (outputs.vcd()) outputs.vcd()->close(end_ps);
    // Checked before the VCD goes into place, so that an earlier report goes (RunOutputs).
    if (outputs.vcd() && outputs.vcd()->full()) {
      std::ostringstream message;
      message << vcd_stopped_text(options.vcd->string(), *outputs.vcd()) << ": "
              << initiator.completed() << " of " << initiator.total()
              << " requests done; a run that needs a larger --vcd-limit";
      throw SimulationError(message.str());
    }
    if (monitor.over_time_limit()) {
      std::ostringstream message;
      message << "simulated time reached the time limit of "
              << time_limit_text(*options.time_limit_ps)
              << " (--time-limit): " << initiator.completed() << " of " << initiator.total()
              << " requests done; a run that needs a larger --time-limit";
      throw SimulationError(message.str());
    }
    if (monitor.stalled()) {
      std::ostringstream message;
      message << "simulation stalled at " << sc_core::sc_time_stamp() << ": "
              << initiator.completed() << " of " << initiator.total()
              << " requests done and nothing completed for the last " << monitor.stall_window();
      throw SimulationError(message.str());
    }
    outputs.finish();

    RunSummary summary = summarise(initiator, stats);
    if (config.memory.is_hetero()) summary.hetero = summarise_hetero(memory, stats);
    if (config.memory.is_optical()) summary.optical = summarise_optical(config.memory, stats);
    summary.energy_j = summarise_energy(config.memory, memory, stats, end_ps);
    memory.record_utilisation(summary.simulated_ns, stats);
    const nlohmann::json report = make_report(config.name, workload.name, options.seed, summary,
                                              stats, document.json(), workload.json, inputs);
    write_file_atomically(options.out_dir / "report.json", report.dump(2) + "\n");
    if (options.print_summary) print_summary(std::cout, config.name, workload.name, summary, stats);
    if (const std::string errors = link_errors(); !errors.empty())
      std::cerr << "ohmvp: warning: " << errors << "; every read still returned the data written\n";
  });
}

}  // namespace ohmvp
