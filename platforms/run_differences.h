#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ohmvp {

// One value that differs between what made two runs: its dotted path in the platform config or
// the workload document, and the value in each (null where one lacks it).
struct DifferingValue {
  std::string path;
  nlohmann::json baseline;
  nlohmann::json value;
};

// How a run differs from a baseline run in what made it, as their reports record it: the platform
// config's and the workload document's values (notes such as "_source" left out; the workload's
// only for two workloads of one name and kind: other workloads differ throughout), the kind of
// workload (kernels or memory traffic) and the ohmvp version.
struct RunDifferences {
  std::vector<DifferingValue> platform;
  std::vector<DifferingValue> workload;
  // The inputs (report.h) whose contents differ, by role, or which one run alone read:
  // "input ptx other than the baseline's", "input gpu1.workload the baseline has not".
  std::vector<std::string> inputs;
  bool kind = false;  // a kernel run against a memory-traffic run
  std::string baseline_version, version;

  bool any() const {
    return !platform.empty() || !workload.empty() || !inputs.empty() || kind ||
           baseline_version != version;
  }
  // "platform: memory.optical.waveguides 1 -> 4 (and 2 more); ohmvp 0.0.9, the baseline's 0.1.0"
  // showing at most `most` values of each document.
  std::string text(size_t most = 3) const;
  nlohmann::json json() const;
};

// `config` is a report's "config" object ({"platform": ..., "workload": ...}).
struct RunOrigin {
  std::string workload;          // its name
  const nlohmann::json& config;  // the report's "config"
  const nlohmann::json& inputs;  // the report's "inputs" (report.h, inputs_json)
  std::string version;           // ohmvp_version
};
RunDifferences run_differences(const RunOrigin& baseline, const RunOrigin& run);

}  // namespace ohmvp
