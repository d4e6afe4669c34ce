#pragma once

// The shipped platform files as the platform tests read them, and a platform's error after an
// edit of its resolved document.
#include <catch2/catch.hpp>

#include <filesystem>
#include <functional>
#include <string>

#include "modules/common/config_document.h"
#include "modules/common/errors.h"
#include "platforms/platform_config.h"

namespace ohmvp::test {

inline std::filesystem::path configs_dir() {
  return std::filesystem::path(OHMVP_SOURCE_DIR) / "configs";
}

inline ConfigDocument load_platform(const std::string& name) {
  return ConfigDocument::load(configs_dir() / "platforms" / (name + ".json"), {configs_dir()});
}

inline PlatformConfig parse_shipped(const std::string& name) {
  return parse_platform(load_platform(name));
}

// The ConfigError's message once `edit` has changed `platform`'s resolved document; a failed
// test if there is none.
inline std::string error_of(const std::string& platform,
                            const std::function<void(nlohmann::json&)>& edit) {
  nlohmann::json root = load_platform(platform).json();
  edit(root);
  try {
    parse_platform(ConfigDocument(root));
  } catch (const ConfigError& e) {
    return e.what();
  }
  FAIL("expected a ConfigError");
  return "";
}

}  // namespace ohmvp::test
