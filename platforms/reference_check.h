#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "modules/host/gpu_workload.h"
#include "testbenches/references/reference.h"

namespace ohmvp {

// What `ohmvp run --verify` found: the run's output buffers against the workload's C++ reference.
struct Verification {
  std::string reference;  // the reference's workload name
  bool matches = true;
  uint64_t mismatches = 0;  // elements outside their tolerance, over every output
  std::string message;      // per mismatched output: count and first element; empty on a match
  nlohmann::json json() const;
};

// A workload without a reference is a ConfigError when it is made, before the run. The expected
// outputs are computed by `check`, after the run: a run that ends early (its time limit) does not
// wait for a reference of its whole work, and the run's own checks of each launch come first. A
// workload whose kernels its reference does not know is a ConfigError then.
class ReferenceCheck {
 public:
  explicit ReferenceCheck(const GpuWorkload& workload);

  Verification check(const std::map<std::string, std::vector<uint8_t>>& outputs) const;

 private:
  const GpuWorkload& m_workload;
  const reference::Reference& m_reference;
};

}  // namespace ohmvp
