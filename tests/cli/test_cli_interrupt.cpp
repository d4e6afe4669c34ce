#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli_runner.h"

using Catch::Contains;

namespace {

// Random traffic of `requests` requests: about 2 us of wall time each thousand.
std::string traffic_workload(const std::string& dir, uint64_t requests) {
  const std::string file = dir + "/traffic.json";
  write_text(file, R"({"type": "traffic", "traffic": {"pattern": "random", "requests": )" +
                       std::to_string(requests) +
                       R"(, "size": 64, "read_ratio": 0.7, "base": 0, "range": 1073741824}})");
  return file;
}

// `arguments` of `ohmvp run`, sent `signal` after `seconds` of wall time.
CliResult run_interrupted(const std::string& signal, const std::string& seconds,
                          const std::string& arguments) {
  return run_shell("timeout -s " + signal + " --preserve-status " + seconds + " " +
                   OHMVP_EXECUTABLE + " run -q " + arguments);
}

}  // namespace

TEST_CASE("cli: Ctrl-C ends a run like a simulation error: the VCD so far, no report") {
  const std::string dir = scratch_dir("interrupt");
  const std::string workload = traffic_workload(dir, 1'000'000'000);
  std::filesystem::create_directories(dir + "/out");
  write_text(dir + "/out/report.json", "an earlier run's report");
  const CliResult r = run_interrupted(
      "INT", "1", "-p ddr4_2400 -w " + workload + " -o " + dir + "/out --vcd " + dir + "/w.vcd");
  INFO(r.output);
  CHECK(r.exit_code == 130);
  CHECK_THAT(r.output, Contains("ohmvp: stopping the run at its next look; the same signal again, "
                                "a second from now, ends it at once\n") &&
                           Contains("run interrupted by SIGINT at ") &&
                           Contains(" simulated; no report written"));
  CHECK_FALSE(std::filesystem::exists(dir + "/out/report.json"));
  CHECK_FALSE(std::filesystem::exists(dir + "/w.vcd.tmp"));
  // The waveform up to the interruption, whole.
  const std::string vcd = read_text(dir + "/w.vcd");
  CHECK_THAT(vcd, Contains("$enddefinitions $end"));
  CHECK(vcd.back() == '\n');
  if (run_shell("command -v vcd2fst").exit_code == 0) {
    const CliResult fst = run_shell("vcd2fst " + dir + "/w.vcd " + dir + "/w.fst");
    INFO(fst.output);
    CHECK(fst.exit_code == 0);
  } else {
    WARN("vcd2fst is not on PATH: VCD not checked by GTKWave's converter");
  }
}

TEST_CASE("cli: SIGTERM or SIGHUP ends a kernel run; the output folder it made goes") {
  const std::string dir = scratch_dir("terminate");
  // SIGHUP: the terminal went away.
  for (const auto& [signal, exit_code] : {std::pair{"TERM", 143}, std::pair{"HUP", 129}}) {
    const CliResult r =
        run_interrupted(signal, "1",
                        "-p titanv -w " + shipped("testbenches/workloads/x16/pagerank.json") +
                            " -o " + dir + "/new/out");
    INFO(r.output);
    CHECK(r.exit_code == exit_code);
    CHECK_THAT(r.output, Contains(std::string("run interrupted by SIG") + signal));
    CHECK_FALSE(std::filesystem::exists(dir + "/new"));
  }
}

TEST_CASE("cli: Ctrl-C ends a long --verify run; its reference waits for the run's end") {
  // lu's 96 launches repeated a billion times: the run, and the C++ reference after it, would
  // take days.
  const std::string dir = scratch_dir("interrupt_reference");
  auto lu = shipped_kernel_workload("lu");
  lu["launches"][0]["repeat"]["count"] = 1'000'000'000;
  write_text(dir + "/lu.json", lu.dump(2));
  const CliResult r = run_interrupted(
      "INT", "1", "-w " + dir + "/lu.json --verify -o " + dir + "/out --time-limit none");
  INFO(r.output);
  CHECK(r.exit_code == 130);
  CHECK_THAT(r.output, Contains("run interrupted by SIGINT at ") &&
                           Contains(" simulated; no report written") &&
                           !Contains("at 0 s simulated"));
  CHECK_FALSE(std::filesystem::exists(dir + "/out"));
}

TEST_CASE("cli: Ctrl-C ends a host loop of steps that take no simulated time") {
  // 2^32 x 2^32 turns of a synchronize with nothing queued: simulated time stands still, so the
  // run's looks never come; the steps look themselves.
  const std::string dir = scratch_dir("interrupt_host_loop");
  auto vecadd = shipped_kernel_workload("vecadd");
  const nlohmann::json synchronize = {{"synchronize", nlohmann::json::object()}};
  const nlohmann::json inner = {{"repeat", {{"count", 4294967296}, {"steps", {synchronize}}}}};
  vecadd["launches"].push_back({{"repeat", {{"count", 4294967296}, {"steps", {inner}}}}});
  write_text(dir + "/loop.json", vecadd.dump(2));
  const CliResult r = run_interrupted("INT", "1", "-w " + dir + "/loop.json -o " + dir + "/out");
  INFO(r.output);
  CHECK(r.exit_code == 130);
  CHECK_THAT(r.output, Contains("run interrupted by SIGINT at "));
  CHECK_FALSE(std::filesystem::exists(dir + "/out"));
}

TEST_CASE("cli: a run started with SIGINT ignored (nohup, a script's background job) goes on") {
  const std::string dir = scratch_dir("ignored_interrupt");
  const std::string workload = traffic_workload(dir, 300'000);
  // A shell's background job starts with SIGINT ignored.
  const CliResult r =
      run_shell(std::string(OHMVP_EXECUTABLE) + " run -q -p ddr4_2400 -w " + workload + " -o " +
                dir + "/out & sleep 0.2; kill -INT $!; wait $!");
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK(std::filesystem::exists(dir + "/out/report.json"));
}
