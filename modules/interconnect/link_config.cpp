#include "modules/interconnect/link_config.h"

#include <cmath>

#include "modules/common/config_reader.h"

namespace ohmvp {

uint64_t LinkConfig::transfer_ps(uint64_t bytes) const {
  // bytes / (GB/s) gives ns; * 1000 for ps.
  return static_cast<uint64_t>(
      std::llround(latency_ns * 1000.0 + static_cast<double>(bytes) / bandwidth_gb_per_s * 1000.0));
}

void parse(const ConfigReader& reader, LinkConfig& config) {
  reader.get("bandwidth_gb_per_s", config.bandwidth_gb_per_s, 0.001, 10000.0);
  reader.get("latency_ns", config.latency_ns, 0.0, 1e9);
  reader.finish();
}

}  // namespace ohmvp
