#pragma once

#include <cstdint>
#include <vector>

#include "modules/interconnect/link_config.h"

namespace ohmvp {

// The GPUs' NVLink ports on an NVSwitch, full duplex: a transfer from GPU a to GPU b occupies
// a's sending side and b's receiving side for latency + bytes / bandwidth, starting when both are
// free; transfers between other pairs do not meet.
struct NvlinkConfig : LinkConfig {
  // GPU-to-GPU migration rate measured for 2 MB chunks on V100s (memHarvester, ATC 2022;
  // PARAMETERS.md); latency: a modelling choice, as for PCIe (host.pcie.latency_ns).
  NvlinkConfig() : LinkConfig{40.1, 1000.0} {}
};

class NvlinkFabric {
 public:
  NvlinkFabric(const NvlinkConfig& config, uint32_t gpus);

  // A copy of `bytes` from GPU `from` to GPU `to` requested at `now_ps`; returns when its last
  // byte arrives.
  uint64_t transfer(uint32_t from, uint32_t to, uint64_t now_ps, uint64_t bytes);

  uint64_t bytes_sent(uint32_t gpu) const { return m_ports[gpu].bytes_sent; }
  uint64_t busy_ps(uint32_t gpu) const { return m_ports[gpu].send_busy_ps; }

 private:
  struct Port {
    uint64_t send_free_ps = 0, receive_free_ps = 0;
    uint64_t bytes_sent = 0, send_busy_ps = 0;
  };
  NvlinkConfig m_config;
  std::vector<Port> m_ports;
};

}  // namespace ohmvp
