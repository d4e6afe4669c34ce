#pragma once

#include <string>

// Runs the ohmvp executable as a user would, capturing exit code and output.
struct CliResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

CliResult run_ohmvp(const std::string& arguments);

// A fresh empty folder for one test's files.
std::string scratch_dir(const std::string& name);
void write_text(const std::string& path, const std::string& text);
std::string read_text(const std::string& path);
