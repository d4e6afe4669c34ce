#include "platforms/run_differences.h"

#include <algorithm>
#include <filesystem>
#include <map>

#include "modules/common/config_reader.h"
#include "modules/common/errors.h"
#include "modules/host/gpu_workload.h"

namespace ohmvp {

namespace {

void collect(const nlohmann::json* a, const nlohmann::json* b, const std::string& path,
             std::vector<DifferingValue>& out) {
  const bool objects = a && b && a->is_object() && b->is_object();
  if (!objects) {
    if (!a || !b || *a != *b)
      out.push_back({path, a ? *a : nlohmann::json(nullptr), b ? *b : nlohmann::json(nullptr)});
    return;
  }
  std::vector<std::string> keys;
  for (const auto& item : a->items()) keys.push_back(item.key());
  for (const auto& item : b->items())
    if (!a->contains(item.key())) keys.push_back(item.key());
  std::sort(keys.begin(), keys.end());
  for (const std::string& key : keys) {
    if (is_config_note(key)) continue;
    const auto in_a = a->find(key);
    const auto in_b = b->find(key);
    collect(in_a == a->end() ? nullptr : &*in_a, in_b == b->end() ? nullptr : &*in_b,
            path.empty() ? key : path + "." + key, out);
  }
}

std::string shown(const nlohmann::json& value) {
  return value.is_null() ? "(none)" : excerpt(value.dump(), 40);
}

std::string values_text(const char* document, const std::vector<DifferingValue>& values,
                        size_t most) {
  std::string text = std::string(document) + " ";
  for (size_t i = 0; i < values.size() && i < most; ++i)
    text += (i == 0 ? "" : ", ") + values[i].path + " " + shown(values[i].baseline) + " -> " +
            shown(values[i].value);
  if (values.size() > most) text += " (and " + std::to_string(values.size() - most) + " more)";
  return text;
}

nlohmann::json values_json(const std::vector<DifferingValue>& values) {
  nlohmann::json list = nlohmann::json::array();
  for (const DifferingValue& v : values)
    list.push_back({{"path", v.path}, {"baseline", v.baseline}, {"value", v.value}});
  return list;
}

// The leaves of `a` and `b` (objects by key, arrays whole) whose values differ.
std::vector<DifferingValue> differing_values(const nlohmann::json& a, const nlohmann::json& b) {
  std::vector<DifferingValue> out;
  collect(&a, &b, "", out);
  return out;
}

// The inputs, by role, whose contents differ or which only one of the runs read.
std::vector<std::string> differing_inputs(const nlohmann::json& baseline,
                                          const nlohmann::json& run) {
  const auto hashes = [](const nlohmann::json& inputs) {
    std::map<std::string, std::string> by_role;
    for (const nlohmann::json& input : inputs)  // load_report checked their shape
      by_role[input.at("role").get<std::string>()] = input.at("fnv1a64").get<std::string>();
    return by_role;
  };
  const std::map<std::string, std::string> before = hashes(baseline), after = hashes(run);
  std::vector<std::string> texts;
  for (const auto& [role, hash] : after) {
    const auto found = before.find(role);
    if (found == before.end())
      texts.push_back("input " + role + " the baseline has not");
    else if (found->second != hash)
      texts.push_back("input " + role + " other than the baseline's");
  }
  for (const auto& [role, hash] : before)
    if (after.count(role) == 0) texts.push_back("no input " + role + ", which the baseline has");
  return texts;
}

}  // namespace

RunDifferences run_differences(const RunOrigin& baseline, const RunOrigin& run) {
  const auto part = [](const nlohmann::json& c, const char* key) {
    return c.is_object() && c.contains(key) ? c.at(key) : nlohmann::json::object();
  };
  RunDifferences d;
  d.platform = differing_values(part(baseline.config, "platform"), part(run.config, "platform"));
  // The labels name the platforms already.
  const auto naming = [](const DifferingValue& v) {
    return v.path == "platform.name" || v.path == "platform.description";
  };
  d.platform.erase(std::remove_if(d.platform.begin(), d.platform.end(), naming), d.platform.end());
  const nlohmann::json baseline_workload = part(baseline.config, "workload");
  const nlohmann::json workload = part(run.config, "workload");
  d.kind = is_kernel_workload(baseline_workload) != is_kernel_workload(workload);
  if (!d.kind && baseline.workload == run.workload)
    d.workload = differing_values(baseline_workload, workload);
  d.inputs = differing_inputs(baseline.inputs, run.inputs);
  d.baseline_version = baseline.version;
  d.version = run.version;
  return d;
}

std::string RunDifferences::text(size_t most) const {
  std::vector<std::string> parts;
  if (kind)
    parts.push_back(
        "a kernel run against memory traffic: requests, latency and bandwidth count other things");
  if (!platform.empty()) parts.push_back(values_text("platform", platform, most));
  if (!workload.empty()) parts.push_back(values_text("workload", workload, most));
  parts.insert(parts.end(), inputs.begin(), inputs.end());
  if (version != baseline_version)
    parts.push_back("ohmvp " + version + ", the baseline's " + baseline_version);
  std::string text;
  for (const std::string& p : parts) text += (text.empty() ? "" : "; ") + p;
  return text;
}

nlohmann::json RunDifferences::json() const {
  return {{"platform", values_json(platform)},
          {"workload", values_json(workload)},
          {"inputs", inputs},
          {"kind", kind},
          {"version", version != baseline_version}};
}

}  // namespace ohmvp
