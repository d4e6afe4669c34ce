#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "modules/interconnect/data_bus.h"

namespace ohmvp {

// The light of one virtual channel over time, for transfers placed out of order (a DRAM burst
// is placed tCL after its command, XPoint data goes into the gaps before it): reserved
// intervals [start, end) that never overlap, each with the device at the far end. Ohm-GPU's
// photonic demultiplexer enables the detector of the device that is ready and disables the
// others, so two neighbouring transfers of different devices need `switch_ps` (the MRRs' on/off
// tuning) of dark light between them; transfers of the same device follow each other directly.
class VirtualChannelSchedule {
 public:
  struct Transfer {
    uint64_t start;
    uint64_t end;
    BusDevice device;
  };

  explicit VirtualChannelSchedule(uint64_t switch_ps) : m_switch_ps(switch_ps) {}

  // The earliest start >= from at which [start, start + duration) for `device` overlaps no
  // transfer and keeps `switch_ps` from a neighbour of the other device.
  uint64_t earliest_free(uint64_t from, uint64_t duration, BusDevice device) const;
  bool fits(uint64_t start, uint64_t end, BusDevice device) const;
  // Adds the transfer (start < end); false, and nothing added, when it does not fit.
  bool reserve(uint64_t start, uint64_t end, BusDevice device);
  // True when a transfer starts exactly at `time`.
  bool starts_at(uint64_t time) const;
  // Drops transfers that can no longer constrain one placed at or after `time`.
  void forget_until(uint64_t time);
  // Neighbouring pairs of different devices so far: detector switches (each costs switch_ps).
  uint64_t switches() const { return m_switches; }
  uint64_t switch_ps() const { return m_switch_ps; }
  const std::vector<Transfer>& transfers() const { return m_busy; }

 private:
  uint64_t guard(const Transfer& t, BusDevice device) const {
    return t.device == device ? 0 : m_switch_ps;
  }
  // The transfer just before position `pos` in time: the kept one or the last forgotten.
  const Transfer* before(size_t pos) const;

  uint64_t m_switch_ps;
  std::vector<Transfer> m_busy;  // sorted by start
  std::optional<Transfer> m_last_forgotten;
  uint64_t m_switches = 0;
};

}  // namespace ohmvp
