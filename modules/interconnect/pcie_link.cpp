#include "modules/interconnect/pcie_link.h"

#include <algorithm>
#include <cmath>

#include "modules/common/config_reader.h"
#include "modules/common/power_of_two.h"

namespace ohmvp {

uint64_t PcieLink::transfer(Direction direction, uint64_t now_ps, uint64_t bytes) {
  return occupy(direction, now_ps, bytes, m_config.transfer_ps(bytes));
}

std::vector<uint64_t> PcieLink::transfer_parts(Direction direction, uint64_t now_ps, uint64_t bytes,
                                               uint64_t part_bytes) {
  const uint64_t start = transfer(direction, now_ps, bytes) - m_config.transfer_ps(bytes);
  std::vector<uint64_t> arrivals;
  for (uint64_t end = std::min(part_bytes, bytes);; end = std::min(end + part_bytes, bytes)) {
    arrivals.push_back(start + m_config.transfer_ps(end));
    if (end == bytes) return arrivals;
  }
}

uint64_t PcieLink::append(Direction direction, uint64_t now_ps, uint64_t bytes) {
  return occupy(direction, now_ps, bytes, m_config.transfer_ps(bytes) - m_config.transfer_ps(0));
}

uint64_t PcieLinkConfig::packet_ps(uint64_t wire_bytes) const {
  const double payload_share =
      static_cast<double>(max_payload_bytes) / (max_payload_bytes + pcie_completion_overhead_bytes);
  // bytes / (GB/s) gives ns; * 1000 for ps.
  return static_cast<uint64_t>(
      std::llround(static_cast<double>(wire_bytes) * payload_share / bandwidth_gb_per_s * 1000.0));
}

void parse(const ConfigReader& reader, PcieLinkConfig& config) {
  reader.get("max_payload_bytes", config.max_payload_bytes, 128u, 4096u);
  if (!is_power_of_two(config.max_payload_bytes))
    reader.fail("max_payload_bytes",
                "expected a power of two, got " + std::to_string(config.max_payload_bytes));
  parse(reader, static_cast<LinkConfig&>(config));
}

uint64_t PcieLink::load(uint64_t now_ps, uint64_t bytes, uint32_t packets) {
  const uint64_t requested =
      occupy(Direction::device_to_host, now_ps, 0,
             m_config.packet_ps(uint64_t{packets} * pcie_request_overhead_bytes));
  const uint64_t completions = bytes + uint64_t{packets} * pcie_completion_overhead_bytes;
  return occupy(Direction::host_to_device, requested, bytes, m_config.packet_ps(completions)) +
         m_config.transfer_ps(0);
}

uint64_t PcieLink::store(uint64_t now_ps, uint64_t bytes, uint32_t packets) {
  const uint64_t writes = bytes + uint64_t{packets} * pcie_request_overhead_bytes;
  return occupy(Direction::device_to_host, now_ps, bytes, m_config.packet_ps(writes)) +
         m_config.transfer_ps(0);
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
