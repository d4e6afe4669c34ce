#include "modules/interconnect/nvlink_fabric.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ohmvp {

NvlinkFabric::NvlinkFabric(const NvlinkConfig& config, uint32_t gpus)
    : m_config(config), m_ports(gpus) {}

uint64_t NvlinkFabric::transfer(uint32_t from, uint32_t to, uint64_t now_ps, uint64_t bytes) {
  if (from >= m_ports.size() || to >= m_ports.size() || from == to)
    throw std::logic_error("NvlinkFabric: no link from GPU " + std::to_string(from) + " to GPU " +
                           std::to_string(to));
  const uint64_t duration = m_config.transfer_ps(bytes);
  Port& sender = m_ports[from];
  Port& receiver = m_ports[to];
  const uint64_t start = std::max({now_ps, sender.send_free_ps, receiver.receive_free_ps});
  sender.send_free_ps = receiver.receive_free_ps = start + duration;
  sender.bytes_sent += bytes;
  sender.send_busy_ps += duration;
  return start + duration;
}

}  // namespace ohmvp
