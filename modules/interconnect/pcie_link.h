#pragma once

#include <cstdint>
#include <vector>

#include "modules/common/stats.h"
#include "modules/interconnect/link_config.h"

namespace ohmvp {

class ConfigReader;

// What each transaction-layer packet adds to its payload on the wire (PCI Express base
// specification; Intel's PCIe IP guide, "Protocol Overhead": framing, sequence number, a header
// of three or four dwords and the LCRC, five or six dwords without the optional ECRC).
constexpr uint32_t pcie_completion_overhead_bytes = 20;  // three-dword header
constexpr uint32_t pcie_request_overhead_bytes = 24;     // four-dword header: a 64-bit address

// The host <-> GPU PCIe link, full duplex. A copy occupies its direction for
// latency + bytes / bandwidth; copies in one direction queue behind each other.
struct PcieLinkConfig : LinkConfig {
  // Effective host<->GPU copy bandwidth measured on a V100 (memHarvester, ATC 2022; PARAMETERS.md);
  // latency: a modelling choice, the fixed set-up cost of one DMA copy (descriptor fetch,
  // completion).
  PcieLinkConfig() : LinkConfig{12.3, 1000.0} {}
  // Max_Payload_Size: a copy moves its data in packets of this much payload each, so the link
  // carries bandwidth_gb_per_s of payload and (max_payload_bytes + 20) / max_payload_bytes times
  // that in all. A modelling choice: 256 is what x86 root ports commonly set.
  uint32_t max_payload_bytes = 256;

  // The link's time for `wire_bytes` of packets (payload and overhead), latency left out.
  uint64_t packet_ps(uint64_t wire_bytes) const;
};

// The LinkConfig keys and max_payload_bytes (a power of two, 128 to 4096).
void parse(const ConfigReader& reader, PcieLinkConfig& config);

class PcieLink {
 public:
  enum class Direction { host_to_device, device_to_host };

  explicit PcieLink(const PcieLinkConfig& config) : m_config(config) {}

  // A copy of `bytes` requested at `now_ps` in `direction`; returns when its last byte arrives.
  uint64_t transfer(Direction direction, uint64_t now_ps, uint64_t bytes);
  // The same copy, in parts of `part_bytes` (the last may be shorter): when each part's last
  // byte arrives, the bytes streaming at the link's rate after its latency.
  std::vector<uint64_t> transfer_parts(Direction direction, uint64_t now_ps, uint64_t bytes,
                                       uint64_t part_bytes);
  // More bytes of a copy already on the link (its latency paid): they follow it, or come at
  // `now_ps` if that is later, at the link's rate. Returns when the last arrives.
  uint64_t append(Direction direction, uint64_t now_ps, uint64_t bytes);
  // A GPU's load or store of `bytes` in host memory (zero-copy), in `packets` requests (one per
  // contiguous run of bytes). Many are outstanding at once, so each holds the link only for its
  // packets and arrives `latency` after that (a modelling choice: the copies' latency stands for
  // the round trip). A load's read requests cross towards host memory without payload, then
  // the data comes back in one completion per request; a store is posted writes. Returns when
  // the data has arrived.
  uint64_t load(uint64_t now_ps, uint64_t bytes, uint32_t packets);
  uint64_t store(uint64_t now_ps, uint64_t bytes, uint32_t packets);

  const PcieLinkConfig& config() const { return m_config; }
  uint64_t bytes(Direction direction) const { return m_bytes[index(direction)]; }
  uint64_t busy_ps(Direction direction) const { return m_busy_ps[index(direction)]; }
  // From now on every transfer's time on the link is added to `busy` as well.
  void count_busy_in(Counter& busy) { m_busy_counter = &busy; }

 private:
  static int index(Direction direction) { return direction == Direction::host_to_device ? 0 : 1; }
  // Holds `direction` for `duration` from `now_ps` or when it is next free, counting `bytes`;
  // returns when that ends.
  uint64_t occupy(Direction direction, uint64_t now_ps, uint64_t bytes, uint64_t duration);

  PcieLinkConfig m_config;
  uint64_t m_free_ps[2] = {0, 0};
  uint64_t m_bytes[2] = {0, 0};
  uint64_t m_busy_ps[2] = {0, 0};
  Counter* m_busy_counter = nullptr;
};

}  // namespace ohmvp
