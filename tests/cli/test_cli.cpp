#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli_runner.h"

using Catch::Contains;

namespace {

// `ohmvp run --quiet` of random traffic from address 0 (`fields`: the rest of the traffic object)
// in `dir`, with `options`.
CliResult run_random_traffic(const std::string& dir, const std::string& fields,
                             const std::string& options) {
  write_text(dir + "/traffic.json",
             R"({"type": "traffic", "traffic": {"pattern": "random", "base": 0, )" + fields + "}}");
  return run_ohmvp("run --quiet --workload " + dir + "/traffic.json --out " + dir + "/out " +
                   options);
}

}  // namespace

TEST_CASE("cli: help and version") {
  const CliResult help = run_ohmvp("--help");
  CHECK(help.exit_code == 0);
  CHECK_THAT(help.output,
             Contains("run") && Contains("config") && Contains("list") && Contains("compare"));
  for (const char* command : {"run", "config", "list", "compare"}) {
    const CliResult sub = run_ohmvp(std::string(command) + " --help");
    INFO(sub.output);
    CHECK(sub.exit_code == 0);
    CHECK_THAT(sub.output, Contains(std::string("Usage: ohmvp ") + command));
    const CliResult help_of = run_ohmvp(std::string("help ") + command);
    CHECK(help_of.exit_code == 0);
    CHECK(help_of.output == sub.output);
  }
  const CliResult version = run_ohmvp("--version");
  CHECK(version.exit_code == 0);
  CHECK_THAT(version.output, Contains("ohmvp 0."));
  require_usage_error(run_ohmvp("--version extra"), "ohmvp --version: unexpected argument 'extra'");
  require_usage_error(run_ohmvp("help run extra"), "ohmvp help: unexpected argument 'extra'");
  require_usage_error(run_ohmvp("help runn"), "unknown command 'runn'");
  CHECK(run_ohmvp("help help").output == help.output);
  CHECK(run_ohmvp("--help -h").output == help.output);
}

TEST_CASE("cli: list names the shipped platforms and workloads") {
  const CliResult r = run_ohmvp("list");
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Contains("gpu_small  (default)") && Contains("ddr4_2400") &&
                           Contains("stream_read") && Contains("random_mix") && Contains("vecadd"));
  // Variants in subfolders, by the name that runs them.
  CHECK_THAT(r.output, Contains("  managed/spmv\n") && Contains("  x16/lu\n"));
  const std::string dir = scratch_dir("list_variant");
  const CliResult variant = run_ohmvp("run -q --workload managed/vecadd --verify --out " + dir);
  INFO(variant.output);
  CHECK(variant.exit_code == 0);
  // A mistyped variant is a path that names nothing, with the variant it resembles.
  const CliResult typo = run_ohmvp("run -q --workload managed/vecad --out " + dir);
  CHECK(typo.exit_code == 2);
  CHECK_THAT(typo.output, Contains("cannot read workload file managed/vecad: no such file; did "
                                   "you mean 'managed/vecadd'?"));
}

TEST_CASE("cli: list names regular files only; a name with a file of it here is hinted") {
  const std::string dir = scratch_dir("list_files");
  std::filesystem::create_directories(dir + "/configs/platforms/sub.json");
  std::filesystem::create_directories(dir + "/testbenches/workloads");
  write_text(dir + "/configs/platforms/mine.json", "{}");
  const CliResult r = run_shell("OHMVP_HOME=" + dir + " " + OHMVP_EXECUTABLE + " list 2>&1");
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Contains("  mine\n"));
  CHECK_THAT(r.output, !Contains("sub"));

  write_text(dir + "/mygpu.json", R"({"extends": "platforms/gpu_small"})");
  const CliResult here =
      run_shell("cd " + dir + " && " + OHMVP_EXECUTABLE + " config -p mygpu 2>&1");
  CHECK(here.exit_code == 2);
  CHECK_THAT(here.output,
             Contains("ohmvp: unknown platform 'mygpu'; did you mean ./mygpu.json, the file here? "
                      "(expected one of: "));
  // A file here named as it is (a trace, say) is offered too.
  write_text(dir + "/big.trace", "R 0x0\n");
  const CliResult trace =
      run_shell("cd " + dir + " && " + OHMVP_EXECUTABLE + " run -q -w big.trace 2>&1");
  CHECK(trace.exit_code == 2);
  CHECK_THAT(trace.output, Contains("ohmvp: unknown workload 'big.trace'; did you mean "
                                    "./big.trace, the file here?"));
  // An option is named whole, not by a prefix of it.
  const CliResult prefix = run_ohmvp("run -q --plat gpu_small");
  CHECK(prefix.exit_code == 2);
  CHECK_THAT(prefix.output, Contains("ohmvp run: unrecognised option '--plat'"));
}

TEST_CASE("cli: an output folder no file can be made in is refused before the run") {
  const std::string dir = scratch_dir("unwritable_out");
  // /proc/self is a folder where no file can be made, whoever runs the test.
  if (std::filesystem::is_directory("/proc/self")) {
    for (const char* option : {"--out", "--dump", "--vcd"}) {
      const std::string target = std::string(option) == "--vcd" ? "/proc/self/t.vcd" : "/proc/self";
      const std::string out = std::string(option) == "--out" ? "" : " --out " + dir + "/made/out";
      const CliResult r = run_ohmvp("run -q " + std::string(option) + " " + target + out);
      INFO(r.output);
      CHECK(r.exit_code == 2);
      CHECK_THAT(r.output, Contains(std::string("ohmvp: ") + option +
                                    ": cannot write in output folder /proc/self: "));
      CHECK_THAT(r.output, !Contains("OhmVP"));  // no summary: nothing was simulated
      CHECK_FALSE(std::filesystem::exists(dir + "/made"));
    }
  }
  // A read-only folder (root writes in it all the same).
  std::filesystem::create_directories(dir + "/ro");
  std::filesystem::permissions(
      dir + "/ro", std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
  const CliResult r = run_ohmvp("run -q --out " + dir + "/ro");
  if (::geteuid() != 0) {
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output,
               Contains("--out: cannot write in output folder " + dir + "/ro: Permission denied"));
  }
  std::filesystem::permissions(dir + "/ro", std::filesystem::perms::owner_all);
  CHECK(std::filesystem::is_empty(dir + "/ro") == (r.exit_code != 0));
  // A symbolic link to nothing.
  std::filesystem::create_symlink(dir + "/nowhere", dir + "/dangling");
  for (const std::string out : {"/dangling", "/dangling/run"}) {
    const CliResult dangling = run_ohmvp("run -q --out " + dir + out);
    CHECK(dangling.exit_code == 2);
    CHECK_THAT(dangling.output, Contains("cannot create output folder " + dir + out + ": " + dir +
                                         "/dangling is a symbolic link to " + dir +
                                         "/nowhere, which does not exist"));
  }
}

