#include <catch2/catch.hpp>

#include <sstream>

#include "modules/common/errors.h"
#include "platforms/report_comparison.h"
#include "temp_dir.h"

using Catch::Contains;
using nlohmann::json;
using ohmvp::ConfigError;
using ohmvp::LoadedReport;

namespace {

// A report as `ohmvp run` writes one, with what the comparison reads.
// Its summary: the figures every report has, then `figures`.
json report_of(const std::string& platform, const json& figures, uint64_t read_count = 10,
               const std::string& workload = "spmv", uint64_t seed = 1) {
  json summary = {{"simulated_ns", 1000},
                  {"requests", 0},
                  {"avg_latency_ns", 0},
                  {"p99_latency_ns", 0},
                  {"bandwidth_gbps", 0}};
  summary.update(figures);
  return {{"schema_version", 1},
          {"ohmvp_version", "0.1.0"},
          {"platform", platform},
          {"workload", workload},
          {"seed", seed},
          {"summary", summary},
          {"stats",
           {{"memory.mc0",
             {{"reads", {{"unit", "requests"}, {"description", "reads"}, {"value", read_count}}},
              {"read_latency",
               {{"unit", "ps"},
                {"description", "latency"},
                {"count", read_count},
                {"mean", 1500.5},
                {"p99", 4000}}}}}}},
          {"config", json::object()}};
}

LoadedReport loaded(const TempDir& dir, const std::string& name, const json& report) {
  return ohmvp::load_report(dir.write(name + "/report.json", report.dump()));
}

std::string printed(const ohmvp::Comparison& comparison) {
  std::ostringstream text;
  ohmvp::print_comparison(text, comparison);
  return text.str();
}

}  // namespace

TEST_CASE("report comparison: summary figures side by side, as ratios to the first") {
  TempDir dir("report_comparison");
  const std::vector<LoadedReport> reports{
      loaded(dir, "a", report_of("hetero_planar", {{"cycles", 200}, {"ipc", 0.5}})),
      loaded(dir, "b",
             report_of("oracle_planar",
                       {{"cycles", 100}, {"ipc", 1.0}, {"energy_j", 2e-5}, {"future_key", 3}}))};
  const ohmvp::Comparison c = ohmvp::compare_reports(reports, {});

  REQUIRE(c.labels == std::vector<std::string>{"hetero_planar", "oracle_planar"});
  // The text summary's order, then keys this version does not know; missing values stay empty.
  REQUIRE(c.rows.size() == 9);
  CHECK(c.rows[0].name == "simulated_ns");  // first, as every report has it
  const std::vector<ohmvp::ComparisonRow> rows(c.rows.begin() + 5, c.rows.end());
  CHECK(rows[0].name == "cycles");
  CHECK(rows[0].unit == "cycles");
  CHECK(rows[0].integral);
  CHECK(*rows[0].ratio(1) == Approx(0.5));
  CHECK(rows[1].name == "ipc");
  CHECK_FALSE(rows[1].integral);
  CHECK(*rows[1].ratio(1) == Approx(2.0));
  CHECK(rows[2].name == "energy_j");
  CHECK_FALSE(rows[2].values[0].has_value());
  CHECK_FALSE(rows[2].ratio(1).has_value());
  CHECK(rows[3].name == "future_key");
  CHECK(rows[3].unit.empty());

  const std::string text = printed(c);
  // Columns right-aligned, two spaces apart; "-" where a report lacks a figure or a ratio.
  CHECK_THAT(text,
             Contains("\ncycles          cycles                        200   100 (0.500x)\n"));
  CHECK_THAT(text,
             Contains("\nenergy_j        J                               -      2e-05 (-)\n"));
  CHECK_THAT(text, Contains((dir.root() / "b" / "report.json").string()));

  const json j = ohmvp::comparison_to_json(c);
  CHECK(j["baseline"] == "hetero_planar");
  CHECK(j["reports"][1]["workload"] == "spmv");
  CHECK(j["figures"][5]["values"] == json::array({200, 100}));
  CHECK(j["figures"][5]["ratios"][0] == 1.0);
  CHECK(j["figures"][5]["ratios"][1] == 0.5);
  CHECK(j["figures"][7]["values"][0].is_null());
  CHECK(j["figures"][7]["ratios"][1].is_null());

  // Ratios far from 1 keep three significant digits; one beyond a double's range is none.
  const std::vector<LoadedReport> extreme{
      loaded(dir, "c", report_of("hetero_planar", {{"ipc", 1e-310}, {"cycles", 1}})),
      loaded(dir, "d", report_of("oracle_planar", {{"ipc", 1.0}, {"cycles", 123456789}}))};
  const ohmvp::Comparison e = ohmvp::compare_reports(extreme, {});
  CHECK_FALSE(e.rows[1].ratio(1).has_value());
  CHECK_THAT(printed(e), Contains("123456789 (1.23e+08x)") && Contains("1 (-)"));

  // A value rounded to six digits that would read as a whole number keeps its zeros.
  const std::vector<LoadedReport> near_whole{
      loaded(dir, "f", report_of("hetero_planar", {{"avg_latency_ns", 295.999670449097}})),
      loaded(dir, "g", report_of("oracle_planar", {{"avg_latency_ns", 148.0}}))};
  CHECK_THAT(printed(ohmvp::compare_reports(near_whole, {})),
             Contains("296.000") && Contains(" 148 (0.500x)"));
  // Six digits that leave no room for a decimal get one, not a bare point.
  const std::vector<LoadedReport> six_digits{
      loaded(dir, "h", report_of("hetero_planar", {{"avg_latency_ns", 141619.4}})),
      loaded(dir, "i", report_of("oracle_planar", {{"avg_latency_ns", 100661.03}}))};
  const std::string six_digits_printed = printed(ohmvp::compare_reports(six_digits, {}));
  CHECK_THAT(six_digits_printed, Contains("141619.4") && Contains("100661.0 (0.711x)"));
  CHECK(six_digits_printed.find(". ") == std::string::npos);
}

