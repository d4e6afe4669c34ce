#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

namespace ohmvp::test {

inline std::filesystem::path kernels_dir() {
  return std::filesystem::path(OHMVP_SOURCE_DIR) / "testbenches" / "kernels";
}
inline std::filesystem::path workloads_dir() {
  return std::filesystem::path(OHMVP_SOURCE_DIR) / "testbenches" / "workloads";
}

// A folder in the temp directory for workload files, removed with everything in it at the end.
class TempFolder {
 public:
  TempFolder()
      : m_path(
            std::filesystem::temp_directory_path() /
            ("ohmvp_gpu_workload_" + std::to_string(::getpid()) + "_" + std::to_string(s_next++))) {
    std::filesystem::create_directories(m_path);
  }
  ~TempFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(m_path, ignored);
  }
  const std::filesystem::path& path() const { return m_path; }

  std::filesystem::path write(const std::string& name, const std::string& text) const {
    std::ofstream(m_path / name, std::ios::binary) << text;
    return m_path / name;
  }

 private:
  static inline int s_next = 0;
  std::filesystem::path m_path;
};

// The issue's example workload, with the PTX named by absolute path.
inline nlohmann::json example_workload() {
  nlohmann::json w = nlohmann::json::parse(R"({
    "ptx": "vecadd.ptx",
    "buffers": {
      "a": {"type": "f32", "count": 1024, "init": {"random": {"seed": 1, "min": -1, "max": 1}}},
      "b": {"type": "f32", "count": 1024, "init": {"random": {"seed": 2, "min": -1, "max": 1}}},
      "c": {"type": "f32", "count": 1024, "init": "zero"}},
    "launches": [{"kernel": "vecadd", "grid": [4, 1, 1], "block": [256, 1, 1], "shared_bytes": 0,
                  "args": [{"buffer": "a"}, {"buffer": "b"}, {"buffer": "c"}, {"u32": 1024}]}],
    "outputs": ["c"]})");
  w["ptx"] = (kernels_dir() / "vecadd.ptx").string();
  return w;
}

}  // namespace ohmvp::test