TEST_CASE("cli: config prints the resolved platform with overrides") {
  const CliResult r = run_ohmvp("config --platform ddr4_2400 --set memory.dram.timing.tRCD_ns=20");
  REQUIRE(r.exit_code == 0);
  const auto json = nlohmann::json::parse(r.output);
  CHECK(json["memory"]["dram"]["timing"]["tRCD_ns"] == 20);
  CHECK(json["memory"]["channel"]["lanes"] == 64);
  CHECK(json.find("extends") == json.end());
}

TEST_CASE("cli: config gives a run's warnings on stderr, the JSON alone on stdout") {
  const CliResult r = run_ohmvp("config -p ohm_bw_planar --set memory.optical.waveguides=4");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.output, Contains("ohmvp: warning: a 64-byte burst takes 0.266667 ns") &&
                           Contains("the channels carry 50% of their rate"));
  const CliResult json =
      run_ohmvp("config -p ohm_bw_planar --set memory.optical.waveguides=4 2>/dev/null");
  CHECK(nlohmann::json::parse(json.output)["memory"]["optical"]["waveguides"] == 4);
}

TEST_CASE("cli: config --origins names the file each value comes from") {
  const std::string dir = scratch_dir("config_origins");
  write_text(dir + "/my_bw.json", R"({"extends": "platforms/ohm_bw_planar",
    "_source": "a note", "memory": {"xpoint": {"read_ns": 300}}})");
  const CliResult r = run_ohmvp("config --origins --platform " + dir +
                                "/my_bw.json --set memory.optical.waveguides=4");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.output, Contains("memory.xpoint.read_ns = 300  (" + dir + "/my_bw.json)\n") &&
                           Contains("memory.optical.waveguides = 4  (--set)\n") &&
                           Contains("memory.optical.laser.power_scale = 4.0  (") &&
                           Contains("configs/platforms/ohm_bw_planar.json)\n") &&
                           Contains("memory.xpoint.write_ns = 763.0  (") &&
                           Contains("configs/memory/xpoint_ohm_gpu.json)\n") &&
                           !Contains("_source"));
  // Sorted by path, one line a value.
  CHECK(r.output.find("\ngpu.") < r.output.find("\nmemory."));
}

TEST_CASE("cli: every shipped platform, as config prints it, is a platform file anywhere") {
  const std::string dir = scratch_dir("config_replay");
  for (const auto& entry : std::filesystem::directory_iterator(shipped("configs/platforms"))) {
    const std::string name = entry.path().stem().string();
    const CliResult printed = run_ohmvp("config --platform " + name);
    REQUIRE(printed.exit_code == 0);
    write_text(dir + "/" + name + ".json", printed.output);
    const CliResult again = run_ohmvp("config --platform " + dir + "/" + name + ".json");
    INFO(name << "\n" << again.output);
    CHECK(again.exit_code == 0);
  }
}

TEST_CASE("cli: --set may give a leaf the platform leaves at its default") {
  const CliResult r = run_ohmvp(
      "config --platform ohm_base_planar --set memory.hetero.migration_issue=with_writes");
  REQUIRE(r.exit_code == 0);
  CHECK(nlohmann::json::parse(r.output)["memory"]["hetero"]["migration_issue"] == "with_writes");
  require_usage_error(
      run_ohmvp("config --platform ohm_base_planar --set memory.hetero.migration_isue=with_writes"),
      "--set: unknown key 'migration_isue' at memory.hetero; did you mean 'migration_issue'?");
  require_usage_error(
      run_ohmvp("config --platform ohm_base_planar --set memory.hetero.migration_issue=later"),
      "--set: memory.hetero.migration_issue: unknown value 'later'");
}

