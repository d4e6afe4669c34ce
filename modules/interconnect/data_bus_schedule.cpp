#include "modules/interconnect/data_bus_schedule.h"

#include <algorithm>

namespace ohmvp {

namespace {

// The first reservation that ends after `time`: the only ones a transfer from `time` can meet.
auto first_ending_after(const std::vector<DataBusSchedule::Interval>& busy, uint64_t time) {
  // Reservations never overlap, so their ends are sorted like their starts.
  return std::upper_bound(busy.begin(), busy.end(), time,
                          [](uint64_t t, const DataBusSchedule::Interval& i) { return t < i.end; });
}

}  // namespace

uint64_t DataBusSchedule::earliest_free(uint64_t from, uint64_t duration) const {
  uint64_t start = from;
  for (auto it = first_ending_after(m_busy, from); it != m_busy.end(); ++it) {
    if (start + duration <= it->start) break;
    start = std::max(start, it->end);
  }
  return start;
}

bool DataBusSchedule::is_free(uint64_t start, uint64_t end) const {
  const auto it = first_ending_after(m_busy, start);
  return it == m_busy.end() || end <= it->start;
}

bool DataBusSchedule::reserve_between(uint64_t start, uint64_t end) {
  if (start >= end || !is_free(start, end)) return false;
  m_busy.insert(first_ending_after(m_busy, start), Interval{start, end});
  return true;
}

bool DataBusSchedule::starts_at(uint64_t time) const {
  for (auto it = m_busy.rbegin(); it != m_busy.rend() && it->end > time; ++it) {
    if (it->start == time) return true;
  }
  return false;
}

void DataBusSchedule::forget_until(uint64_t time) {
  size_t past = 0;
  while (past < m_busy.size() && m_busy[past].end <= time) ++past;
  if (past != 0) m_busy.erase(m_busy.begin(), m_busy.begin() + static_cast<std::ptrdiff_t>(past));
}

}  // namespace ohmvp
