#include "modules/interconnect/pcie_link.h"

#include <algorithm>
#include <cmath>

#include "modules/common/config_reader.h"

namespace ohmvp {

void parse(const ConfigReader& reader, PcieLinkConfig& config) {
  reader.get("bandwidth_gb_per_s", config.bandwidth_gb_per_s, 0.001, 10000.0);
  reader.get("latency_ns", config.latency_ns, 0.0, 1e9);
  reader.finish();
}

uint64_t PcieLink::transfer(Direction direction, uint64_t now_ps, uint64_t bytes) {
  const int side = index(direction);
  // bytes / (GB/s) gives ns; * 1000 for ps.
  const double duration_ps = m_config.latency_ns * 1000.0 +
                             static_cast<double>(bytes) / m_config.bandwidth_gb_per_s * 1000.0;
  const uint64_t duration = static_cast<uint64_t>(std::llround(duration_ps));
  const uint64_t start = std::max(now_ps, m_free_ps[side]);
  m_free_ps[side] = start + duration;
  m_bytes[side] += bytes;
  m_busy_ps[side] += duration;
  return m_free_ps[side];
}

}  // namespace ohmvp