// Each misspelt key leaves its value at a default that fails a check between values of its block:
// the message names the misspelling, not the check.
TEST_CASE("cli: a misspelt key is named before the checks its default would fail") {
  const std::string dir = scratch_dir("misspelt_before_checks");
  const struct {
    const char* platform;
    const char* block;
    const char* expected;
  } cases[] = {
      {"gpu_small", R"("memory": {"controller": {"write_high_watermark": 40, "write_queu": 64}})",
       "unknown key 'write_queu' at memory.controller; did you mean 'write_queue'?"},
      {"gpu_small", R"("memory": {"dram": {"timing": {"tRC_ns": 30, "tRAS_n": 20}}})",
       "unknown key 'tRAS_n' at memory.dram.timing; did you mean 'tRAS_ns'?"},
      {"gpu_small",
       R"("gpu": {"sub_core_per_sm": 2, "sm_limits": {"max_warps": 2, "max_threads_per_cta": 64}})",
       "unknown key 'sub_core_per_sm' at gpu; did you mean 'sub_cores_per_sm'?"},
      {"gpu_small", R"("gpu": {"l1d": {"line_byte": 64, "size_bytes": 1280, "ways": 4}})",
       "unknown key 'line_byte' at gpu.l1d; did you mean 'line_bytes'?"},
      {"gpu_small",
       R"("gpu": {"warp_sise": 64, "sm_limits": {"max_warps": 16, "max_threads_per_cta": 1024}})",
       "unknown key 'warp_sise' at gpu; did you mean 'warp_size'?"},
      {"ohm_base_planar", R"("memory": {"xpoint": {"line_byte": 128, "capacity_kib": 1000}})",
       "unknown key 'line_byte' at memory.xpoint; did you mean 'line_bytes'?"},
      {"ohm_base_planar",
       R"("memory": {"optical": {"wavelengths_per_wavegide": 98, "virtual_channels": 7}})",
       "unknown key 'wavelengths_per_wavegide' at memory.optical; did you mean "
       "'wavelengths_per_waveguide'?"},
      {"ohm_base_planar", R"("memory": {"chanels": 4, "optical": {"virtual_channels": 4}})",
       "unknown key 'chanels' at memory; did you mean 'channels'?"},
  };
  for (const auto& c : cases) {
    const std::string file = dir + "/typo.json";
    write_text(file,
               std::string(R"({"extends": ["platforms/)") + c.platform + R"("], )" + c.block + "}");
    INFO(c.block);
    require_usage_error(run_ohmvp("config --platform " + file), c.expected);
  }
  write_text(
      dir + "/strided.json",
      R"({"type": "traffic", "traffic": {"pattern": "strided", "strid": 128, "range": 100}})");
  require_usage_error(run_ohmvp("run --platform ddr4_2400 --workload " + dir + "/strided.json"),
                      "unknown key 'strid' at traffic; did you mean 'stride'?");
}

TEST_CASE("cli: bad input gives exit code 2 and names the problem") {
  const std::string dir = scratch_dir("bad_input");
  SECTION("no command") {
    require_usage_error(run_ohmvp(""), "ohmvp: no command given\n\nUsage: ohmvp");
  }
  SECTION("unknown command") {
    require_usage_error(run_ohmvp("runn"), "unknown command 'runn'");
  }
  SECTION("unknown option") {
    require_usage_error(run_ohmvp("run --platfrom ddr4_2400"), "unrecognised option '--platfrom'");
  }
  SECTION("unknown platform") {
    require_usage_error(run_ohmvp("run --platform ddr4_2401"),
                        "unknown platform 'ddr4_2401'; did you mean 'ddr4_2400'?");
  }
  SECTION("unknown workload") {
    require_usage_error(run_ohmvp("run --workload stream_reed"),
                        "unknown workload 'stream_reed'; did you mean 'stream_read'?");
    require_usage_error(run_ohmvp("run --workload VECADD"),
                        "unknown workload 'VECADD'; did you mean 'vecadd'?");
    require_usage_error(run_ohmvp("run --workload managed/spvm"),
                        "cannot read workload file managed/spvm: no such file; did you mean "
                        "'managed/spmv'?");
  }
  SECTION("a shipped name written as a file of the working folder") {
    require_usage_error(run_ohmvp("run --workload managed/spmv.json"),
                        "cannot read workload file managed/spmv.json: no such file; did you mean "
                        "'managed/spmv', the shipped workload (named without .json)?");
    require_usage_error(run_ohmvp("run --platform gpu_small.json"),
                        "cannot read platform file gpu_small.json: no such file; did you mean "
                        "'gpu_small', the shipped platform (named without .json)?");
  }
  SECTION("misspelt key in an override") {
    require_usage_error(run_ohmvp("config --set memory.dram.timing.tRDC_ns=20"),
                        "unknown key 'tRDC_ns' at memory.dram.timing; did you mean 'tRCD_ns'?");
  }
  SECTION("misspelt key in a platform file") {
    const std::string file = dir + "/typo.json";
    write_text(
        file,
        R"({"extends": ["platforms/ddr4_2400"], "memory": {"dram": {"timing": {"tRDC_ns": 20}}}})");
    require_usage_error(run_ohmvp("run --platform " + file),
                        "unknown key 'tRDC_ns' at memory.dram.timing; did you mean 'tRCD_ns'?");
  }
  SECTION("wrong type") {
    require_usage_error(run_ohmvp("config --set memory.channels=two"), "memory.channels");
    require_usage_error(run_ohmvp("run --set memory.controller.refresh=3"),
                        "memory.controller.refresh");
  }
  SECTION("out-of-range value") {
    require_usage_error(run_ohmvp("run --set memory.controller.read_queue=0"),
                        "memory.controller.read_queue");
  }
  SECTION("missing platform file") {
    require_usage_error(run_ohmvp("run --platform " + dir + "/nothing.json"), "nothing.json");
  }
  SECTION("malformed JSON names file, line and column") {
    const std::string file = dir + "/broken.json";
    write_text(file, "{\n  \"memory\": {\n    \"channels\": 1,\n  }\n}\n");
    require_usage_error(run_ohmvp("run --platform " + file), "broken.json:4:");
  }
  SECTION("malformed trace line names file and line") {
    write_text(dir + "/bad.trace", "R 0x0\nX 0x40\n");
    write_text(dir + "/bad.json", R"({"type": "trace", "trace": {"file": "bad.trace"}})");
    require_usage_error(run_ohmvp("run --workload " + dir + "/bad.json"), "bad.trace:2:");
  }
  SECTION("JSON nested too deep, a number beyond a double") {
    const std::string deep = dir + "/deep.json";
    write_text(deep, R"({"extends": "platforms/gpu_small", "_note": )" + std::string(100000, '[') +
                         std::string(100000, ']') + "}");
    require_usage_error(run_ohmvp("config --platform " + deep),
                        "deep.json:1:144: malformed JSON: arrays and objects nested more than 100");
    const std::string huge = dir + "/huge.json";
    write_text(huge, "{\"extends\": \"platforms/gpu_small\",\n \"memory\": {\"channels\": 1e400}}");
    require_usage_error(run_ohmvp("config --platform " + huge),
                        "huge.json:2:25: number '1e400' is beyond the range of a double");
    require_usage_error(run_ohmvp("config --set memory.channels=1e400"),
                        "--set memory.channels=1e400:1:1: number '1e400' is beyond the range "
                        "of a double");
  }
  SECTION("a trace reaching the end of the address space") {
    // Named with the line of the first request that reaches that far, or is that large.
    write_text(dir + "/top.trace", "# far\nR 0x0\nR 0xffffffffffffffc0\nW 0x40\n");
    write_text(dir + "/top.json", R"({"type": "trace", "trace": {"file": "top.trace"}})");
    require_usage_error(
        run_ohmvp("run --platform ohm_gpu_dram --workload " + dir + "/top.json"),
        "trace " + dir + "/top.trace:3: reaches byte 18446744073709551615 but the memory holds");
    write_text(dir + "/wide.trace", "R 0x0\nR 0x0 128\nR 0x100 128\n");
    write_text(dir + "/wide_trace.json", R"({"type": "trace", "trace": {"file": "wide.trace"}})");
    require_usage_error(
        run_ohmvp("run --platform ohm_gpu_dram --workload " + dir + "/wide_trace.json"),
        "trace " + dir +
            "/wide.trace:2: issues 128-byte requests; the memory serves at most one 64-byte burst "
            "per request");
    write_text(dir + "/wide.json",
               R"({"traffic": {"pattern": "random", "base": 0, "range": 1099511627776}})");
    require_usage_error(run_ohmvp("run --platform ohm_gpu_dram --workload " + dir + "/wide.json"),
                        dir +
                            "/wide.json: traffic.base + range: reaches byte 1099511627775 but "
                            "the memory holds");
  }
  SECTION("a file of the other kind is told so") {
    write_text(dir + "/run.trace", "# reads\nR 0x0\n");
    require_usage_error(
        run_ohmvp("run --workload " + dir + "/run.trace"),
        "run.trace:1:1: malformed JSON: syntax error while parsing value - invalid "
        "literal; last read: '#'; a workload is a JSON file (docs/workloads.md): to "
        "replay a trace, name it in a trace workload, {\"type\": \"trace\", "
        "\"trace\": {\"file\": \"run.trace\"}}");
    require_usage_error(run_ohmvp("config --platform " + dir + "/run.trace"),
                        "run.trace:1:1: malformed JSON: syntax error while parsing value - invalid "
                        "literal; last read: '#'; a platform is a JSON file");
    write_text(dir + "/traffic.json", R"({"traffic": {"pattern": "random"}})");
    require_usage_error(run_ohmvp("config --platform " + dir + "/traffic.json"),
                        dir +
                            "/traffic.json: a workload file (it has 'traffic'), not a platform; "
                            "give it with --workload");
    write_text(dir + "/report.json", R"({"schema_version": 1, "summary": {}, "platform": "x"})");
    for (const char* option : {"--workload", "--platform"})
      require_usage_error(run_ohmvp(std::string("run ") + option + " " + dir + "/report.json"),
                          dir +
                              "/report.json: a run report (report.json), not a workload or "
                              "platform");
    require_usage_error(
        run_ohmvp("run --workload " + shipped("testbenches/kernels/vecadd.ptx")),
        "to run a PTX module, name it in a kernel workload, {\"ptx\": \"vecadd.ptx\"");
    // A workload extended by a platform file: the workload is the file named.
    write_text(dir + "/ext_wl.json",
               R"({"extends": ")" + shipped("testbenches/workloads/vecadd.json") + R"("})");
    require_usage_error(run_ohmvp("config --platform " + dir + "/ext_wl.json"),
                        dir + "/ext_wl.json: extends " +
                            shipped("testbenches/workloads/vecadd.json") +
                            ", a workload file (it has 'ptx'), not a platform");
    write_text(dir + "/platform.json", R"({"extends": "platforms/ddr4_2400"})");
    require_usage_error(run_ohmvp("run --workload " + dir + "/platform.json"),
                        dir +
                            "/platform.json: a platform file (it has 'extends'), not a "
                            "workload; give it with --platform");
  }
  SECTION("a check between two keys names where each was set") {
    require_usage_error(run_ohmvp("config -p hetero_two_level --set memory.mode=planar"),
                        "ohmvp: --set: memory.hetero.mode: expected memory.mode's value "
                        "(\"planar\") or nothing, got \"two_level\" (memory.hetero.mode is set "
                        "in " +
                            shipped("configs/memory/hetero_two_level.json") +
                            ") (memory.mode is set in --set)");
    // The hetero section's own mode key is not memory.mode: the message says which it means.
    write_text(dir + "/fragments.json",
               R"({"extends": ["platforms/gpu_small", "memory/hetero_planar"]})");
    require_usage_error(run_ohmvp("config --platform " + dir + "/fragments.json"),
                        "memory.hetero: only when memory.mode is \"planar\", \"two_level\" or "
                        "\"paged\"; memory.mode is not set and defaults to \"dram\"; "
                        "memory.hetero.mode does not set the mode, memory.mode does");
    // An empty name is said to be empty, not matched against the names.
    write_text(dir + "/empty_names.json",
               R"({"extends": "platforms/gpu_small", "platform": {"default_workload": ""}})");
    require_usage_error(run_ohmvp("config --platform " + dir + "/empty_names.json"),
                        "platform.default_workload: is empty; expected a workload name or a path "
                        "to a .json file");
    write_text(dir + "/empty_names.json",
               R"({"extends": "platforms/ddr4_2400",
                   "memory": {"controller": {"address_mapping": {"scheme": ""}}}})");
    require_usage_error(run_ohmvp("config --platform " + dir + "/empty_names.json"),
                        "memory.controller.address_mapping.scheme: is empty; expected fields in "
                        "order, such as \"row:bank:column\"");
    require_usage_error(run_ohmvp("config --set memory.channels=5"),
                        "ohmvp: --set: gpu.l2.size_bytes: 786432 bytes do not divide into 10 "
                        "slices");
    require_usage_error(run_ohmvp("config --set memory.channels=5"),
                        "(memory.channels is set in --set)");
    require_usage_error(run_ohmvp("config --set gpu.l2.ways=3"),
                        "ohmvp: --set: gpu.l2.size_bytes: 786432 bytes do not divide into 12 "
                        "slices (memory channels x slices_per_channel) of whole 3-way sets");
    require_usage_error(run_ohmvp("config --set gpu.l2.slices_per_channel=5"),
                        "(gpu.l2.slices_per_channel is set in --set)");
    require_usage_error(run_ohmvp("config -p ddr4_2400 --set memory.dram.timing.tRFC_ns=9000"),
                        "ohmvp: --set: memory.dram.timing.tREFI_ns: expected more than tRFC_ns");
    require_usage_error(run_ohmvp("config -p ddr4_2400 --set memory.dram.timing.tRFC_ns=9000"),
                        "(memory.dram.timing.tRFC_ns is set in --set)");
    require_usage_error(run_ohmvp("config -p ddr4_2400 --set memory.controller.write_queue=16"),
                        "ohmvp: --set: memory.controller.write_high_watermark: expected at most "
                        "write_queue (16), got 24");
    require_usage_error(run_ohmvp("config -p ddr4_2400 --set memory.controller.write_queue=16"),
                        "(memory.controller.write_queue is set in --set)");
    write_text(dir + "/threads.json",
               R"({"extends": "platforms/gpu_small", "gpu": {"sm_limits": {"max_threads": 16}}})");
    require_usage_error(run_ohmvp("config --platform " + dir + "/threads.json"),
                        "threads.json: gpu.sm_limits.max_threads_per_cta: expected at most "
                        "max_threads (16) (gpu.sm_limits.max_threads_per_cta is set in " +
                            shipped("configs/gpu/titanv.json") +
                            ") (gpu.sm_limits.max_threads is set in " + dir + "/threads.json)");
    // A key left at its default did not make the conflict: the value that did comes first.
    require_usage_error(
        run_ohmvp("config -p ddr4_2400 --set memory.dram.geometry.burst_length=64"),
        "ohmvp: --set: memory.interleave_bytes: expected a multiple of the burst size (512 "
        "bytes) (memory.interleave_bytes is not set: its default)");
    // Of several values, the one the user set most directly is named first, and which it is.
    require_usage_error(run_ohmvp("config -p ddr4_2400 --set memory.channel.lanes=4096"),
                        "ohmvp: --set: memory.interleave_bytes: expected a multiple of the burst "
                        "size (4096 bytes)");
    require_usage_error(run_ohmvp("config -p ddr4_2400 --set memory.channel.lanes=4096"),
                        "(memory.channel.lanes is set in --set)");
    require_usage_error(run_ohmvp("config -p hetero_planar --set memory.xpoint.line_bytes=4096"),
                        "(memory.xpoint.line_bytes is set in --set)");
    require_usage_error(run_ohmvp("config -p ohm_base_planar --set memory.channels=4"),
                        "ohmvp: --set: memory.optical.virtual_channels: 6 virtual channels for 4 "
                        "memory channels");
    // Capacities that do not fit the memory mode: the key set, not the platform file.
    require_usage_error(run_ohmvp("config -p hetero_planar --set memory.hetero.page_bytes=65536"),
                        "ohmvp: --set: memory.hetero.page_bytes: planar mode needs DRAM to hold "
                        "whole pages of 65536 bytes (DRAM 8192 bytes, XPoint 65536 bytes)");
    require_usage_error(run_ohmvp("config -p hetero_planar --set memory.hetero.page_bytes=65536"),
                        "(memory.xpoint.capacity_kib is set in ");
    require_usage_error(
        run_ohmvp("config -p hetero_planar --set memory.xpoint.capacity_kib=2048"),
        "ohmvp: --set: memory.xpoint.capacity_kib: planar mode needs XPoint:DRAM between 1 and "
        "255 (DRAM 8192 bytes, XPoint 2097152 bytes)");
    require_usage_error(
        run_ohmvp("config -p origin_planar --set memory.host_memory.capacity_kib=4"),
        "ohmvp: --set: memory.host_memory.capacity_kib: paged mode needs host memory at least as "
        "large as DRAM");
    // An Ohm function's flag against the platform that lacks or has it.
    require_usage_error(
        run_ohmvp("config -p ohm_bw_planar --set memory.channel.ohm_platform=auto_rw"),
        "ohmvp: --set: memory.hetero.auto_rw: expected true with \"ohm_platform\": \"auto_rw\" "
        "in planar mode (it has the auto_rw function)");
    require_usage_error(
        run_ohmvp("config -p ohm_bw_planar --set memory.channel.ohm_platform=auto_rw"),
        "(memory.channel.ohm_platform is set in --set)");
    // What a run refused only once the GPU was built, config refuses too, naming the keys.
    require_usage_error(run_ohmvp("config -p gpu_small --set memory.interleave_bytes=64"),
                        "ohmvp: --set: memory.interleave_bytes: expected a multiple of the L2 "
                        "line, 128 bytes, so that each line lies in one channel");
    // Channels whose bytes together pass 2^62 would wrap the 64-bit addresses.
    require_usage_error(
        run_ohmvp(
            "config -p ddr4_2400 --set 'memory.controller.address_mapping={\"scheme\": "
            "\"row:rank:bank:column\"}' --set memory.dram.geometry.ranks=16 --set "
            "memory.dram.geometry.bank_groups=16 --set memory.dram.geometry.banks_per_group=64 "
            "--set memory.dram.geometry.rows=16777216 --set "
            "memory.dram.geometry.columns=65536 --set memory.channel.lanes=2048 --set "
            "memory.interleave_bytes=1073741824 --set memory.channels=64"),
        "memory.channels: the memory would hold more than 2^62 bytes: 64 channels x");
    require_usage_error(run_ohmvp("config -p gpu_small --set memory.dram.geometry.columns=4"),
                        "ohmvp: --set: memory.dram.geometry.burst_length: expected at most "
                        "'columns' (memory.dram.geometry.burst_length is set in " +
                            shipped("configs/memory/ohm_gpu_dram.json") +
                            ") (memory.dram.geometry.columns is set in --set)");
    write_text(dir + "/scheme.json",
               R"({"memory": {"controller": {"address_mapping": {"scheme": "row:bank:column"}}}})");
    require_usage_error(
        run_ohmvp("config -p " + dir +
                  "/scheme.json --set "
                  "memory.controller.address_mapping.scheme=row:bank"),
        "ohmvp: --set: memory.controller.address_mapping.scheme: 'row:bank' lacks field 'column'");
    require_usage_error(run_ohmvp("config -p " + dir +
                                  "/scheme.json --set memory.controller.address_mapping.scheme="
                                  "row:bank"),
                        "(memory.dram.geometry.columns is not set: its default)");
    // A value the document leaves to its default is said to be one.
    require_usage_error(run_ohmvp("config -p gpu_small --set 'uvm={\"harvest\": true}'"),
                        "uvm.harvest: expected neighbour GPUs to harvest memory from "
                        "(multi_gpu.gpus of at least 2) (multi_gpu.gpus is not set: its default)");
    write_text(dir + "/mapping.json", R"({"extends": "platforms/ddr4_2400", "memory":
        {"controller": {"address_mapping": {"scheme": "row:row:column"}}}})");
    require_usage_error(run_ohmvp("config --platform " + dir + "/mapping.json"),
                        dir +
                            "/mapping.json: memory.controller.address_mapping.scheme: "
                            "'row:row:column' names 'row' twice");
  }
  SECTION("a folder where a file belongs, a misspelt workload type, a binary trace") {
    std::filesystem::create_directories(dir + "/folder.json");
    require_usage_error(run_ohmvp("run --platform " + dir + "/folder.json"),
                        "cannot read platform file " + dir + "/folder.json: a folder, not a file");
    write_text(dir + "/typo.json", R"({"type": "kernal"})");
    require_usage_error(
        run_ohmvp("run --workload " + dir + "/typo.json --dump " + dir + "/d"),
        "type: unknown value 'kernal'; expected one of 'traffic', 'trace', 'kernel'; did you mean "
        "'kernel'?");
    write_text(dir + "/mixed.json", R"({"type": "trace", "traffic": {}})");
    require_usage_error(run_ohmvp("run --platform ohm_gpu_dram --workload " + dir + "/mixed.json"),
                        "mixed.json: unknown key 'traffic' at top level");
    write_text(dir + "/binary.trace", std::string("\x7f"
                                                  "ELF\0\x01",
                                                  6) +
                                          "\n");
    write_text(dir + "/binary.json", R"({"type": "trace", "trace": {"file": "binary.trace"}})");
    require_usage_error(run_ohmvp("run --platform ohm_gpu_dram --workload " + dir + "/binary.json"),
                        "binary.trace:1: bad operation '\\x7fELF\\x00\\x01'");
  }
  SECTION("paths that cannot be looked at, control characters in extends, a missing trace") {
    // A symbolic-link loop and a name too long for the file system are bad input (exit 2) that
    // names where the path was given, not a "simulation error" of the library's.
    std::filesystem::create_symlink(dir + "/loop.json", dir + "/loop.json");
    require_usage_error(
        run_ohmvp("run --workload " + dir + "/loop.json"),
        "cannot read workload file " + dir +
            "/loop.json: not readable as a file: Too many levels of symbolic links");
    write_text(dir + "/long.json", R"({"extends": "platforms/gpu_small", "platform": )"
                                   R"({"default_workload": ")" +
                                       std::string(300, 'x') + R"(.json"}})");
    require_usage_error(run_ohmvp("config --platform " + dir + "/long.json"),
                        "long.json: platform.default_workload: cannot read workload file");
    auto vecadd = shipped_kernel_workload("vecadd");
    vecadd["ptx"] = dir + "/loop.json";
    write_text(dir + "/vecadd.json", vecadd.dump());
    require_usage_error(
        run_ohmvp("run --workload " + dir + "/vecadd.json"),
        "vecadd.json: ptx: not readable as a file: Too many levels of symbolic links");
    require_usage_error(
        run_ohmvp("config --platform ddr4_2400 --set platform.default_workload=vecadd"),
        "--set: platform.default_workload: kernel workload " +
            shipped("testbenches/workloads/vecadd.json") +
            " needs a GPU; this platform has none (no \"gpu\" section)");
    // A name cut at a NUL would load another file.
    write_text(dir + "/nul.json", R"({"extends": "platforms/gpu_small.json\u0000.x"})");
    require_usage_error(run_ohmvp("config --platform " + dir + "/nul.json"),
                        "nul.json: extends: expected a name without control characters; byte 24 is "
                        "U+0000 in \"platforms/gpu_small.json\\u0000.x\"");
    write_text(dir + "/trace.json", R"({"type": "trace", "trace": {"file": "none.trace"}})");
    require_usage_error(
        run_ohmvp("run --platform ddr4_2400 --workload " + dir + "/trace.json"),
        "trace.json: trace.file: cannot read trace " + dir + "/none.trace: no such file");
  }
  SECTION("an empty workload name") {
    write_text(dir + "/unnamed.json", R"({"name": "", "traffic": {"requests": 10}})");
    require_usage_error(run_ohmvp("run --platform ddr4_2400 --workload " + dir + "/unnamed.json"),
                        dir +
                            "/unnamed.json: name: is empty; expected the workload's name (or "
                            "leave it out: the file's)");
  }
  SECTION("a key twice, a default workload that does not ship") {
    write_text(dir + "/twice.json",
               R"({"extends": "platforms/gpu_small", "memory": {"channels": 6, "channels": 4}})");
    require_usage_error(run_ohmvp("config --platform " + dir + "/twice.json"),
                        dir + "/twice.json: memory: key 'channels' appears twice");
    require_usage_error(
        run_ohmvp("config --set 'memory.controller={\"read_queue\": 8, \"read_queue\": 9}'"),
        "--set memory.controller={\"read_queue\": 8, \"read_queue\": 9}: memory.controller: key "
        "'read_queue' appears twice");
    // Text that opens an object or array is JSON: a typo in it is not taken as a string.
    require_usage_error(run_ohmvp("config --set 'memory.controller={\"read_queue\": [1,'"),
                        "--set memory.controller={\"read_queue\": [1,:1:19: malformed JSON");
    // On a string leaf too; such text is given there as a JSON string.
    require_usage_error(run_ohmvp("config --set 'platform.name=[1'"),
                        "--set platform.name=[1:1:3: malformed JSON: syntax error while parsing "
                        "array - unexpected end of input; expected ']'; platform.name is a string: "
                        "one that begins with '[' is given as a JSON string, --set "
                        "'platform.name=\"[1\"'");
    require_usage_error(run_ohmvp("config --set 'platform.description={\"a\":'"),
                        "--set platform.description={\"a\"::1:6: malformed JSON");
    require_usage_error(run_ohmvp("config --set 'platform.name=[1]'"),
                        "--set platform.name=[1]: expected string, got array");
    const CliResult description = run_ohmvp("config --set 'platform.description=\"[draft] x\"'");
    CHECK(description.exit_code == 0);
    CHECK_THAT(description.output, Contains("\"description\": \"[draft] x\""));
    const CliResult plain = run_ohmvp("config --set 'platform.description=draft \"x\"'");
    CHECK_THAT(plain.output, Contains("\"description\": \"draft \\\"x\\\"\""));
    write_text(dir + "/control.json",
               R"({"extends": "platforms/ddr4_2400", "platform": {"name": "a\u001b[31mb"}})");
    require_usage_error(run_ohmvp("run -q --platform " + dir + "/control.json"),
                        "/control.json: platform.name: expected text without control "
                        "characters; byte 1 is U+001B in \"a\\u001b[31mb\"");
    write_text(dir + "/default.json",
               R"({"extends": "platforms/gpu_small", "platform": {"default_workload": "vecad"}})");
    // A run of another workload refuses the platform too.
    for (const char* command : {"run", "config", "run --workload vecadd"})
      require_usage_error(run_ohmvp(std::string(command) + " --platform " + dir + "/default.json"),
                          dir +
                              "/default.json: platform.default_workload: unknown workload "
                              "'vecad'; did you mean 'vecadd'?");
    write_text(dir + "/default_platform.json",
               R"({"extends": "platforms/gpu_small", "platform": {"default_workload": ")" + dir +
                   R"(/default.json"}})");
    require_usage_error(run_ohmvp("config --platform " + dir + "/default_platform.json"),
                        "/default_platform.json: platform.default_workload: " + dir +
                            "/default.json: a platform file (it has 'extends'), not a workload");
    // A relative path is read beside the platform file that names it.
    std::filesystem::create_directories(dir + "/beside");
    std::filesystem::copy_file(shipped("testbenches/workloads/stream_read.json"),
                               dir + "/beside/mine.json",
                               std::filesystem::copy_options::overwrite_existing);
    write_text(
        dir + "/beside/platform.json",
        R"({"extends": "platforms/ddr4_2400", "platform": {"default_workload": "mine.json"}})");
    const CliResult beside = run_ohmvp("config --platform " + dir + "/beside/platform.json");
    INFO(beside.output);
    CHECK(beside.exit_code == 0);
  }
  SECTION("workload beyond the memory") {
    require_usage_error(run_ohmvp("run --platform ddr4_2400 --set memory.dram.geometry.rows=1024"),
                        "the memory holds 134217728 bytes: 1 channel x 134217728 bytes of DRAM "
                        "(memory.channels, memory.dram.geometry, memory.channel.lanes)");
    require_usage_error(
        run_ohmvp("run --platform ohm_base_planar --workload " +
                  shipped("testbenches/workloads/x16/backprop.json")),
        "x16/backprop.json: buffers: need 1245256 bytes but the memory holds 442368: 6 channels x "
        "(8192 bytes of DRAM + 65536 bytes of XPoint) (memory.channels, memory.dram.geometry, "
        "memory.channel.device_lanes, memory.xpoint.capacity_kib)");
    require_usage_error(
        run_ohmvp("run --platform ohm_base_two_level --workload " +
                  shipped("testbenches/workloads/x16/spmv.json")),
        "generates more entries than fit: with the other buffers they would need more than the "
        "3145728 bytes the memory holds: 6 channels x 524288 bytes of XPoint (memory.channels, "
        "memory.xpoint.capacity_kib)");
    require_usage_error(run_ohmvp("run --platform origin_planar --workload " +
                                  shipped("testbenches/workloads/x16/backprop.json")),
                        "bytes of host memory (memory.channels, memory.host_memory.capacity_kib)");
  }
  SECTION("nothing is written on bad input") {
    const std::string out = dir + "/out";
    require_usage_error(
        run_ohmvp("run --out " + out + " --vcd " + out + "/t.vcd --set memory.channels=0"),
        "memory.channels");
    CHECK_FALSE(std::filesystem::exists(out));
  }
  SECTION("memory traffic without its section") {
    write_text(dir + "/bare.json", R"({"type": "traffic"})");
    require_usage_error(
        run_ohmvp("run -p ddr4_2400 -w " + dir + "/bare.json"),
        "bare.json: traffic: required: the traffic generator's settings, an object");
    write_text(dir + "/empty.json", "{}");
    require_usage_error(run_ohmvp("run -p ddr4_2400 -w " + dir + "/empty.json"),
                        "empty.json: traffic: required");
    write_text(dir + "/trace.json", R"({"type": "trace"})");
    require_usage_error(run_ohmvp("run -p ddr4_2400 -w " + dir + "/trace.json"),
                        "trace.json: trace: required: the trace's settings");
  }
  SECTION("a seed that is not a whole number from 0 to 2^64-1") {
    for (const char* seed : {"-1", "1.5", "18446744073709551616", "x"})
      require_usage_error(run_ohmvp(std::string("run --seed ") + seed),
                          std::string("--seed ") + seed + ": expected a whole number from 0 to");
  }
  SECTION("an OHMVP_HOME without configs") {
    const CliResult r =
        run_shell(std::string("OHMVP_HOME=/nonexistent ") + OHMVP_EXECUTABLE + " list");
    CHECK(r.exit_code == 2);
    CHECK(r.output ==
          "ohmvp: OHMVP_HOME is /nonexistent, which has no configs folder; point it "
          "at an OhmVP tree or an installed share/ohmvp, or unset it\n");
  }
  SECTION("an empty value names nothing: refused, not read as the default") {
    for (const char* option : {"--platform", "--workload", "--out", "--vcd", "--dump", "--set"})
      require_usage_error(run_ohmvp(std::string("run ") + option + " ''"),
                          std::string("ohmvp run: ") + option + " is empty; expected a value");
    require_usage_error(run_ohmvp("compare out ''"),
                        "ohmvp compare: an argument is empty; expected a value");
  }
  SECTION("a report that cannot be written") {
    std::filesystem::create_directories(dir + "/out/report.json");
    require_usage_error(run_ohmvp("run -q --out " + dir + "/out --vcd " + dir + "/t.vcd"),
                        "cannot write " + dir + "/out/report.json: a folder, not a file");
    CHECK_FALSE(std::filesystem::exists(dir + "/out/report.json.tmp"));
    CHECK_FALSE(std::filesystem::exists(dir + "/t.vcd"));
    CHECK_FALSE(std::filesystem::exists(dir + "/t.vcd.tmp"));
  }
}

