#pragma once

#include <cstdint>
#include <string>

#include "modules/common/stats.h"
#include "modules/optical/register_buffer.h"

namespace ohmvp {

// The register buffer in front of the XPoint device on the optical channel (Ohm-GPU Section
// IV: 16 KB). The memory-route functions keep data there between the devices: SWAP-CMD's DRAM
// bursts until the XPoint controller takes them as writes and its XPoint bursts until they
// cross into DRAM; a reverse write's line from the XPoint read until the DRAM write. The sender
// reserves room before the data lands and waits while the buffer is full.
class XPointEndBuffer {
 public:
  XPointEndBuffer(uint32_t capacity_bytes, StatsRegistry& stats, const std::string& group)
      : m_buffer(capacity_bytes),
        m_waits(stats.counter(group, "register_buffer_waits", "transfers",
                              "memory-route transfers held back by a full register buffer at "
                              "the XPoint end")),
        m_peak(stats.scalar(group, "register_buffer_peak_bytes", "bytes",
                            "most bytes held in the register buffer at the XPoint end")) {}

  // Room for `bytes` about to land; false: the sender waits (and says so once, held()).
  bool reserve(uint32_t bytes) {
    if (!m_buffer.push(bytes)) return false;
    if (m_buffer.occupancy() > m_peak.value()) m_peak.set(m_buffer.occupancy());
    return true;
  }
  void held() { m_waits.inc(); }
  void release(uint32_t bytes) { m_buffer.pop(bytes); }

 private:
  RegisterBuffer m_buffer;
  Counter& m_waits;
  Scalar& m_peak;
};

}  // namespace ohmvp