TEST_CASE("report comparison: statistics by group and name, a histogram by its field") {
  TempDir dir("report_comparison");
  const std::vector<LoadedReport> reports{
      loaded(dir, "a", report_of("hetero_planar", {{"ipc", 0.5}}, 10)),
      loaded(dir, "b", report_of("hetero_planar", {{"ipc", 0.6}}, 30))};
  const ohmvp::Comparison c = ohmvp::compare_reports(
      reports,
      {"memory.mc0.reads", "memory.mc0.read_latency.mean", "memory.mc0.read_latency.count", "ipc"});
  REQUIRE(c.rows.size() == 4);
  CHECK(c.rows[0].unit == "requests");
  CHECK(*c.rows[0].ratio(1) == Approx(3.0));
  CHECK(c.rows[1].unit == "ps");
  CHECK(*c.rows[1].values[0] == 1500.5);
  CHECK(c.rows[2].unit == "samples");
  CHECK(c.rows[3].name == "ipc");
  // One platform twice: the columns are named by file.
  CHECK(c.labels[0] == (dir.root() / "a" / "report.json").string());

  CHECK_THROWS_WITH(ohmvp::compare_reports(reports, {"memory.mc0.read_latency"}),
                    Contains("'memory.mc0.read_latency' has several values") &&
                        Contains("memory.mc0.read_latency.p99"));
  // A figure named twice is one row.
  CHECK(ohmvp::compare_reports(reports, {"ipc", "ipc"}).rows.size() == 1);
  // A statistic in other units has no ratio.
  json other_units = report_of("hetero_planar", {{"ipc", 0.6}});
  other_units["stats"]["memory.mc0"]["reads"]["unit"] = "bytes";
  const std::vector<LoadedReport> mixed{reports[0], loaded(dir, "u", other_units)};
  CHECK_THROWS_WITH(
      ohmvp::compare_reports(mixed, {"memory.mc0.reads"}),
      Contains("'memory.mc0.reads' is in 'requests' in ") && Contains(" but in 'bytes' in "));
  CHECK_THROWS_WITH(ohmvp::compare_reports(reports, {"ipx"}),
                    Contains("no report has a figure 'ipx'; did you mean 'ipc'?"));
  CHECK_THROWS_WITH(ohmvp::compare_reports(reports, {"memory.mc0.raeds"}),
                    Contains("did you mean 'memory.mc0.reads'?"));
}