TEST_CASE("cli: a burst that is not whole DRAM clocks is warned of, with the tCK that fits") {
  const std::string dir = scratch_dir("burst_rounding");
  const std::string run = "run -q -w stream_read --out " + dir + " -p titanv";
  const CliResult fitted = run_ohmvp(run);
  CHECK(fitted.exit_code == 0);
  CHECK_THAT(fitted.output, !Contains("warning"));
  // The Ohm-GPU DRAM's clock under 13.6 Gb/s lanes: 64 bytes take 1.176 ns, 2.2 clocks.
  const CliResult rounded = run_ohmvp(run + " --set memory.dram.timing.tCK_ns=0.533");
  CHECK(rounded.exit_code == 0);
  CHECK_THAT(rounded.output,
             Contains("ohmvp: warning: a 64-byte burst takes 1.17647 ns, 2.20726 clocks of "
                      "memory.dram.timing.tCK_ns (0.533 ns), rounded up to 3: the channels carry "
                      "74% of their rate; a tCK_ns of 0.588235 makes the burst whole clocks"));
}

TEST_CASE("cli: bursts narrower than 8 bytes keep every byte") {
  // One 8-bit column of burst length 4: 4-byte bursts, which the traffic's shadow copy checks.
  const std::string dir = scratch_dir("narrow_bursts");
  const CliResult r =
      run_random_traffic(dir, R"("requests": 2000, "size": 4, "read_ratio": 0.5, "range": 65536)",
                         "--platform ddr4_2400 --set memory.channel.lanes=8 --set "
                         "memory.dram.geometry.burst_length=4 --set memory.interleave_bytes=64");
  INFO(r.output);
  CHECK(r.exit_code == 0);
}

