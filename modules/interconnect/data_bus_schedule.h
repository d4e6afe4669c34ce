#pragma once

#include <cstdint>
#include <vector>

namespace ohmvp {

// The reserved intervals [start, end) of one set of wires, in ps, which never overlap. Transfers
// are placed in the future (a DRAM burst tCL after its command), so a later reservation may
// fill a gap before an earlier one.
class DataBusSchedule {
 public:
  struct Interval {
    uint64_t start;
    uint64_t end;
  };

  // The earliest start >= from at which [start, start + duration) overlaps no reservation.
  uint64_t earliest_free(uint64_t from, uint64_t duration) const;
  bool is_free(uint64_t start, uint64_t end) const;
  // Adds [start, end) (start < end); false, and nothing added, when it overlaps a reservation.
  bool reserve(uint64_t start, uint64_t end) {
    // Most transfers go after every one placed so far (a DRAM-only channel's always do).
    if (start < end && (m_busy.empty() || start >= m_busy.back().end)) {
      m_busy.push_back(Interval{start, end});
      return true;
    }
    return reserve_between(start, end);
  }
  // True when a reservation starts exactly at `time`.
  bool starts_at(uint64_t time) const;
  // Drops the reservations that end at or before `time` (no one asks about the past).
  void forget_until(uint64_t time);
  // All reservations, in time order.
  const std::vector<Interval>& intervals() const { return m_busy; }

 private:
  bool reserve_between(uint64_t start, uint64_t end);

  std::vector<Interval> m_busy;  // sorted by start
};

}  // namespace ohmvp
