#include "cli_runner.h"

#include <sys/wait.h>
#include <unistd.h>
#include <array>
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>
#include <vector>

CliResult run_ohmvp(const std::string& arguments) {
  return run_shell(std::string(OHMVP_EXECUTABLE) + " " + arguments);
}

void require_usage_error(const CliResult& r, const std::string& message) {
  INFO(r.output);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output, Catch::Contains(message));
}

CliResult run_ohmvp_within(uint64_t kib, const std::string& arguments) {
  return run_shell("ulimit -v " + std::to_string(kib) + "; " + OHMVP_EXECUTABLE + " " + arguments);
}

CliResult run_shell(const std::string& shell_command) {
  const std::string command = "(" + shell_command + ") 2>&1";
  CliResult result;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return result;
  std::array<char, 4096> buffer;
  size_t n;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
    result.output.append(buffer.data(), n);
  const int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

namespace {

// The scratch folders made so far, removed when the test process ends, whether its tests passed
// or stopped at a failed REQUIRE.
struct ScratchFolders {
  std::vector<std::filesystem::path> made;
  ~ScratchFolders() {
    for (const auto& dir : made) {
      std::error_code ignored;
      std::filesystem::remove_all(dir, ignored);
    }
  }
};

ScratchFolders& scratch_folders() {
  static ScratchFolders folders;
  return folders;
}

}  // namespace

std::string scratch_dir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("ohmvp_cli_" + std::to_string(getpid()) + "_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  scratch_folders().made.push_back(dir);
  return dir.string();
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string shipped(const std::string& relative) {
  return std::string(OHMVP_SOURCE_DIR) + "/" + relative;
}

nlohmann::json shipped_kernel_workload(const std::string& name) {
  const std::filesystem::path file =
      std::filesystem::path(shipped("testbenches/workloads")) / (name + ".json");
  auto workload = nlohmann::json::parse(read_text(file.string()));
  workload["ptx"] =
      (file.parent_path() / workload["ptx"].get<std::string>()).lexically_normal().string();
  return workload;
}

nlohmann::json vecadd_streams_timed() {
  auto workload = shipped_kernel_workload("vecadd_streams");
  auto& steps = workload["launches"];  // a loop over the chunks, then a synchronize
  steps.insert(steps.end() - 1,
               nlohmann::json::parse(R"({"record": {"event": "end", "stream": 4}})"));
  return workload;
}