TEST_CASE("report comparison: columns named by workload and seed where those differ") {
  TempDir dir("report_comparison");
  const std::vector<LoadedReport> reports{
      loaded(dir, "a", report_of("oracle_planar", {{"ipc", 1}}, 1, "bfs", 1)),
      loaded(dir, "b", report_of("oracle_planar", {{"ipc", 1}}, 1, "spmv", 1)),
      loaded(dir, "c", report_of("oracle_planar", {{"ipc", 1}}, 1, "spmv", 2))};
  CHECK(ohmvp::compare_reports(reports, {}).labels ==
        std::vector<std::string>{"oracle_planar/bfs/seed1", "oracle_planar/spmv/seed1",
                                 "oracle_planar/spmv/seed2"});
  // The same file twice: numbered.
  const std::vector<LoadedReport> same{reports[0], reports[0]};
  const auto labels = ohmvp::compare_reports(same, {}).labels;
  CHECK_THAT(labels[1], Contains("report.json #2"));
  // Names from a report reach the terminal escaped.
  const std::vector<LoadedReport> odd{reports[0],
                                      loaded(dir, "e", report_of("x\x1b[2Jy", {{"ipc", 1}}))};
  CHECK_THAT(printed(ohmvp::compare_reports(odd, {})), Contains("x\\x1b[2Jy") && !Contains("\x1b"));
}

TEST_CASE("report comparison: what made each run otherwise than the first is named") {
  TempDir dir("report_comparison");
  const json kernel = {{"ptx", "spmv.ptx"},
                       {"buffers", {{"x", {{"type", "f32"}, {"managed", false}}}}}};
  auto with_config = [](json report, const json& platform, const json& workload) {
    report["config"] = {{"platform", platform}, {"workload", workload}};
    report["inputs"] = {{{"role", "ptx"}, {"file", "spmv.ptx"}, {"bytes", 10}, {"fnv1a64", "0x1"}}};
    return report;
  };
  // Another spmv.ptx: the same role, other contents; and a file the baseline did not read.
  auto with_ptx = [](json report, const char* hash) {
    report["inputs"] = {
        {{"role", "ptx"}, {"file", "spmv.ptx"}, {"bytes", 10}, {"fnv1a64", hash}},
        {{"role", "gpu1.workload"}, {"file", "w.json"}, {"bytes", 1}, {"fnv1a64", "0x3"}}};
    return report;
  };
  const json platform = {{"_source", "a note"},
                         {"memory", {{"optical", {{"waveguides", 1}}}, {"channels", 6}}}};
  json four = platform;
  four["memory"]["optical"]["waveguides"] = 4;
  four["_source"] = "another note";
  json managed = kernel;
  managed["buffers"]["x"]["managed"] = true;
  json newer = with_config(report_of("ohm_bw_planar", {{"ipc", 1}}), platform, kernel);
  newer["ohmvp_version"] = "0.2.0";
  const std::vector<LoadedReport> reports{
      loaded(dir, "a", with_config(report_of("ohm_bw_planar", {{"ipc", 1}}), platform, kernel)),
      loaded(dir, "b", with_config(report_of("ohm_bw_planar", {{"ipc", 1}}), four, kernel)),
      loaded(dir, "c", with_config(report_of("ohm_bw_planar", {{"ipc", 1}}), platform, managed)),
      loaded(dir, "d",
             with_config(report_of("ohm_bw_planar", {{"ipc", 1}}, 10, "hot"), platform,
                         {{"type", "traffic"}})),
      loaded(dir, "e", newer),
      loaded(dir, "f", with_config(report_of("ohm_bw_planar", {{"ipc", 1}}), platform, kernel)),
      loaded(dir, "g",
             with_ptx(with_config(report_of("ohm_bw_planar", {{"ipc", 1}}), platform, kernel),
                      "0x2"))};
  const ohmvp::Comparison comparison = ohmvp::compare_reports(reports, {});
  const std::string text = printed(comparison);
  // Notes are no difference; a run made as the first is not listed.
  CHECK_THAT(text,
             Contains("memory.optical.waveguides 1 -> 4\n") &&
                 Contains("workload buffers.x.managed false -> true\n") &&
                 Contains("a kernel run against memory traffic: requests, latency and "
                          "bandwidth count other things\n") &&
                 Contains("ohmvp 0.2.0, the baseline's 0.1.0\n") &&
                 Contains("input gpu1.workload the baseline has not; input ptx other than the "
                          "baseline's\n") &&
                 !Contains("note"));
  const size_t made = text.find("Made otherwise than");
  REQUIRE(made != std::string::npos);
  const std::string section = text.substr(made, text.find("\n\n", made) - made);
  CHECK_THAT(section, Contains(comparison.labels[4]) && !Contains(comparison.labels[5]));
  const json differences = ohmvp::comparison_to_json(comparison)["reports"][1]["differences"];
  CHECK(differences["platform"] ==
        json::array({{{"path", "memory.optical.waveguides"}, {"baseline", 1}, {"value", 4}}}));
  CHECK(differences["workload"] == json::array());
  CHECK(ohmvp::comparison_to_json(comparison)["reports"][4]["differences"]["version"] == true);
}

