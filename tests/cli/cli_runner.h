#pragma once

#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

// Runs the ohmvp executable as a user would, capturing exit code and output.
struct CliResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

CliResult run_ohmvp(const std::string& arguments);
// The same with the process's address space limited to `kib` KiB (ulimit -v).
CliResult run_ohmvp_within(uint64_t kib, const std::string& arguments);
CliResult run_shell(const std::string& shell_command);
// Checks a refusal of bad input: exit code 2 and `message` in the output (shown on failure).
void require_usage_error(const CliResult& r, const std::string& message);

// A fresh empty folder for one test's files, removed when the test process ends.
std::string scratch_dir(const std::string& name);
void write_text(const std::string& path, const std::string& text);
std::string read_text(const std::string& path);
// DIR/d/NAME.bin, a run's --dump (into DIR/d) of output buffer NAME, as `count` values of T.
template <class T>
std::vector<T> read_dump(const std::string& dir, const std::string& name, size_t count) {
  const std::string bytes = read_text(dir + "/d/" + name + ".bin");
  REQUIRE(bytes.size() == count * sizeof(T));
  std::vector<T> values(count);
  std::memcpy(values.data(), bytes.data(), bytes.size());
  return values;
}

// A path in the source tree.
std::string shipped(const std::string& relative);
// A shipped kernel workload (testbenches/workloads/NAME.json) with its PTX path made absolute,
// so that a test can change it and write it anywhere.
nlohmann::json shipped_kernel_workload(const std::string& name);
// The shipped vecadd_streams recording an event "end" on its last stream, behind its last copy.
nlohmann::json vecadd_streams_timed();

// A --set that lets a planar platform swap the pages of a streaming kernel such as vecadd: its
// pages are read once per burst, as often as the DRAM residents (the kernel's first pages, which
// start in DRAM), so they never lead them by the shipped margin (128), and tests of what swaps
// carry need some.
inline const char* k_swap_streamed_pages = " --set memory.hetero.hot_page.margin=0 ";
