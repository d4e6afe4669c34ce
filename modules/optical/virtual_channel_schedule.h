#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "modules/interconnect/data_bus.h"

namespace ohmvp {

// What a stretch of a virtual channel's light is for. The controller's photonic demultiplexer
// enables one detector at a time: the DRAM's for its bursts, the XPoint's for XPoint data and for
// the memory route where that takes turns with the data route. `coding_loss` (Ohm-WOM) is light
// the data route's transfers take beyond their plain length while they are WOM-coded, booked as
// one block: no detector owns it, so it neither causes a switch nor counts as a switch's dark time.
enum class LightUse : uint8_t { dram, xpoint, memory_route, coding_loss };

inline LightUse light_use_of(BusDevice device) {
  return device == BusDevice::dram ? LightUse::dram : LightUse::xpoint;
}

// The light of one virtual channel over time, for transfers placed out of order (a DRAM burst
// is placed tCL after its command, XPoint data goes into the gaps before it): reserved
// intervals [start, end) that never overlap, each with its use. Ohm-GPU's photonic demultiplexer
// enables the detector of the device that is ready and disables the others, so between two
// consecutive detector-owned transfers of different detectors the light stays dark for
// `switch_ps` (the MRRs' on/off tuning); coding-loss blocks between them are light, not dark, and
// transfers of the same detector follow each other directly.
class VirtualChannelSchedule {
 public:
  struct Transfer {
    uint64_t start;
    uint64_t end;
    LightUse use;
  };

  explicit VirtualChannelSchedule(uint64_t switch_ps) : m_switch_ps(switch_ps) {}

  // The earliest start >= from at which [start, start + duration) for `use` overlaps no transfer
  // and leaves every switch its dark time.
  uint64_t earliest_free(uint64_t from, uint64_t duration, LightUse use) const;
  bool fits(uint64_t start, uint64_t end, LightUse use) const;
  // Adds the transfer (start < end); false, and nothing added, when it does not fit.
  bool reserve(uint64_t start, uint64_t end, LightUse use);
  // True when a transfer (of `use`, when given) starts exactly at `time`.
  bool starts_at(uint64_t time, std::optional<LightUse> use = std::nullopt) const;
  // Drops transfers that can no longer constrain one placed at or after `time`.
  void forget_until(uint64_t time);
  // Consecutive detector-owned transfers of different detectors so far: detector switches (each
  // costs switch_ps).
  uint64_t switches() const { return m_switches; }
  uint64_t switch_ps() const { return m_switch_ps; }
  const std::vector<Transfer>& transfers() const { return m_busy; }

 private:
  // What lies before a point of the light: the end of the last transfer, the last
  // detector-owned transfer and the coding loss since it.
  struct Before {
    uint64_t end = 0;
    const Transfer* owned = nullptr;
    uint64_t loss = 0;
    void pass(const Transfer& t);
  };
  // Before the transfer at m_busy[position] (or the end), the forgotten ones included.
  Before before(size_t position) const;
  // The first detector-owned transfer from m_busy[position] on (null: none), and the coding loss
  // before it.
  const Transfer* next_owned(size_t position, uint64_t& loss) const;
  // Where a transfer starting at `time` goes in m_busy.
  size_t position_of(uint64_t time) const;
  // The dark time needed between owned transfers of uses a and b.
  uint64_t guard(LightUse a, LightUse b) const;

  uint64_t m_switch_ps;
  std::vector<Transfer> m_busy;  // sorted by start
  // The last detector-owned transfer forgotten, and the coding loss forgotten after it.
  std::optional<Transfer> m_last_forgotten;
  uint64_t m_forgotten_loss = 0;
  uint64_t m_switches = 0;
};

}  // namespace ohmvp
