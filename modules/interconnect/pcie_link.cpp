#include "modules/interconnect/pcie_link.h"

#include <algorithm>

namespace ohmvp {

uint64_t PcieLink::transfer(Direction direction, uint64_t now_ps, uint64_t bytes) {
  return occupy(direction, now_ps, bytes, m_config.transfer_ps(bytes));
}

uint64_t PcieLink::access(Direction direction, uint64_t now_ps, uint64_t bytes) {
  const uint64_t latency = m_config.transfer_ps(0);
  return occupy(direction, now_ps, bytes, m_config.transfer_ps(bytes) - latency) + latency;
}

uint64_t PcieLink::occupy(Direction direction, uint64_t now_ps, uint64_t bytes, uint64_t duration) {
  const int side = index(direction);
  const uint64_t start = std::max(now_ps, m_free_ps[side]);
  m_free_ps[side] = start + duration;
  m_bytes[side] += bytes;
  m_busy_ps[side] += duration;
  if (m_busy_counter != nullptr) m_busy_counter->inc(duration);
  return m_free_ps[side];
}

}  // namespace ohmvp
