#include "platforms/workload.h"

#include <algorithm>

#include "modules/common/config_document.h"
#include "modules/common/config_reader.h"
#include "modules/common/json_file.h"
#include "modules/host/trace_reader.h"
#include "modules/host/traffic_pattern.h"
#include "platforms/file_kind.h"

namespace ohmvp {

namespace {

enum class WorkloadType { traffic, trace, kernel };

void load_traffic(const ConfigReader& reader, uint64_t seed, Workload& w) {
  TrafficConfig traffic;
  traffic.seed = seed;
  parse(reader, traffic);
  w.max_outstanding = traffic.max_outstanding;
  w.largest_request = traffic.size;
  w.last_byte = traffic.base + (traffic.range - 1);
  w.reach_source = reader.origin_prefix(reader.path() + ".range") + reader.path() + ".base + range";
  w.size_source = reader.origin_prefix(reader.path() + ".size") + reader.path() + ".size";
  w.source = std::make_unique<TrafficGenerator>(traffic);
}

void load_trace(const ConfigReader& reader, const std::filesystem::path& folder, Workload& w) {
  reader.finish({"file", "max_outstanding"});  // a misspelt "file" is named as such
  std::string file;
  reader.get("file", file);
  if (file.empty()) reader.fail("file", "expected the path of a trace file");
  reader.get("max_outstanding", w.max_outstanding, 1u, 4096u);
  reader.finish();
  const std::filesystem::path path =
      std::filesystem::path(file).is_absolute() ? std::filesystem::path(file) : folder / file;
  if (!regular_file_exists(path))
    reader.fail("file", "cannot read trace " + path.string() + ": " + why_not_a_file(path));
  auto trace = std::make_unique<TraceSource>(path);
  w.trace_file = path;
  const TraceReach& reach = trace->reach();
  w.largest_request = reach.largest_size;
  w.last_byte = reach.last_byte;
  w.reach_source = "trace " + path.string() + ":" + std::to_string(reach.last_byte_line);
  w.size_source = "trace " + path.string() + ":" + std::to_string(reach.largest_size_line);
  w.source = std::move(trace);
}

}  // namespace

Workload load_workload(const std::filesystem::path& file, uint64_t seed) {
  Workload w;
  w.name = file.stem().string();
  w.json = load_workload_json(file);
  const ConfigDocument document(w.json, file.string());
  const ConfigReader root(document.json(), "", &document);
  root.get("name", w.name);
  if (w.name.empty())
    root.fail("name", "is empty; expected the workload's name (or leave it out: the file's)");
  std::string description;
  root.get("description", description);
  WorkloadType type = WorkloadType::traffic;
  // "kernel" is listed so that a misspelt type is told every type there is.
  root.get_enum("type", type,
                {{"traffic", WorkloadType::traffic},
                 {"trace", WorkloadType::trace},
                 {"kernel", WorkloadType::kernel}});
  if (type == WorkloadType::kernel)
    root.fail("type", "a kernel workload, not memory traffic (load_gpu_workload reads it)");
  // The section of the type first, then any other key is an error (a "traffic" section in a trace
  // workload says more than a missing trace file would).
  const char* section_key = type == WorkloadType::traffic ? "traffic" : "trace";
  const ConfigReader section = root.child(section_key);
  root.finish();
  // Without its section a workload would run on every default: a file of the wrong kind, or one
  // cut short.
  if (!root.has(section_key))
    root.fail(section_key, std::string("required: the ") +
                               (type == WorkloadType::traffic ? "traffic generator's" : "trace's") +
                               " settings, an object");
  if (type == WorkloadType::traffic) {
    load_traffic(section, seed, w);
  } else {
    load_trace(section, file.parent_path(), w);
  }
  return w;
}

}  // namespace ohmvp
