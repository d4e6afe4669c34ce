#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace ohmvp {

// `ohmvp compare`: the figures of several run reports side by side, each also as a ratio to the
// first report's (the baseline). See docs/report.md, "Comparing reports".

struct LoadedReport {
  std::string file;  // the report.json read (a folder given names its report.json)
  std::string platform;
  std::string workload;
  uint64_t seed = 0;
  std::string version;                               // ohmvp_version
  nlohmann::json config = nlohmann::json::object();  // {"platform": ..., "workload": ...}
  nlohmann::json inputs = nlohmann::json::array();   // the files the run read (report.h)
  nlohmann::json summary;
  nlohmann::json stats;
  nlohmann::json events = nlohmann::json::object();  // a kernel workload's, by name
};

// Reads FILE, or FOLDER/report.json for a folder (what `ohmvp run --out` writes). ConfigError
// naming the file and what is wrong when it cannot be read, does not parse, or is not a report of
// this schema version.
LoadedReport load_report(const std::filesystem::path& file_or_folder);

struct ComparisonRow {
  std::string
      name;  // a summary key, or a statistic: `group.stat`, a histogram's `group.stat.field`
  std::string unit;
  bool integral = true;                       // every value present is a whole number
  std::vector<std::optional<double>> values;  // one per report; none where the report lacks it

  // values[column] / values[0]; none when either is missing or the baseline is 0.
  std::optional<double> ratio(size_t column) const;
};

struct Comparison {
  std::vector<std::string> labels;  // one distinct name per report, for the columns
  std::vector<LoadedReport> reports;
  std::vector<ComparisonRow> rows;
};

// `figures`: the rows in the order given, each a summary key or a statistic; empty means every
// summary figure any of the reports has. ConfigError for a figure no report has (with the
// closest name), or a histogram named without one of its fields.
Comparison compare_reports(std::vector<LoadedReport> reports,
                           const std::vector<std::string>& figures);

void print_comparison(std::ostream& out, const Comparison& comparison);
nlohmann::json comparison_to_json(const Comparison& comparison);

}  // namespace ohmvp
