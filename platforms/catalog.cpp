#include "platforms/catalog.h"

#include <algorithm>
#include <cstdlib>

#include "modules/common/closest_match.h"
#include "modules/common/errors.h"
#include "modules/common/json_file.h"

namespace ohmvp {

namespace fs = std::filesystem;

namespace {

std::string& package_home() {
  static std::string home;
  return home;
}

bool has_configs(const fs::path& dir) {
  std::error_code unreadable;  // a folder that cannot be looked at is not the one to use
  return !dir.empty() && fs::is_directory(dir / "configs", unreadable);
}

// <prefix>/share/ohmvp beside the running <prefix>/bin/ohmvp; empty for any other program.
fs::path beside_installed_executable() {
  std::error_code unreadable;
  const fs::path executable = fs::read_symlink("/proc/self/exe", unreadable);
  if (unreadable || executable.parent_path().filename() != "bin") return {};
  return executable.parent_path().parent_path() / "share" / "ohmvp";
}

}  // namespace

bool set_package_home(const char* data_dir) {
  package_home() = data_dir;
  return true;
}

fs::path ohmvp_home() {
  if (const char* home = std::getenv("OHMVP_HOME"); home != nullptr && *home != '\0') {
    if (!has_configs(home))
      throw ConfigError(std::string("OHMVP_HOME is ") + home +
                        ", which has no configs folder; point it at an OhmVP tree or an "
                        "installed share/ohmvp, or unset it");
    return home;
  }
  // An installed copy reads what `cmake --install` placed, wherever that is now; a build runs
  // from its source tree.
  for (const fs::path& dir :
       {fs::path(package_home()), beside_installed_executable(), fs::path(OHMVP_SOURCE_DIR)})
    if (has_configs(dir)) return dir;
  return OHMVP_INSTALL_DATADIR;
}

fs::path configs_dir() {
  return ohmvp_home() / "configs";
}
fs::path platforms_dir() {
  return configs_dir() / "platforms";
}
fs::path workloads_dir() {
  return ohmvp_home() / "testbenches" / "workloads";
}

static std::vector<std::string> json_stems(const fs::path& dir) {
  std::vector<std::string> names;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(dir, error)) {
    std::error_code unknown;  // a folder named x.json is none
    if (entry.path().extension() == ".json" && entry.is_regular_file(unknown))
      names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<std::string> list_platforms() {
  return json_stems(platforms_dir());
}
std::vector<std::string> list_workloads() {
  std::vector<std::string> names = json_stems(workloads_dir());
  // Variants in subfolders (managed/, x16/, ...) are named with their folder: managed/spmv.
  std::error_code error;
  std::vector<fs::path> folders;
  for (const auto& entry : fs::directory_iterator(workloads_dir(), error)) {
    std::error_code unknown;
    if (entry.is_directory(unknown)) folders.push_back(entry.path());
  }
  std::sort(folders.begin(), folders.end());
  for (const fs::path& folder : folders)
    for (const std::string& stem : json_stems(folder))
      names.push_back(folder.filename().string() + "/" + stem);
  return names;
}

static fs::path resolve(const std::string& name_or_file, const fs::path& dir, const char* what,
                        const std::vector<std::string>& shipped) {
  const fs::path given(name_or_file);
  const bool looks_like_file = given.has_parent_path() || given.extension() == ".json";
  if (looks_like_file) {
    // A shipped variant in a subfolder is named without its .json: managed/spmv.
    const fs::path variant = dir / (name_or_file + ".json");
    if (!regular_file_exists(given) && given.extension() != ".json" && given.is_relative() &&
        regular_file_exists(variant))
      return variant;
    if (!regular_file_exists(given)) {
      std::string message = std::string("cannot read ") + what + " file " +
                            excerpt(name_or_file, 200) + ": " + why_not_a_file(given);
      // A shipped variant's name mistyped (managed/spvm), or written as a file (managed/spmv.json,
      // which names a file of the working folder).
      const bool as_file = given.extension() == ".json";
      const std::string name =
          as_file ? (given.parent_path() / given.stem()).string() : name_or_file;
      if (given.is_relative())
        if (const std::string close = closest_match(name, shipped); !close.empty())
          message +=
              "; did you mean '" + close + "'" +
              (as_file ? std::string(", the shipped ") + what + " (named without .json)" : "") +
              "?";
      throw ConfigError(message);
    }
    return given;
  }
  const fs::path candidate = dir / (name_or_file + ".json");
  if (regular_file_exists(candidate)) return candidate;
  std::string message = std::string("unknown ") + what + " '" + excerpt(name_or_file) + "'";
  // A name is looked up among the shipped files only: a file of that name here is a path.
  const fs::path here = fs::path(".") / (name_or_file + ".json");
  const fs::path here_as_given = fs::path(".") / name_or_file;  // a trace, say
  const std::string close = closest_match(name_or_file, shipped);
  if (regular_file_exists(here))
    message += "; did you mean " + here.string() + ", the file here?";
  else if (regular_file_exists(here_as_given))
    message += "; did you mean " + here_as_given.string() + ", the file here?";
  else if (!close.empty())
    message += "; did you mean '" + close + "'?";
  if (shipped.empty()) {
    message += " (" + dir.string() +
               " holds none: is OhmVP installed there? Set OHMVP_HOME to its share/ohmvp; or "
               "give a path to a .json file)";
    throw ConfigError(message);
  }
  message += " (expected one of: ";
  for (size_t i = 0; i < shipped.size(); ++i) message += (i ? ", " : "") + shipped[i];
  message += "; or a path to a .json file)";
  throw ConfigError(message);
}

fs::path resolve_platform(const std::string& name_or_file) {
  return resolve(name_or_file, platforms_dir(), "platform", list_platforms());
}

fs::path resolve_workload(const std::string& name_or_file) {
  return resolve(name_or_file, workloads_dir(), "workload", list_workloads());
}

}  // namespace ohmvp