TEST_CASE("cli: memory whose operations outlast the stall window is slow, not stalled") {
  // A 1 ms XPoint media read: after the last request, a migration waits on one for longer than
  // the millisecond without progress that makes a stall on a platform of the paper's timings.
  const std::string dir = scratch_dir("slow_xpoint");
  const CliResult r =
      run_random_traffic(dir, R"("requests": 500, "size": 64, "read_ratio": 0.7, "range": 262144)",
                         "--platform hetero_planar --set memory.xpoint.read_ns=1000000");
  INFO(r.output);
  CHECK(r.exit_code == 0);
}

TEST_CASE("cli: memories of terabytes take only the host memory a run touches") {
  // Per channel: 4 TiB of host memory in 64-byte pages (64 Gi pages), 16 GiB DRAM with 4080 GiB
  // XPoint in planar groups, and 64 GiB DRAM caching 4 TiB of XPoint. Tables of a byte per page
  // or line would need tens of GiB; the run has 600 MB of address space.
  const std::string dir = scratch_dir("terabytes");
  for (const std::string platform :
       {"origin_planar --set memory.host_memory.capacity_kib=4294967296 --set "
        "memory.hetero.page_bytes=64",
        "hetero_planar --set memory.dram.geometry.rows=262144 --set "
        "memory.dram.geometry.columns=1024 --set memory.xpoint.capacity_kib=4278190080",
        "hetero_two_level --set memory.dram.geometry.rows=1048576 --set "
        "memory.dram.geometry.columns=1024 --set memory.xpoint.capacity_kib=4294967296"}) {
    const CliResult r =
        run_ohmvp_within(600000, "run -q --verify --platform " + platform + " --out " + dir);
    INFO(platform << "\n" << r.output);
    CHECK(r.exit_code == 0);
  }
}

