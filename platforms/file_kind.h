#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "modules/common/config_document.h"
#include "modules/common/errors.h"

namespace ohmvp {

// A platform file given as a workload, a workload given as a platform, or a trace given as a
// workload is told so, rather than failing on its first unknown key or on malformed JSON.

// A workload file's JSON (load_json_file); ConfigError naming the mix-up when it is a platform
// file, or not JSON and not named .json (a trace, most likely).
nlohmann::json load_workload_json(const std::filesystem::path& file);

// ConfigError when the platform `document` is a workload's, naming the file that made it one (the
// platform file, or a workload file it extends).
void check_not_workload(const ConfigDocument& document);

// A regular file not named .json: when it does not parse, a trace or a PTX module most likely.
bool is_other_than_json(const std::filesystem::path& file);

// Runs `load` (reading the platform `file`); a file that is not JSON and not named .json (a trace
// or a PTX module, most likely) adds to the parser's message what a platform is.
template <class Load>
auto load_platform_json(const std::filesystem::path& file, Load&& load) {
  try {
    return load();
  } catch (const ConfigError& error) {
    if (!is_other_than_json(file)) throw;
    throw ConfigError(
        std::string(error.what()) +
        "; a platform is a JSON file (configs/platforms/, README \"Configuration\"), given "
        "with --platform; traces and PTX modules go in a workload, with --workload");
  }
}

}  // namespace ohmvp
