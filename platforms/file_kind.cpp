#include "platforms/file_kind.h"

#include "modules/common/errors.h"
#include "modules/common/json_file.h"

namespace ohmvp {

namespace {

// The first of `keys` at the top level of `root`, or none.
const char* first_key_of(const nlohmann::json& root, std::initializer_list<const char*> keys) {
  if (!root.is_object()) return nullptr;
  for (const char* key : keys)
    if (root.contains(key)) return key;
  return nullptr;
}

const char* workload_key(const nlohmann::json& root) {
  return first_key_of(root, {"traffic", "trace", "ptx", "buffers", "launches", "type"});
}

const char* platform_key(const nlohmann::json& root) {
  return first_key_of(root, {"extends", "memory", "gpu", "platform", "host"});
}

bool is_run_report(const nlohmann::json& root) {
  return root.is_object() && root.contains("schema_version") && root.contains("summary");
}

// `named`: "<file>:", or "<file>: extends <other>," when the keys came from another file.
void refuse_run_report(const nlohmann::json& root, const std::string& named) {
  if (is_run_report(root))
    throw ConfigError(named + " a run report (report.json), not a workload or platform; its " +
                      "config.platform and config.workload hold the run's, which can be saved as " +
                      "files of their own");
}

}  // namespace

bool is_other_than_json(const std::filesystem::path& file) {
  return file.extension() != ".json" && regular_file_exists(file);
}

nlohmann::json load_workload_json(const std::filesystem::path& file) {
  nlohmann::json root;
  try {
    root = load_json_file(file);
  } catch (const ConfigError& error) {
    if (!is_other_than_json(file)) throw;
    const std::string name = file.filename().string();
    if (file.extension() == ".ptx")
      throw ConfigError(std::string(error.what()) +
                        "; a workload is a JSON file (docs/workloads.md): to run a PTX module, "
                        "name it in a kernel workload, {\"ptx\": \"" +
                        name + "\", \"buffers\": ..., \"launches\": ...}");
    throw ConfigError(std::string(error.what()) +
                      "; a workload is a JSON file (docs/workloads.md): to replay a trace, name "
                      "it in a trace workload, {\"type\": \"trace\", \"trace\": {\"file\": \"" +
                      name + "\"}}");
  }
  refuse_run_report(root, file.string() + ":");
  if (const char* key = platform_key(root); key && !workload_key(root))
    throw ConfigError(file.string() + ": a platform file (it has '" + key +
                      "'), not a workload; give it with --platform");
  return root;
}

void check_not_workload(const ConfigDocument& document) {
  const nlohmann::json& root = document.json();
  const std::string file = document.file().string();
  // The keys may come from a file the platform extends: that file is the one named.
  const auto named = [&](const char* key) {
    const std::string origin = document.origin_of(key);
    return origin == file ? file + ":" : file + ": extends " + origin + ",";
  };
  refuse_run_report(root, named("schema_version"));
  if (const char* key = workload_key(root); key && !platform_key(root))
    throw ConfigError(named(key) + " a workload file (it has '" + key +
                      "'), not a platform; give it with --workload");
}

}  // namespace ohmvp
