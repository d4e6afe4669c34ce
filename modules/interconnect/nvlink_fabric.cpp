#include "modules/interconnect/nvlink_fabric.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "modules/common/config_reader.h"

namespace ohmvp {

void parse(const ConfigReader& reader, NvlinkConfig& config) {
  reader.get("bandwidth_gb_per_s", config.bandwidth_gb_per_s, 0.001, 10000.0);
  reader.get("latency_ns", config.latency_ns, 0.0, 1e9);
  reader.finish();
}

NvlinkFabric::NvlinkFabric(const NvlinkConfig& config, uint32_t gpus)
    : m_config(config), m_ports(gpus) {}

uint64_t NvlinkFabric::transfer(uint32_t from, uint32_t to, uint64_t now_ps, uint64_t bytes) {
  if (from >= m_ports.size() || to >= m_ports.size() || from == to)
    throw std::logic_error("NvlinkFabric: no link from GPU " + std::to_string(from) + " to GPU " +
                           std::to_string(to));
  const double duration_ps = m_config.latency_ns * 1000.0 +
                             static_cast<double>(bytes) / m_config.bandwidth_gb_per_s * 1000.0;
  const uint64_t duration = static_cast<uint64_t>(std::llround(duration_ps));
  Port& sender = m_ports[from];
  Port& receiver = m_ports[to];
  const uint64_t start = std::max({now_ps, sender.send_free_ps, receiver.receive_free_ps});
  sender.send_free_ps = receiver.receive_free_ps = start + duration;
  sender.bytes_sent += bytes;
  sender.send_busy_ps += duration;
  return start + duration;
}

}  // namespace ohmvp
