#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace ohmvp {

// Where the shipped configs and workloads live: $OHMVP_HOME if set; else the installed package's
// data folder (share/ohmvp), found from the program that uses it (below) or from the installed
// ohmvp executable's folder, wherever the package was installed or moved to; else the source
// tree the library was built from while it exists; else the data folder of the configured
// install prefix.
std::filesystem::path ohmvp_home();
// A program built against the installed package says where the package's data folder is (its
// CMake package defines OHMVP_PACKAGE_DATADIR for it); true.
bool set_package_home(const char* data_dir);
#ifdef OHMVP_PACKAGE_DATADIR
inline const bool package_home_set = set_package_home(OHMVP_PACKAGE_DATADIR);
#endif
std::filesystem::path configs_dir();
std::filesystem::path platforms_dir();
std::filesystem::path workloads_dir();

constexpr const char* default_platform = "gpu_small";

// NAME (a shipped platform or workload; a workload in a subfolder of the workloads is named with
// it, managed/spmv) or FILE (a path to a .json file). An unknown name is a ConfigError that lists
// what ships and suggests the closest name.
std::filesystem::path resolve_platform(const std::string& name_or_file);
std::filesystem::path resolve_workload(const std::string& name_or_file);

std::vector<std::string> list_platforms();
std::vector<std::string> list_workloads();

}  // namespace ohmvp
