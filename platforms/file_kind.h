#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

namespace ohmvp {

// A platform file given as a workload, a workload given as a platform, or a trace given as a
// workload is told so, rather than failing on its first unknown key or on malformed JSON.

// A workload file's JSON (load_json_file); ConfigError naming the mix-up when it is a platform
// file, or not JSON and not named .json (a trace, most likely).
nlohmann::json load_workload_json(const std::filesystem::path& file);

// ConfigError when the platform document `root`, read from `file`, is a workload's.
void check_not_workload(const nlohmann::json& root, const std::string& file);

}  // namespace ohmvp
