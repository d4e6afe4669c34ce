#pragma once

#include <cstdint>

namespace ohmvp {

class ConfigReader;

// A copy link (PCIe, NVLink): one copy of `bytes` holds it for latency + bytes / bandwidth.
struct LinkConfig {
  double bandwidth_gb_per_s;
  double latency_ns;

  uint64_t transfer_ps(uint64_t bytes) const;
};

// bandwidth_gb_per_s and latency_ns, range-checked; unknown keys are errors.
void parse(const ConfigReader& reader, LinkConfig& config);

}  // namespace ohmvp
