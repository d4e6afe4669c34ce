#pragma once

#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "modules/host/memory_request.h"

namespace ohmvp {

// A workload file (testbenches/workloads/<name>.json) turned into a request source:
//   {"type": "traffic", "traffic": {...TrafficConfig...}}
//   {"type": "trace", "trace": {"file": "x.trace", "max_outstanding": 64}}
// Relative paths resolve against the workload file's folder.
struct Workload {
  std::string name;
  nlohmann::json json;
  std::unique_ptr<RequestSource> source;
  uint32_t max_outstanding = 64;
  uint32_t largest_request = 0;      // bytes
  std::filesystem::path trace_file;  // trace workloads: the file the requests come from
  uint64_t last_byte = 0;    // the highest byte any request touches (one past it may be 2^64)
  std::string reach_source;  // what sets last_byte, for messages: "<file>: traffic.range", a trace
  std::string size_source;   // what sets largest_request, likewise: "<file>: traffic.size", a trace
};

// `seed` is the run's seed; a traffic workload uses it unless it names its own.
Workload load_workload(const std::filesystem::path& file, uint64_t seed);

}  // namespace ohmvp
