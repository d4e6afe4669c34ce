#include "platforms/report_comparison.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <set>

#include "modules/common/closest_match.h"
#include "modules/common/errors.h"
#include "modules/common/json_file.h"
#include "platforms/report.h"
#include "platforms/run_differences.h"

namespace ohmvp {

namespace {

struct SummaryFigure {
  const char* name;
  const char* unit;
};

// The summary's figures in the order of the text summary (docs/report.md); a key this table does
// not know (a report of a later version) follows them, alphabetically, without a unit.
constexpr SummaryFigure summary_figures[] = {
    {"simulated_ns", "ns"},
    {"requests", "requests"},
    {"avg_latency_ns", "ns"},
    {"p99_latency_ns", "ns"},
    {"bandwidth_gbps", "GB/s"},
    {"cycles", "cycles"},
    {"warp_instructions", "instructions"},
    {"thread_instructions", "instructions"},
    {"ipc", "instructions/cycle"},
    {"simd_efficiency", "ratio"},
    {"memory_apki", "requests/kinstr"},
    {"memory_read_ratio", "ratio"},
    {"hmma", "instructions"},
    {"tensor_tflops", "TFLOPS"},
    {"tensor_utilization", "ratio"},
    {"migrations", "moves"},
    {"migration_bytes", "bytes"},
    {"migration_channel_share", "ratio"},
    {"dram_cache_hit_rate", "ratio"},
    {"xpoint_wear_max_over_mean", "ratio"},
    {"xpoint_media_utilisation", "ratio"},
    {"laser_power_mw", "mW"},
    {"mrr_count", "rings"},
    {"ber_max", "probability"},
    {"energy_j", "J"},
};

// Figures every run report has (report.cpp); the others belong to a GPU, a heterogeneous memory
// or an optical channel, and a run without one lacks them.
constexpr const char* every_report_figures[] = {"simulated_ns", "requests", "avg_latency_ns",
                                                "p99_latency_ns", "bandwidth_gbps"};

const SummaryFigure* known_summary_figure(const std::string& name) {
  for (const SummaryFigure& figure : summary_figures)
    if (name == figure.name) return &figure;
  return nullptr;
}

const nlohmann::json& member(const nlohmann::json& report, const std::string& file, const char* key,
                             nlohmann::json::value_t type, const char* expected) {
  const auto it = report.find(key);
  const bool integer_wanted = type == nlohmann::json::value_t::number_unsigned;
  if (it == report.end() || (integer_wanted ? !it->is_number_unsigned() : it->type() != type))
    throw ConfigError(file + ": not an ohmvp run report: expected '" + key + "' to be " + expected);
  return *it;
}

// A statistic's keys: its unit and description, and one value or several (count, mean, ...).
bool is_value_field(const std::string& key) {
  return key != "unit" && key != "description";
}

[[noreturn]] void not_a_number(const std::string& file, const std::string& path,
                               const nlohmann::json& value) {
  throw ConfigError(file + ": " + path + ": expected a number, found " + value.type_name());
}

// Every statistic an object of numbers, but for its unit and description, which are strings.
void check_statistics(const std::string& file, const nlohmann::json& stats) {
  for (const auto& [group, group_stats] : stats.items()) {
    if (!group_stats.is_object())
      throw ConfigError(file + ": stats." + group + ": expected an object of statistics");
    for (const auto& [stat, entry] : group_stats.items()) {
      const std::string path = "stats." + group + "." + stat;
      if (!entry.is_object()) throw ConfigError(file + ": " + path + ": expected an object");
      if (std::none_of(entry.items().begin(), entry.items().end(),
                       [](const auto& item) { return is_value_field(item.key()); }))
        throw ConfigError(file + ": " + path + ": expected a value (or count, mean, ...)");
      for (const auto& [key, value] : entry.items()) {
        if (!is_value_field(key)) {
          if (!value.is_string())
            throw ConfigError(file + ": " + path + "." + key + ": expected a string");
        } else if (!value.is_number()) {
          not_a_number(file, path + "." + key, value);
        }
      }
    }
  }
}

// A statistic as `group.stat` (counter, scalar) or `group.stat.field` (average, histogram): its
// value and unit in one report, or none when the report has no such statistic.
struct StatisticValue {
  double value;
  bool integral;
  std::string unit;
};

// Splits `name` into a group of `stats` and the rest; groups hold dots, statistics do not. The
// report was checked when loaded (check_statistics).
std::optional<StatisticValue> statistic_of(const nlohmann::json& stats, const std::string& name) {
  for (size_t dot = name.find('.'); dot != std::string::npos; dot = name.find('.', dot + 1)) {
    const auto group = stats.find(name.substr(0, dot));
    if (group == stats.end()) continue;
    const std::string rest = name.substr(dot + 1);
    const size_t field_dot = rest.find('.');
    const auto stat = group->find(rest.substr(0, field_dot));
    if (stat == group->end()) continue;
    const std::string unit = stat->value("unit", "");
    if (field_dot == std::string::npos) {
      const auto value = stat->find("value");
      if (value == stat->end()) {
        std::string fields;
        for (const auto& [key, field] : stat->items())
          if (is_value_field(key)) fields += (fields.empty() ? "" : ", ") + name + "." + key;
        throw ConfigError("compare: '" + name +
                          "' has several values; name one of them: " + fields);
      }
      return StatisticValue{value->get<double>(), value->is_number_integer(), unit};
    }
    const std::string field = rest.substr(field_dot + 1);
    const auto value = stat->find(field);
    if (value == stat->end() || !is_value_field(field)) continue;
    return StatisticValue{value->get<double>(), value->is_number_integer(),
                          field == "count" ? "samples" : unit};
  }
  return std::nullopt;
}

// "events.<name>": when the report's event of that name completed (ns), or none.
std::optional<double> event_time_of(const nlohmann::json& events, const std::string& name) {
  const std::string prefix = "events.";
  if (name.rfind(prefix, 0) != 0) return std::nullopt;
  const auto event = events.find(name.substr(prefix.size()));
  if (event == events.end() || !(*event)["ns"].is_number()) return std::nullopt;
  return (*event)["ns"].get<double>();
}

// Every name a report answers to, for "did you mean".
std::vector<std::string> figure_names(const std::vector<LoadedReport>& reports) {
  std::set<std::string> names;
  for (const LoadedReport& report : reports) {
    for (const auto& [key, value] : report.summary.items()) names.insert(key);
    for (const auto& [event, times] : report.events.items()) names.insert("events." + event);
    for (const auto& [group, stats] : report.stats.items()) {
      for (const auto& [stat, entry] : stats.items()) {
        if (entry.contains("value")) {
          names.insert(group + "." + stat);
          continue;
        }
        for (const auto& [key, field] : entry.items())
          if (is_value_field(key)) names.insert(group + "." + stat + "." + key);
      }
    }
  }
  return {names.begin(), names.end()};
}

ComparisonRow row_of(const std::vector<LoadedReport>& reports, const std::string& name) {
  ComparisonRow row{name, "", true, {}};
  bool found = false;
  const std::string* unit_file = nullptr;  // the report that gave the unit
  for (const LoadedReport& report : reports) {
    const auto summary_value = report.summary.find(name);
    if (summary_value != report.summary.end()) {
      const SummaryFigure* figure = known_summary_figure(name);
      if (figure != nullptr) row.unit = figure->unit;
      row.integral = row.integral && summary_value->is_number_integer();
      row.values.push_back(summary_value->get<double>());
      found = true;
      continue;
    }
    if (const std::optional<double> at = event_time_of(report.events, name)) {
      row.unit = "ns";
      row.integral = false;
      row.values.push_back(at);
      found = true;
      continue;
    }
    const std::optional<StatisticValue> statistic = statistic_of(report.stats, name);
    if (statistic) {
      // Values in other units have no ratio.
      if (unit_file && statistic->unit != row.unit)
        throw ConfigError("compare: '" + name + "' is in '" + row.unit + "' in " + *unit_file +
                          " but in '" + statistic->unit + "' in " + report.file);
      row.unit = statistic->unit;
      unit_file = &report.file;
      row.integral = row.integral && statistic->integral;
      found = true;
    }
    row.values.push_back(statistic ? std::optional<double>(statistic->value) : std::nullopt);
  }
  if (!found) {
    const std::string suggestion = closest_match(name, figure_names(reports));
    throw ConfigError("compare: no report has a figure '" + name + "'" +
                      (suggestion.empty() ? "" : "; did you mean '" + suggestion + "'?") +
                      " (a summary key, a statistic as group.name, e.g. memory.mc0.reads, or "
                      "a workload's event as events.<name>)");
  }
  return row;
}

std::vector<std::string> every_summary_figure(const std::vector<LoadedReport>& reports) {
  std::vector<std::string> names;
  for (const SummaryFigure& figure : summary_figures) {
    const bool present = std::any_of(reports.begin(), reports.end(), [&](const LoadedReport& r) {
      return r.summary.contains(figure.name);
    });
    if (present) names.push_back(figure.name);
  }
  std::set<std::string> unknown;
  for (const LoadedReport& report : reports)
    for (const auto& [key, value] : report.summary.items())
      if (known_summary_figure(key) == nullptr) unknown.insert(key);
  names.insert(names.end(), unknown.begin(), unknown.end());
  return names;
}

bool all_distinct(const std::vector<std::string>& labels) {
  return std::set<std::string>(labels.begin(), labels.end()).size() == labels.size();
}

// Platform names; with the workload where the workloads differ, the seed where seeds differ; the
// files where that still leaves two alike (one platform with other overrides).
std::vector<std::string> labels_of(const std::vector<LoadedReport>& reports) {
  auto differ = [&](auto field) {
    return std::any_of(reports.begin(), reports.end(),
                       [&](const LoadedReport& r) { return field(r) != field(reports.front()); });
  };
  const bool workloads_differ = differ([](const LoadedReport& r) { return r.workload; });
  const bool seeds_differ = differ([](const LoadedReport& r) { return r.seed; });
  std::vector<std::string> labels;
  for (const LoadedReport& report : reports) {
    std::string label = report.platform;
    if (workloads_differ) label += "/" + report.workload;
    if (seeds_differ) label += "/seed" + std::to_string(report.seed);
    labels.push_back(label);
  }
  if (all_distinct(labels)) return labels;
  labels.clear();
  for (const LoadedReport& report : reports) labels.push_back(report.file);
  if (all_distinct(labels)) return labels;
  for (size_t i = 0; i < labels.size(); ++i) labels[i] += " #" + std::to_string(i + 1);
  return labels;
}

std::string format_value(double value, bool integral) {
  char text[32];
  if (integral) {
    std::snprintf(text, sizeof text, "%.0f", value);
    return text;
  }
  std::snprintf(text, sizeof text, "%.6g", value);
  // 295.99967 shows as 296.000, not as the whole number 296; 141619.4, whose six digits leave
  // no room for a decimal ("141619."), as 141619.4.
  if (value != std::round(value) && std::strpbrk(text, ".e") == nullptr) {
    std::snprintf(text, sizeof text, "%#.6g", value);
    if (text[std::strlen(text) - 1] == '.') std::snprintf(text, sizeof text, "%.1f", value);
  }
  return text;
}

std::string format_ratio(double ratio) {
  char text[32];
  std::snprintf(text, sizeof text, std::fabs(ratio) < 1e6 ? "(%.3fx)" : "(%.3gx)", ratio);
  return text;
}

std::string cell_of(const ComparisonRow& row, size_t column) {
  if (!row.values[column]) return "-";
  std::string cell = format_value(*row.values[column], row.integral);
  if (column == 0) return cell;
  const std::optional<double> ratio = row.ratio(column);
  return cell + " " + (ratio ? format_ratio(*ratio) : std::string("(-)"));
}

void pad_right(std::ostream& out, const std::string& text, size_t width) {
  out << text << std::string(width - text.size(), ' ');
}

void pad_left(std::ostream& out, const std::string& text, size_t width) {
  out << std::string(width - text.size(), ' ') << text;
}

RunDifferences differences_from_first(const Comparison& c, size_t column) {
  const LoadedReport& first = c.reports.front();
  const LoadedReport& report = c.reports[column];
  return run_differences({first.workload, first.config, first.inputs, first.version},
                         {report.workload, report.config, report.inputs, report.version});
}

// What made each run other than the first, where anything did: the config values, the kind of
// workload, the version (the labels say which platform, workload and seed, but not whether one
// platform's file or a workload of the same name was changed).
void print_differences(std::ostream& out, const Comparison& c, size_t label_width) {
  bool header = false;
  for (size_t column = 1; column < c.reports.size(); ++column) {
    const RunDifferences d = differences_from_first(c, column);
    if (!d.any()) continue;
    if (!header) out << "\nMade otherwise than " << c.labels[0] << " (--json lists every value):\n";
    header = true;
    out << "  ";
    pad_right(out, c.labels[column], label_width);
    out << "  " << printable(d.text()) << "\n";
  }
}

}  // namespace

LoadedReport load_report(const std::filesystem::path& file_or_folder) {
  std::filesystem::path file = file_or_folder;
  std::error_code error;
  if (std::filesystem::is_directory(file, error)) file /= "report.json";
  const nlohmann::json report = load_json_file(file);
  const std::string name = file.string();
  if (!report.is_object()) throw ConfigError(name + ": not an ohmvp run report: not an object");
  using T = nlohmann::json::value_t;
  const nlohmann::json& schema =
      member(report, name, "schema_version", T::number_unsigned, "a whole number >= 0");
  if (schema.get<uint64_t>() != static_cast<uint64_t>(report_schema_version))
    throw ConfigError(name + ": report schema version " + std::to_string(schema.get<uint64_t>()) +
                      "; this ohmvp reads version " + std::to_string(report_schema_version));
  LoadedReport loaded;
  loaded.file = name;
  loaded.platform = member(report, name, "platform", T::string, "a string").get<std::string>();
  loaded.workload = member(report, name, "workload", T::string, "a string").get<std::string>();
  loaded.seed =
      member(report, name, "seed", T::number_unsigned, "a whole number >= 0").get<uint64_t>();
  loaded.version = member(report, name, "ohmvp_version", T::string, "a string").get<std::string>();
  loaded.config = member(report, name, "config", T::object, "an object");
  if (report.contains("inputs")) {
    loaded.inputs = member(report, name, "inputs", T::array, "an array");
    for (size_t i = 0; i < loaded.inputs.size(); ++i) {
      const nlohmann::json& input = loaded.inputs[i];
      const auto is_string = [&input](const char* key) {
        return input.contains(key) && input.at(key).is_string();
      };
      if (!input.is_object() || !is_string("role") || !is_string("fnv1a64"))
        throw ConfigError(name + ": inputs[" + std::to_string(i) +
                          "]: expected an object with the strings \"role\" and \"fnv1a64\", as "
                          "a run writes it");
    }
  }
  loaded.summary = member(report, name, "summary", T::object, "an object");
  loaded.stats = member(report, name, "stats", T::object, "an object");
  for (const auto& [key, value] : loaded.summary.items()) {
    if (!value.is_number()) not_a_number(name, "summary." + key, value);
    // Times, counts, rates, energies, powers: no run reports a figure below 0.
    if (value.get<double>() < 0)
      throw ConfigError(name + ": summary." + key + ": " + value.dump() +
                        " is negative; expected a figure >= 0, as a run writes it");
  }
  for (const char* key : every_report_figures)
    if (!loaded.summary.contains(key))
      throw ConfigError(name + ": summary." + key + ": missing; every run report has it");
  check_statistics(name, loaded.stats);
  if (report.contains("events")) {
    loaded.events = member(report, name, "events", T::object, "an object");
    for (const auto& [event, times] : loaded.events.items()) {
      const std::string path = "events." + event;
      const auto ns = times.is_object() ? times.find("ns") : times.end();
      if (ns == times.end() || !(ns->is_null() || (ns->is_number() && ns->get<double>() >= 0)))
        throw ConfigError(name + ": " + path +
                          ": expected an object whose \"ns\" is a time >= 0 "
                          "or null, as a run writes it");
    }
  }
  return loaded;
}

std::optional<double> ComparisonRow::ratio(size_t column) const {
  if (!values[0] || !values[column] || *values[0] == 0) return std::nullopt;
  const double ratio = *values[column] / *values[0];
  if (!std::isfinite(ratio)) return std::nullopt;  // a baseline too close to 0
  return ratio;
}

Comparison compare_reports(std::vector<LoadedReport> reports,
                           const std::vector<std::string>& figures) {
  Comparison comparison;
  comparison.labels = labels_of(reports);
  // Names from the reports go to a terminal: control characters written as \xNN.
  for (std::string& label : comparison.labels) label = printable(label);
  const std::vector<std::string> names = figures.empty() ? every_summary_figure(reports) : figures;
  std::set<std::string> shown;
  for (const std::string& name : names)
    if (shown.insert(name).second) comparison.rows.push_back(row_of(reports, name));
  comparison.reports = std::move(reports);
  return comparison;
}

void print_comparison(std::ostream& out, const Comparison& c) {
  const size_t columns = c.reports.size();
  size_t label_width = 0;
  size_t file_width = 0;
  for (size_t i = 0; i < columns; ++i) {
    label_width = std::max(label_width, c.labels[i].size());
    file_width = std::max(file_width, printable(c.reports[i].file).size());
  }
  out << "Reports (ratios are to the first):\n";
  for (size_t i = 0; i < columns; ++i) {
    const LoadedReport& report = c.reports[i];
    out << "  ";
    pad_right(out, c.labels[i], label_width);
    out << "  ";
    pad_right(out, printable(report.file), file_width);
    out << "  (" << printable(report.platform) << ", workload " << printable(report.workload)
        << ", seed " << report.seed << ")\n";
  }
  print_differences(out, c, label_width);
  out << "\n";

  std::vector<std::vector<std::string>> table;
  table.push_back({"figure", "unit"});
  for (const std::string& label : c.labels) table.back().push_back(label);
  for (const ComparisonRow& row : c.rows) {
    table.push_back({row.name, row.unit});
    for (size_t column = 0; column < columns; ++column)
      table.back().push_back(cell_of(row, column));
  }
  std::vector<size_t> widths(columns + 2, 0);
  for (const auto& line : table)
    for (size_t i = 0; i < line.size(); ++i) widths[i] = std::max(widths[i], line[i].size());
  for (const auto& line : table) {
    pad_right(out, line[0], widths[0]);
    out << "  ";
    pad_right(out, line[1], widths[1]);
    for (size_t i = 2; i < line.size(); ++i) {
      out << "  ";
      pad_left(out, line[i], widths[i]);
    }
    out << "\n";
  }
  // A ratio of 1.000x may hide a difference in the fourth digit: exact equality is said outright.
  std::vector<std::string> equal;
  for (size_t column = 1; column < columns; ++column)
    if (std::all_of(c.rows.begin(), c.rows.end(), [column](const ComparisonRow& row) {
          return row.values[column] == row.values[0];
        }))
      equal.push_back(c.labels[column]);
  if (!equal.empty()) {
    out << "\nEqual to " << c.labels[0] << " in every figure above:";
    for (const std::string& label : equal) out << " " << label;
    out << "\n";
  }
}

nlohmann::json comparison_to_json(const Comparison& c) {
  nlohmann::json json;
  json["baseline"] = c.labels.front();
  json["reports"] = nlohmann::json::array();
  for (size_t i = 0; i < c.reports.size(); ++i) {
    const LoadedReport& report = c.reports[i];
    json["reports"].push_back({{"label", c.labels[i]},
                               {"file", report.file},
                               {"platform", report.platform},
                               {"workload", report.workload},
                               {"seed", report.seed},
                               {"ohmvp_version", report.version}});
    if (i > 0) json["reports"].back()["differences"] = differences_from_first(c, i).json();
  }
  json["figures"] = nlohmann::json::array();
  for (const ComparisonRow& row : c.rows) {
    nlohmann::json values = nlohmann::json::array();
    nlohmann::json ratios = nlohmann::json::array();
    for (size_t column = 0; column < row.values.size(); ++column) {
      const auto& value = row.values[column];
      if (!value)
        values.push_back(nullptr);
      else if (row.integral)
        values.push_back(static_cast<int64_t>(std::llround(*value)));
      else
        values.push_back(*value);
      const std::optional<double> ratio = row.ratio(column);
      ratios.push_back(ratio ? nlohmann::json(*ratio) : nlohmann::json(nullptr));
    }
    json["figures"].push_back(
        {{"name", row.name}, {"unit", row.unit}, {"values", values}, {"ratios", ratios}});
  }
  return json;
}

}  // namespace ohmvp