TEST_CASE("cli: a report does not depend on where the run was made") {
  const std::string dir = scratch_dir("report_anywhere");
  std::filesystem::create_directories(dir + "/sub");
  write_text(dir + "/my.json", R"({"extends": "platforms/gpu_small"})");
  const std::string run = std::string(OHMVP_EXECUTABLE) + " run -q -w vecadd";
  REQUIRE(run_shell("cd " + dir + " && " + run + " -p my.json --out a").exit_code == 0);
  REQUIRE(run_shell("cd " + dir + "/sub && " + run + " -p ../my.json --out b").exit_code == 0);
  const std::string report = read_text(dir + "/a/report.json");
  CHECK(report == read_text(dir + "/sub/b/report.json"));
  // Its inputs by role and name, with their hashes.
  const auto inputs = nlohmann::json::parse(report)["inputs"];
  REQUIRE(inputs.size() == 3);
  CHECK(inputs[0]["role"] == "platform");
  CHECK(inputs[0]["file"] == "my.json");
  CHECK(inputs[0]["bytes"] == 34);
  CHECK(inputs[2]["role"] == "ptx");
  CHECK(inputs[2]["file"] == "vecadd.ptx");
}

TEST_CASE("cli: a run writes report, summary and VCD; same seed, same report") {
  const std::string dir = scratch_dir("determinism");
  const std::string args =
      "run --quiet --workload random_mix --set "
      "memory.controller.read_queue=16 --seed 7 --vcd ";
  const CliResult first = run_ohmvp(args + dir + "/a.vcd --out " + dir + "/a");
  INFO(first.output);
  REQUIRE(first.exit_code == 0);
  CHECK_THAT(first.output, Contains("bandwidth"));
  const CliResult second = run_ohmvp(args + dir + "/b.vcd --out " + dir + "/b");
  REQUIRE(second.exit_code == 0);
  const std::string report = read_text(dir + "/a/report.json");
  CHECK(report == read_text(dir + "/b/report.json"));
  CHECK(read_text(dir + "/a.vcd") == read_text(dir + "/b.vcd"));

  const auto json = nlohmann::json::parse(report);
  CHECK(json["schema_version"] == 1);
  CHECK(json["seed"] == 7);
  for (const char* key :
       {"simulated_ns", "requests", "avg_latency_ns", "p99_latency_ns", "bandwidth_gbps"}) {
    CHECK(json["summary"].contains(key));
  }
  CHECK(json["summary"]["requests"] == 100000);
  CHECK(json["config"]["platform"]["memory"]["controller"]["read_queue"] == 16);

  const CliResult other_seed = run_ohmvp(
      "run --quiet --workload random_mix --set "
      "memory.controller.read_queue=16 --seed 8 --out " +
      dir + "/c");
  REQUIRE(other_seed.exit_code == 0);
  CHECK(read_text(dir + "/c/report.json") != report);
}
