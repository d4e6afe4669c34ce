#pragma once

#include <cstdint>

#include "modules/common/stats.h"
#include "modules/interconnect/link_config.h"

namespace ohmvp {

// The host <-> GPU PCIe link, full duplex. A copy occupies its direction for
// latency + bytes / bandwidth; copies in one direction queue behind each other.
struct PcieLinkConfig : LinkConfig {
  // Effective host<->GPU copy bandwidth measured on a V100 (memHarvester, ATC 2022; PARAMETERS.md);
  // latency: a modelling choice, the fixed set-up cost of one DMA copy (descriptor fetch,
  // completion).
  PcieLinkConfig() : LinkConfig{12.3, 1000.0} {}
};

class PcieLink {
 public:
  enum class Direction { host_to_device, device_to_host };

  explicit PcieLink(const PcieLinkConfig& config) : m_config(config) {}

  // A copy of `bytes` requested at `now_ps` in `direction`; returns when its last byte arrives.
  uint64_t transfer(Direction direction, uint64_t now_ps, uint64_t bytes);
  // A GPU's load or store of `bytes` in host memory (zero-copy): many are outstanding at once,
  // so each holds its direction for bytes / bandwidth only and arrives `latency` after that (a
  // modelling choice: the copies' latency stands for the round trip).
  uint64_t access(Direction direction, uint64_t now_ps, uint64_t bytes);

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
