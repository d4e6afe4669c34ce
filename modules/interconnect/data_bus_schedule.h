#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "modules/interconnect/data_bus.h"

namespace ohmvp {

// What a transfer on a memory channel's data path is for. The controller's end takes data from
// one device at a time: on wires the rank that drives the bus, on the optical channel the
// detector its photonic demultiplexer enables. The DRAM's for its bursts, the XPoint's for XPoint
// data and for the memory route where that takes turns with the data route. `coding_loss`
// (Ohm-WOM) is light the data route's transfers take beyond their plain length while they are
// WOM-coded, booked as one block: no device owns it, so it neither causes a switch nor counts as
// a switch's idle time.
enum class BusUse : uint8_t { dram, xpoint, memory_route, coding_loss };

inline BusUse bus_use_of(BusDevice device) {
  return device == BusDevice::dram ? BusUse::dram : BusUse::xpoint;
}

// The transfers of one data path over time (a channel's wires, a virtual channel's light),
// placed out of order: a DRAM burst is placed tCL after its command, XPoint data goes into the
// gaps before it. Reserved intervals [start, end) that never overlap, each with its use. Between
// two consecutive device-owned transfers of different devices the path stays idle for
// `switch_ps` (the rank-to-rank switch on wires, the MRRs' on/off tuning on light); coding-loss
// blocks between them are busy, not idle, and transfers of the same device follow each other
// directly.
class DataBusSchedule {
 public:
  struct Transfer {
    uint64_t start;
    uint64_t end;
    BusUse use;
  };

  explicit DataBusSchedule(uint64_t switch_ps) : m_switch_ps(switch_ps) {}

  // The earliest start >= from at which [start, start + duration) for `use` overlaps no transfer
  // and leaves every switch its idle time.
  uint64_t earliest_free(uint64_t from, uint64_t duration, BusUse use) const;
  bool fits(uint64_t start, uint64_t end, BusUse use) const;
  // Adds the transfer (start < end); false, and nothing added, when it does not fit.
  bool reserve(uint64_t start, uint64_t end, BusUse use) {
    // Most transfers go after every one placed so far (a DRAM-only channel's always do).
    if (start < end && !m_busy.empty() && owned(use) && owned(m_busy.back().use) &&
        start >= m_busy.back().end + guard(m_busy.back().use, use)) {
      m_switches += !same_device(m_busy.back().use, use);
      m_busy.push_back(Transfer{start, end, use});
      return true;
    }
    return reserve_between(start, end, use);
  }
  // reserve() for a channel's transfer, first dropping, once there are many, the transfers that
  // can no longer matter at `now`. One that does not fit is a SimulationError naming the channel
  // and `what` was placed (the placer did not ask). Returns the switches it added.
  uint64_t place(uint64_t start, uint64_t end, BusUse use, uint64_t now, const char* channel,
                 const char* what) {
    if (m_busy.size() >= 32) forget_until(now);
    const uint64_t switches_before = m_switches;
    if (!reserve(start, end, use)) refuse(start, end, channel, what);
    return m_switches - switches_before;
  }
  // True when a transfer (of `use`, when given) starts exactly at `time`.
  bool starts_at(uint64_t time, std::optional<BusUse> use = std::nullopt) const;
  // Drops transfers that can no longer constrain one placed at or after `time`.
  void forget_until(uint64_t time);
  // Consecutive device-owned transfers of different devices so far: switches (each costs
  // switch_ps).
  uint64_t switches() const { return m_switches; }
  uint64_t switch_ps() const { return m_switch_ps; }
  const std::vector<Transfer>& transfers() const { return m_busy; }

 private:
  static bool owned(BusUse use) { return use != BusUse::coding_loss; }
  static bool same_device(BusUse a, BusUse b) { return (a == BusUse::dram) == (b == BusUse::dram); }
  // The idle time needed between owned transfers of uses a and b.
  uint64_t guard(BusUse a, BusUse b) const { return same_device(a, b) ? 0 : m_switch_ps; }

  // What lies before a point of the path: the end of the last transfer, the last device-owned
  // transfer and the coding loss since it.
  struct Before {
    uint64_t end = 0;
    const Transfer* last_owned = nullptr;
    uint64_t loss = 0;
    void pass(const Transfer& t);
  };
  // Before the transfer at m_busy[position] (or the end), the forgotten ones included.
  Before before(size_t position) const;
  // The first device-owned transfer from m_busy[position] on (null: none), and the coding loss
  // before it.
  const Transfer* next_owned(size_t position, uint64_t& loss) const;
  // Where a transfer starting at `time` goes in m_busy.
  size_t position_of(uint64_t time) const;
  bool reserve_between(uint64_t start, uint64_t end, BusUse use);
  [[noreturn]] void refuse(uint64_t start, uint64_t end, const char* channel,
                           const char* what) const;

  uint64_t m_switch_ps;
  std::vector<Transfer> m_busy;  // sorted by start
  // The last device-owned transfer forgotten, and the coding loss forgotten after it.
  std::optional<Transfer> m_last_forgotten;
  uint64_t m_forgotten_loss = 0;
  uint64_t m_switches = 0;
};

}  // namespace ohmvp
