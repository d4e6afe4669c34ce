#pragma once

#include <stdexcept>
#include <string>

namespace ohmvp {

// Bad input from the user: config, command line, workload or trace file. The CLI exits with 2.
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A failure while simulating: a timing violation, a data mismatch, a device fault. Exit code 1.
class SimulationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace ohmvp
