#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli_runner.h"

using Catch::Contains;
using Catch::EndsWith;

TEST_CASE("cli: compare puts two runs' workload events side by side") {
  const std::string dir = scratch_dir("compare_events");
  write_text(dir + "/w.json", vecadd_streams_timed().dump());
  const std::string run = "run --quiet -p gpu_small --workload " + dir + "/w.json --out ";
  REQUIRE(run_ohmvp(run + dir + "/fast").exit_code == 0);
  REQUIRE(run_ohmvp(run + dir + "/slow --set host.pcie.bandwidth_gb_per_s=4").exit_code == 0);
  const CliResult r = run_ohmvp("compare " + dir + "/fast " + dir + "/slow -f events.end --json " +
                                dir + "/cmp.json");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.output, Contains("\nevents.end  ns "));
  const auto at = [&dir](const std::string& name) {
    return nlohmann::json::parse(
        read_text(dir + "/" + name + "/report.json"))["events"]["end"]["ns"];
  };
  const auto figure = nlohmann::json::parse(read_text(dir + "/cmp.json"))["figures"][0];
  CHECK(figure["values"][0] == at("fast"));
  CHECK(figure["values"][1] == at("slow"));
  CHECK(figure["ratios"][1].get<double>() > 1.5);  // the copies take longer on the slower link
  require_usage_error(run_ohmvp("compare " + dir + "/fast " + dir + "/slow -f events.ned"),
                      "no report has a figure 'events.ned'; did you mean 'events.end'?");
}

TEST_CASE("cli: compare puts two runs side by side") {
  const std::string dir = scratch_dir("compare");
  const std::string run = "run --quiet --workload vecadd --out ";
  REQUIRE(run_ohmvp(run + dir + "/gto").exit_code == 0);
  REQUIRE(run_ohmvp(run + dir + "/lrr --set gpu.warp_scheduler.policy=lrr").exit_code == 0);

  const CliResult r = run_ohmvp("compare " + dir + "/gto " + dir + "/lrr/report.json --json " +
                                dir + "/cmp/comparison.json");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  // One platform twice: the columns are named by the files read.
  CHECK_THAT(r.output,
             Contains("Reports (ratios are to the first):") &&
                 Contains(dir + "/gto/report.json  (gpu_small, workload vecadd, seed 1)"));
  CHECK_THAT(r.output, Contains("\nipc ") && Contains("\nenergy_j ") && Contains("x)\n"));
  CHECK_THAT(r.output, !Contains("Equal to"));
  // A second run of the same configuration: every figure the same, which is said outright.
  REQUIRE(run_ohmvp(run + dir + "/again").exit_code == 0);
  const CliResult same =
      run_ohmvp("compare " + dir + "/gto " + dir + "/lrr " + dir + "/again -f ipc");
  INFO(same.output);
  CHECK_THAT(same.output,
             EndsWith("\nEqual to " + dir + "/gto/report.json in every figure above: " + dir +
                      "/again/report.json\n"));

  const auto gto = nlohmann::json::parse(read_text(dir + "/gto/report.json"))["summary"];
  const auto lrr = nlohmann::json::parse(read_text(dir + "/lrr/report.json"))["summary"];
  const auto comparison = nlohmann::json::parse(read_text(dir + "/cmp/comparison.json"));
  CHECK(comparison["baseline"] == dir + "/gto/report.json");
  REQUIRE(comparison["figures"].size() == gto.size());
  for (const auto& figure : comparison["figures"]) {
    const std::string name = figure["name"];
    INFO(name);
    CHECK(figure["values"][0] == gto[name]);
    CHECK(figure["values"][1] == lrr[name]);
    if (gto[name] != 0)
      CHECK(figure["ratios"][1] == lrr[name].get<double>() / gto[name].get<double>());
  }

  const CliResult rows = run_ohmvp("compare " + dir + "/gto " + dir +
                                   "/lrr -f cycles --figure memory.mc0.read_latency.p99");
  INFO(rows.output);
  REQUIRE(rows.exit_code == 0);
  CHECK_THAT(rows.output, Contains("\ncycles ") && Contains("\nmemory.mc0.read_latency.p99  ps "));
  CHECK_THAT(rows.output, !Contains("\nipc "));

  SECTION("bad input: exit code 2, nothing written") {
    require_usage_error(run_ohmvp("compare " + dir + "/gto"), "expected at least two reports");
    // A FIFO would block the read, a device never end it.
    REQUIRE(::mkfifo((dir + "/fifo").c_str(), 0600) == 0);
    require_usage_error(run_ohmvp("compare " + dir + "/gto " + dir + "/fifo"),
                        "cannot read " + dir + "/fifo: not a regular file");
    require_usage_error(
        run_ohmvp("compare " + dir + "/gto " + dir + "/lrr --json " + dir + "/fifo"),
        "cannot write " + dir + "/fifo: not a regular file");
    require_usage_error(
        run_ohmvp("compare " + dir + "/gto " + dir + "/lrr --json " + dir + "/gto/report.json"),
        "a report compared; it would be overwritten");
    // Nor may the file the comparison is first written as, which is renamed over --json.
    std::filesystem::copy_file(dir + "/lrr/report.json", dir + "/x.tmp",
                               std::filesystem::copy_options::overwrite_existing);
    require_usage_error(run_ohmvp("compare " + dir + "/gto " + dir + "/x.tmp --json " + dir + "/x"),
                        "--json's temporary file " + dir + "/x.tmp is " + dir +
                            "/x.tmp, a report compared; it would be overwritten");
    CHECK(std::filesystem::exists(dir + "/x.tmp"));
    require_usage_error(
        run_ohmvp("compare " + dir + "/gto " + dir + "/none --json " + dir + "/bad.json"),
        "cannot read " + dir + "/none");
    require_usage_error(
        run_ohmvp("compare " + dir + "/gto " + dir + "/lrr -f ipx --json " + dir + "/bad.json"),
        "no report has a figure 'ipx'; did you mean 'ipc'?");
    require_usage_error(run_ohmvp("compare " + dir + "/gto " + dir + "/lrr --figure"),
                        "ohmvp compare: the required argument for option '--figure' is missing");
    require_usage_error(run_ohmvp("compare " + dir + "/gto " + dir + "/lrr --json " + dir + "/gto"),
                        "cannot write " + dir + "/gto: a folder, not a file");
    require_usage_error(
        run_ohmvp("compare " + dir + "/gto " + dir + "/lrr --json " + dir + "/new/"),
        "cannot write '" + dir + "/new/': no file name");
    CHECK_FALSE(std::filesystem::exists(dir + "/bad.json"));
    CHECK_FALSE(std::filesystem::exists(dir + "/gto.tmp"));
    CHECK_FALSE(std::filesystem::exists(dir + "/new"));
  }
}