TEST_CASE("report comparison: a report's inputs must be as a run writes them") {
  TempDir dir("report_comparison");
  json report = report_of("oracle_planar", {{"ipc", 1}});
  report["inputs"] = {{{"role", 3}, {"fnv1a64", "0x1"}}};
  CHECK_THROWS_WITH(loaded(dir, "a", report),
                    Contains("inputs[0]: expected an object with the strings \"role\" and "
                             "\"fnv1a64\", as a run writes it"));
  report["inputs"] = "x";
  CHECK_THROWS_WITH(loaded(dir, "b", report), Contains("expected 'inputs' to be an array"));
}

TEST_CASE("report comparison: what is not a report is refused by name") {
  TempDir dir("report_comparison");
  const auto refused = [&](const json& report, const std::string& message) {
    const auto file = dir.write("bad.json", report.dump());
    CHECK_THROWS_WITH(ohmvp::load_report(file), Contains(file.string() + ": " + message));
  };
  json report = report_of("hetero_planar", {{"ipc", 0.5}});
  report["schema_version"] = 2;
  refused(report, "report schema version 2; this ohmvp reads version 1");
  report = report_of("hetero_planar", {{"ipc", 0.5}});
  report.erase("summary");
  refused(report, "not an ohmvp run report: expected 'summary' to be an object");
  refused(report_of("hetero_planar", {{"ipc", "fast"}}),
          "summary.ipc: expected a number, found string");
  refused(report_of("hetero_planar", {{"simulated_ns", -5}}),
          "summary.simulated_ns: -5 is negative; expected a figure >= 0, as a run writes it");
  report = report_of("hetero_planar", {{"ipc", 0.5}});
  report["summary"].erase("requests");
  refused(report, "summary.requests: missing; every run report has it");
  report = report_of("hetero_planar", {{"ipc", 0.5}});
  report["stats"]["memory.mc0"]["reads"]["value"] = true;
  refused(report, "stats.memory.mc0.reads.value: expected a number, found boolean");
  report["seed"] = -1;
  refused(report, "not an ohmvp run report: expected 'seed' to be a whole number >= 0");
  refused(json::array(), "not an ohmvp run report: not an object");
  report = report_of("hetero_planar", {{"ipc", 0.5}});
  report["stats"]["memory.mc0"]["reads"].erase("value");
  refused(report, "stats.memory.mc0.reads: expected a value (or count, mean, ...)");
  report = report_of("hetero_planar", {{"ipc", 0.5}});
  report["events"] = {{"copied", {{"records", 1}, {"ns", -3.0}}}};
  refused(report, "events.copied: expected an object whose \"ns\" is a time >= 0 or null");
  report["events"] = {{"copied", 5}};
  refused(report, "events.copied: expected an object whose \"ns\" is a time >= 0 or null");
  report["events"] = json::array();
  refused(report, "not an ohmvp run report: expected 'events' to be an object");

  CHECK_THROWS_WITH(ohmvp::load_report(dir.write("broken.json", "{\"summary\": ")),
                    Contains("broken.json:1:13: malformed JSON"));
  // A folder without a report.
  CHECK_THROWS_AS(ohmvp::load_report(dir.root()), ConfigError);
  CHECK_THROWS_WITH(ohmvp::load_report(dir.root()),
                    Contains("cannot read") && Contains("report.json"));
}
