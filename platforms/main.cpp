// The ohmvp command line: run a platform on a workload, print a resolved config, list what
// ships, list a PTX module's kernels, compare reports. Exit codes: 0 success, 1 simulation error, 2
// bad usage or bad input, 128 + N a run ended by signal N (130 Ctrl-C, 143 SIGTERM).
#include <unistd.h>
#include <algorithm>
#include <boost/program_options.hpp>
#include <charconv>
#include <cstdlib>
#include <iostream>
#include <map>
#include <new>
#include <systemc>

#include "modules/common/errors.h"
#include "modules/gpu/load_hoisting.h"
#include "modules/gpu/ptx/ptx_parser.h"
#include "modules/host/device_allocator.h"
#include "platforms/catalog.h"
#include "platforms/interruption.h"
#include "platforms/kernel_listing.h"
#include "platforms/platform_config.h"
#include "platforms/report.h"
#include "platforms/report_comparison.h"
#include "platforms/run.h"
#include "platforms/time_limit.h"
#include "platforms/vcd_limit.h"

namespace po = boost::program_options;

namespace {

constexpr int exit_simulation_error = 1;
constexpr int exit_usage = 2;

const char* const usage_text =
    "Usage: ohmvp <command> [options]\n"
    "\n"
    "OhmVP, a SystemC/TLM-2.0 virtual platform of a GPU and its memory system.\n"
    "\n"
    "Commands:\n"
    "  run      run a platform on a workload; writes OUT/report.json\n"
    "  config   print a platform's configuration as JSON (extends merged, --set applied)\n"
    "  list     list the platforms and workloads that ship\n"
    "  kernels  list a PTX file's kernels: the names a workload gives them, their parameters\n"
    "  compare  compare run reports side by side, as ratios to the first\n"
    "\n"
    "Options:\n"
    "  -h, --help     show this help (also 'ohmvp <command> --help' or 'ohmvp help <command>')\n"
    "  --version      print the version\n";

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

po::options_description platform_options() {
  po::options_description o("Platform options");
  o.add_options()("platform,p", po::value<std::string>(),
                  "platform name (see 'ohmvp list') or path to a .json file")(
      "set", po::value<std::vector<std::string>>()->composing(),
      "override one config leaf, e.g. --set memory.dram.timing.tRCD_ns=20 (repeatable)");
  return o;
}

po::variables_map parse(const std::string& command, const po::options_description& options,
                        const std::vector<std::string>& args,
                        const po::positional_options_description& positional = {}) {
  po::variables_map vm;
  try {
    // An option is named whole: a prefix (--plat) is not taken for the option it begins.
    const int style =
        po::command_line_style::default_style & ~po::command_line_style::allow_guessing;
    po::store(
        po::command_line_parser(args).options(options).positional(positional).style(style).run(),
        vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw UsageError("ohmvp " + command + ": " + e.what() + " (see 'ohmvp " + command +
                     " --help')");
  }
  // An empty value names no file, platform or workload: refused rather than read as a default.
  for (const auto& [name, value] : vm) {
    const po::option_description* option = options.find_nothrow(name, false);
    if (option == nullptr || option->semantic()->max_tokens() == 0) continue;  // a flag
    const auto* text = boost::any_cast<std::string>(&value.value());
    const auto* texts = boost::any_cast<std::vector<std::string>>(&value.value());
    const bool empty = (text && text->empty()) ||
                       (texts && std::any_of(texts->begin(), texts->end(),
                                             [](const std::string& t) { return t.empty(); }));
    if (empty) {
      const bool positional_option =
          positional.max_total_count() > 0 && positional.name_for_position(0) == name;
      throw UsageError("ohmvp " + command + ": " +
                       (positional_option ? "an argument" : "--" + name) +
                       " is empty; expected a value (see 'ohmvp " + command + " --help')");
    }
  }
  return vm;
}

// A command whose arguments are `options` and then any number of names or paths: the options'
// values, and those arguments in order.
struct ParsedCommand {
  po::variables_map options;
  std::vector<std::string> arguments;
};
ParsedCommand parse_with_arguments(const std::string& command,
                                   const po::options_description& options,
                                   const std::vector<std::string>& args) {
  constexpr const char* argument = "argument";
  po::options_description hidden;
  hidden.add_options()(argument, po::value<std::vector<std::string>>());
  po::options_description all;
  all.add(options).add(hidden);
  po::positional_options_description positional;
  positional.add(argument, -1);
  ParsedCommand parsed{parse(command, all, args, positional), {}};
  if (parsed.options.count(argument))
    parsed.arguments = parsed.options[argument].as<std::vector<std::string>>();
  return parsed;
}

// Digits only: boost would take "-1" as 2^64-1.
uint64_t parse_seed(const std::string& text) {
  uint64_t seed = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, seed);
  if (text.empty() || stop != end || error != std::errc())
    throw UsageError("ohmvp run: --seed " + text +
                     ": expected a whole number from 0 to 18446744073709551615 (see 'ohmvp run "
                     "--help')");
  return seed;
}

// --gpu-workload N=WORKLOAD[@TIME], each GPU once.
std::map<uint32_t, ohmvp::RunOptions::GpuWorkloadChoice> parse_gpu_workloads(
    const po::variables_map& vm) {
  std::map<uint32_t, ohmvp::RunOptions::GpuWorkloadChoice> workloads;
  for (const std::string& text : vm["gpu-workload"].as<std::vector<std::string>>()) {
    const size_t equals = text.find('=');
    uint32_t gpu = 0;
    const char* end = text.data() + (equals == std::string::npos ? 0 : equals);
    const auto [stop, error] = std::from_chars(text.data(), end, gpu);
    if (equals == std::string::npos || equals == 0 || equals + 1 == text.size() || stop != end ||
        error != std::errc())
      throw UsageError("ohmvp run: --gpu-workload " + text +
                       ": expected N=WORKLOAD[@TIME], a GPU number and a workload name or file, "
                       "e.g. 1=spmv or 1=spmv@2ms (see 'ohmvp run --help')");
    ohmvp::RunOptions::GpuWorkloadChoice choice{text.substr(equals + 1), 0};
    if (const size_t at = choice.workload.rfind('@'); at != std::string::npos) {
      const std::string start = choice.workload.substr(at + 1);
      try {
        // A start time is a time: "none" bounds a limit only.
        if (start == "none") throw std::invalid_argument("");
        choice.start_ps = ohmvp::parse_time_limit_ps(start);
      } catch (const std::invalid_argument&) {
        throw UsageError("ohmvp run: --gpu-workload " + text + ": the start time '" + start +
                         "': expected a time from 1 ps and its unit (ps, ns, us, ms or s), such "
                         "as 2ms (see 'ohmvp run --help')");
      }
      choice.workload.resize(at);
    }
    if (!workloads.emplace(gpu, choice).second)
      throw UsageError("ohmvp run: --gpu-workload names GPU " + std::to_string(gpu) +
                       " twice; each GPU runs one workload");
  }
  return workloads;
}

std::vector<std::string> overrides_of(const po::variables_map& vm) {
  return vm.count("set") ? vm["set"].as<std::vector<std::string>>() : std::vector<std::string>{};
}

int command_run(const std::vector<std::string>& args) {
  po::options_description options("Usage: ohmvp run [options]\n\nOptions");
  options.add(platform_options());
  options.add_options()("workload,w", po::value<std::string>(),
                        "workload name (see 'ohmvp list') or path to a .json file; default: "
                        "the platform's default workload")(
      "gpu-workload", po::value<std::vector<std::string>>(),
      "multi-GPU platforms: N=WORKLOAD runs a kernel workload on GPU N (1 and up) beside "
      "--workload on GPU 0, each GPU with a host program of its own; N=WORKLOAD@TIME starts it at "
      "that simulated time, e.g. 1=spmv@2ms; repeat for more GPUs")(
      "out,o", po::value<std::string>()->default_value("out"), "output folder for report.json")(
      "vcd", po::value<std::string>(), "write a VCD waveform to this file")(
      "gtkw", po::value<std::string>(),
      "with --vcd: write GTKWave's save file for it to this file (gtkwave FILE opens the VCD "
      "with its signals grouped by block)")(
      "vcd-limit", po::value<std::string>(),
      "end the run (exit 1) when its VCD reaches this size, e.g. 500MB or 4GiB; none for no "
      "limit; default 2GiB")(
      "dump", po::value<std::string>(),
      "kernel workloads: write each output buffer to DIR/<name>.bin plus DIR/index.json")(
      "verify",
      "kernel workloads: check the outputs against the workload's C++ reference, or the expected "
      "values its file gives; a mismatch fails the run (exit 1) once report.json is written")(
      "time-limit", po::value<std::string>(),
      "end the run (exit 1) when its simulated time reaches this, e.g. 5ms; none for no "
      "limit; default 1s for kernel workloads, none for memory traffic")(
      "seed", po::value<std::string>()->default_value("1"),
      "memory traffic: seed of the generator's addresses and read/write choices (unless the "
      "workload sets its own) and of the written data (0 to 2^64-1); a kernel run does not depend "
      "on it")("quiet,q", "no progress line on stderr")("help,h", "show this help");
  const po::variables_map vm = parse("run", options, args);
  if (vm.count("help")) {
    std::cout << options << "\n";
    return 0;
  }
  ohmvp::RunOptions run;
  if (vm.count("platform")) run.platform = vm["platform"].as<std::string>();
  if (vm.count("workload")) run.workload = vm["workload"].as<std::string>();
  if (vm.count("gpu-workload")) run.gpu_workloads = parse_gpu_workloads(vm);
  // Lexically normal, so that "x/../y" names y alone and x is neither made nor needed.
  const auto path_of = [&vm](const char* option) {
    return std::filesystem::path(vm[option].as<std::string>()).lexically_normal();
  };
  if (vm.count("vcd")) run.vcd = path_of("vcd");
  if (vm.count("dump")) run.dump = path_of("dump");
  if (vm.count("gtkw")) {
    if (!run.vcd)
      throw UsageError(
          "ohmvp run: --gtkw writes GTKWave's save file of the VCD; give --vcd FILE too (see "
          "'ohmvp run --help')");
    run.gtkw = path_of("gtkw");
  }
  if (vm.count("vcd-limit")) {
    if (!run.vcd)
      throw UsageError(
          "ohmvp run: --vcd-limit bounds the VCD file; give --vcd FILE too (see "
          "'ohmvp run --help')");
    try {
      run.vcd_limit_bytes = ohmvp::parse_vcd_limit_bytes(vm["vcd-limit"].as<std::string>());
    } catch (const std::invalid_argument& error) {
      throw UsageError(std::string("ohmvp run: --vcd-limit ") + error.what() +
                       " (see 'ohmvp run --help')");
    }
  }
  run.verify = vm.count("verify") > 0;
  if (vm.count("time-limit")) {
    try {
      run.time_limit_ps = ohmvp::parse_time_limit_ps(vm["time-limit"].as<std::string>());
    } catch (const std::invalid_argument& error) {
      throw UsageError(std::string("ohmvp run: --time-limit ") + error.what() +
                       " (see 'ohmvp run --help')");
    }
  }
  run.overrides = overrides_of(vm);
  run.out_dir = path_of("out");
  run.seed = parse_seed(vm["seed"].as<std::string>());
  run.progress = !vm.count("quiet") && isatty(STDERR_FILENO);
  ohmvp::catch_interruptions();
  ohmvp::run_platform(run);
  return 0;
}

int command_config(const std::vector<std::string>& args) {
  po::options_description options("Usage: ohmvp config [options]\n\nOptions");
  options.add(platform_options());
  options.add_options()("origins",
                        "print each value the files and --set give, with the file it comes from, "
                        "instead of the JSON")("help,h", "show this help");
  const po::variables_map vm = parse("config", options, args);
  if (vm.count("help")) {
    std::cout << options << "\n";
    return 0;
  }
  const std::string platform = vm.count("platform") ? vm["platform"].as<std::string>() : "";
  const ohmvp::ConfigDocument document = ohmvp::load_platform_document(platform, overrides_of(vm));
  // The same validation and warnings as a run, and the workload it would run by default must exist.
  const ohmvp::PlatformConfig config = ohmvp::parse_platform(document);
  ohmvp::resolve_default_workload(document, config);
  ohmvp::print_platform_warnings(config);
  std::cout << (vm.count("origins") ? document.origins_text() : document.json().dump(2) + "\n");
  return 0;
}

int command_list(const std::vector<std::string>& args) {
  po::options_description options("Usage: ohmvp list\n\nOptions");
  options.add_options()("help,h", "show this help");
  const po::variables_map vm = parse("list", options, args);
  if (vm.count("help")) {
    std::cout << options << "\n";
    return 0;
  }
  const std::filesystem::path platforms = ohmvp::platforms_dir();  // checks OHMVP_HOME first
  std::cout << "Platforms (" << platforms.string() << "):\n";
  for (const auto& name : ohmvp::list_platforms()) {
    std::cout << "  " << name << (name == ohmvp::default_platform ? "  (default)" : "") << "\n";
  }
  std::cout << "Workloads (" << ohmvp::workloads_dir().string() << "):\n";
  for (const auto& name : ohmvp::list_workloads()) std::cout << "  " << name << "\n";
  return 0;
}

int command_kernels(const std::vector<std::string>& args) {
  po::options_description options(
      "Usage: ohmvp kernels FILE.ptx\n\n"
      "Lists each kernel of the PTX module: the shortest name that picks it in a workload's\n"
      "\"kernel\", its C++ signature, its parameters (PTX type, offset and size in the argument\n"
      "block), its static shared and per-thread local bytes, its registers (the most live at\n"
      "once, as the default gpu.load_order issues it, and those the PTX declares) and the\n"
      "compute capability it needs.\n\nOptions");
  options.add_options()("help,h", "show this help");
  const ParsedCommand parsed = parse_with_arguments("kernels", options, args);
  if (parsed.options.count("help")) {
    std::cout << options << "\n";
    return 0;
  }
  const std::vector<std::string>& files = parsed.arguments;
  if (files.size() != 1)
    throw UsageError("ohmvp kernels: expected one PTX file (see 'ohmvp kernels --help')");
  // Registers as a platform with the default gpu.load_order issues the kernels.
  ohmvp::gpu::Module module = ohmvp::gpu::load_ptx_file(files.front());
  ohmvp::gpu::hoist_loads(module);
  ohmvp::print_kernels(std::cout, module);
  return 0;
}

int command_compare(const std::vector<std::string>& args) {
  po::options_description options(
      "Usage: ohmvp compare [options] REPORT REPORT...\n\n"
      "REPORT is a report.json or a folder holding one ('ohmvp run --out'). The first is the\n"
      "baseline: the others' figures are also given as ratios to its, and what made a run\n"
      "otherwise (config values, inputs, kind of workload, version) is named.\n\nOptions");
  options.add_options()("figure,f", po::value<std::vector<std::string>>()->composing(),
                        "a row: a summary key (ipc, energy_j, ...) or a statistic as group.name "
                        "(memory.mc0.reads; a histogram's field as memory.mc0.read_latency.p99), "
                        "or a workload's event as events.<name>; repeatable; default: every "
                        "summary figure")("json", po::value<std::string>(),
                                          "also write the comparison as JSON to this file")(
      "help,h", "show this help");
  const ParsedCommand parsed = parse_with_arguments("compare", options, args);
  const po::variables_map& vm = parsed.options;
  if (vm.count("help")) {
    std::cout << options << "\n";
    return 0;
  }
  const std::vector<std::string>& files = parsed.arguments;
  if (files.size() < 2)
    throw UsageError(
        "ohmvp compare: expected at least two reports, the first the baseline (see "
        "'ohmvp compare --help')");
  std::vector<ohmvp::LoadedReport> reports;
  for (const std::string& file : files) reports.push_back(ohmvp::load_report(file));
  const std::vector<std::string> figures =
      vm.count("figure") ? vm["figure"].as<std::vector<std::string>>() : std::vector<std::string>{};
  const ohmvp::Comparison comparison = ohmvp::compare_reports(std::move(reports), figures);
  if (vm.count("json")) {
    const std::filesystem::path json = vm["json"].as<std::string>();
    const std::filesystem::path temporary = json.string() + ".tmp";
    for (const ohmvp::LoadedReport& report : comparison.reports) {
      if (ohmvp::same_file(json, report.file))
        throw ohmvp::ConfigError("--json " + json.string() + " is " + report.file +
                                 ", a report compared; it would be overwritten");
      if (ohmvp::same_file(temporary, report.file))
        throw ohmvp::ConfigError("--json's temporary file " + temporary.string() + " is " +
                                 report.file + ", a report compared; it would be overwritten");
    }
    const std::filesystem::path created =
        json.has_parent_path() ? ohmvp::create_folder(json.parent_path()) : "";
    try {
      ohmvp::write_file_atomically(json, ohmvp::comparison_to_json(comparison).dump(2) + "\n");
    } catch (const ohmvp::ConfigError&) {
      std::error_code ignored;
      if (!created.empty()) std::filesystem::remove_all(created, ignored);
      throw;
    }
  }
  ohmvp::print_comparison(std::cout, comparison);
  return 0;
}

int dispatch_command(const std::string& command, const std::vector<std::string>& args) {
  if (command == "run") return command_run(args);
  if (command == "config") return command_config(args);
  if (command == "list") return command_list(args);
  if (command == "kernels") return command_kernels(args);
  if (command == "compare") return command_compare(args);
  throw UsageError("ohmvp: unknown command '" + command +
                   "'; expected run, config, list, kernels or compare");
}

int dispatch(int argc, char* argv[]) {
  if (argc < 2) {
    std::cerr << "ohmvp: no command given\n\n" << usage_text;
    return exit_usage;
  }
  const std::string command = argv[1];
  const std::vector<std::string> args(argv + 2, argv + argc);
  const auto is_help = [](const std::string& word) {
    return word == "-h" || word == "--help" || word == "help";
  };
  const bool help = is_help(command);
  if (help && (args.empty() || (args.size() == 1 && is_help(args[0])))) {
    std::cout << usage_text;
    return 0;
  }
  if (help && args.size() == 1) return dispatch_command(args[0], {"--help"});  // help run
  if (help || command == "--version") {
    if (!args.empty())
      throw UsageError("ohmvp " + command + ": unexpected argument '" + args.back() + "'");
    std::cout << "ohmvp " << OHMVP_VERSION << "\n";
    return 0;
  }
  return dispatch_command(command, args);
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO,
                                          sc_core::SC_DO_NOTHING);
  try {
    return dispatch(argc, argv);
  } catch (const UsageError& e) {
    std::cerr << e.what() << "\n";
    return exit_usage;
  } catch (const ohmvp::ConfigError& e) {
    std::cerr << "ohmvp: " << e.what() << "\n";
    return exit_usage;
  } catch (const ohmvp::OutOfDeviceMemory& e) {
    std::cerr << "ohmvp: " << e.what() << "\n";  // the workload asks more than the GPU has
    return exit_usage;
  } catch (const ohmvp::Interrupted& e) {
    std::cerr << "ohmvp: " << e.what() << "\n";
    return 128 + e.signal();
  } catch (const std::bad_alloc&) {
    std::cerr << "ohmvp: out of host memory: the simulation needs more memory than this machine "
                 "gives it (large buffers, generators, kernels declaring millions of PTX "
                 "registers, or memory capacities with a table entry per page)\n";
    return exit_simulation_error;
  } catch (const std::exception& e) {
    std::cerr << "ohmvp: simulation error: " << e.what() << "\n";
    return exit_simulation_error;
  }
}
