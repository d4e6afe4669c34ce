// SIMD efficiency versus warp size for the shipped kernel workloads (docs/results.md).
//   simd_efficiency [--workloads DIR] [--warp-sizes 4,8,16,32,64] [--csv FILE] [NAME ...]
// NAMEs pick workloads of DIR by file stem; without them every kernel workload runs.

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <systemc>  // sc_main's declaration (C linkage)

#include "modules/common/errors.h"
#include "modules/host/simd_efficiency_experiment.h"

namespace {

int usage(const std::string& problem) {
  std::cerr << "simd_efficiency: " << problem
            << "\nusage: simd_efficiency [--workloads DIR] [--warp-sizes 4,8,16,32,64] "
               "[--csv FILE] [NAME ...]\n";
  return 2;
}

}  // namespace

int sc_main(int argc, char** argv) {
  std::filesystem::path folder =
      std::filesystem::path(OHMVP_SOURCE_DIR) / "testbenches" / "workloads";
  std::vector<uint32_t> warp_sizes{4, 8, 16, 32, 64};
  std::string csv_file;
  std::vector<std::string> names;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--workloads" && has_value) {
      folder = argv[++i];
    } else if (arg == "--csv" && has_value) {
      csv_file = argv[++i];
    } else if (arg == "--warp-sizes" && has_value) {
      warp_sizes.clear();
      std::stringstream list(argv[++i]);
      std::string item;
      while (std::getline(list, item, ',')) {
        char* end = nullptr;
        const unsigned long size = std::strtoul(item.c_str(), &end, 10);
        if (item.empty() || *end != '\0' || size < 4 || size > 64)
          return usage("--warp-sizes: '" + item + "' is not a warp size in 4..64");
        warp_sizes.push_back(static_cast<uint32_t>(size));
      }
      if (warp_sizes.empty()) return usage("--warp-sizes: empty list");
    } else if (arg == "--help" || arg == "-h") {
      return usage("SIMD efficiency versus warp size");
    } else if (!arg.empty() && arg[0] == '-') {
      return usage("unknown or incomplete option '" + arg + "'");
    } else {
      names.push_back(arg);
    }
  }
  try {
    std::vector<std::filesystem::path> files;
    if (names.empty()) {
      // The experiment varies the warp size: workloads tied to 32-lane warps stay out.
      for (const auto& file : ohmvp::kernel_workload_files(folder)) {
        if (ohmvp::runs_at_any_warp_size(file)) files.push_back(file);
      }
    } else {
      for (const std::string& name : names) files.push_back(folder / (name + ".json"));
    }
    if (files.empty()) return usage("no kernel workloads in " + folder.string());
    const auto rows = ohmvp::measure_simd_efficiency(files, warp_sizes);
    std::cout << ohmvp::simd_efficiency_table(rows);
    if (!csv_file.empty()) {
      std::ofstream out(csv_file, std::ios::binary);
      out << ohmvp::simd_efficiency_csv(rows);
      if (!out) {
        std::cerr << "simd_efficiency: cannot write " << csv_file << "\n";
        return 2;
      }
    }
  } catch (const ohmvp::ConfigError& error) {
    std::cerr << "simd_efficiency: " << error.what() << "\n";
    return 2;
  } catch (const std::exception& error) {
    std::cerr << "simd_efficiency: " << error.what() << "\n";
    return 1;
  }
  return 0;
}
