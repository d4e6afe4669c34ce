#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "modules/host/gpu_workload.h"
#include "testbenches/references/reference.h"

namespace ohmvp {

// What `ohmvp run --verify` found: the run's output buffers against the workload's C++ reference
// or against the expected contents its file gives.
struct Verification {
  std::string reference;  // the C++ reference's workload name; empty against the file's values
  std::string against;    // "the C++ reference of 'vecadd'", "the expected values of w.json"
  std::vector<std::string> checked;  // the outputs compared
  // Elements outside their tolerance over every output checked, and per mismatched output its
  // count and first element.
  reference::Comparison result;
  bool matches() const { return result.matches; }
  nlohmann::json json() const;
};

// A workload with neither expected values ("expected") nor a C++ reference is a ConfigError when
// it is made, before the run. A C++ reference's expected outputs are computed by `check`, after
// the run: a run that ends early (its time limit) does not wait for a reference of its whole
// work, and the run's own checks of each launch come first. A workload whose kernels its
// reference does not know is a ConfigError then. A workload that gives expected values is
// checked against them alone, on the outputs they name.
class ReferenceCheck {
 public:
  explicit ReferenceCheck(const GpuWorkload& workload);

  Verification check(const std::map<std::string, std::vector<uint8_t>>& outputs) const;

 private:
  Verification check_expected(const std::map<std::string, std::vector<uint8_t>>& outputs) const;

  const GpuWorkload& m_workload;
  const reference::Reference* m_reference;  // null when the workload gives expected values
};

}  // namespace ohmvp
