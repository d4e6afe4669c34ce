#include "modules/optical/virtual_channel_schedule.h"

#include <algorithm>

namespace ohmvp {

namespace {

// The first transfer that starts after `time`.
auto first_starting_after(const std::vector<VirtualChannelSchedule::Transfer>& busy,
                          uint64_t time) {
  return std::upper_bound(
      busy.begin(), busy.end(), time,
      [](uint64_t t, const VirtualChannelSchedule::Transfer& x) { return t < x.start; });
}

}  // namespace

const VirtualChannelSchedule::Transfer* VirtualChannelSchedule::before(size_t pos) const {
  if (pos > 0) return &m_busy[pos - 1];
  return m_last_forgotten ? &*m_last_forgotten : nullptr;
}

uint64_t VirtualChannelSchedule::earliest_free(uint64_t from, uint64_t duration,
                                               BusDevice device) const {
  uint64_t start = from;
  // Transfers never overlap, so their ends are sorted like their starts: skip the ones that end
  // (with the largest guard) before `from`.
  auto it =
      std::upper_bound(m_busy.begin(), m_busy.end(), from,
                       [this](uint64_t t, const Transfer& x) { return t < x.end + m_switch_ps; });
  if (it == m_busy.begin() && m_last_forgotten)
    start = std::max(start, m_last_forgotten->end + guard(*m_last_forgotten, device));
  for (; it != m_busy.end(); ++it) {
    // Before this one, after the previous (start has passed it with its guard): it fits.
    if (start + duration + guard(*it, device) <= it->start) break;
    start = std::max(start, it->end + guard(*it, device));
  }
  return start;
}

bool VirtualChannelSchedule::fits(uint64_t start, uint64_t end, BusDevice device) const {
  if (start >= end) return false;
  const size_t pos = static_cast<size_t>(first_starting_after(m_busy, start) - m_busy.begin());
  const Transfer* previous = before(pos);
  if (previous != nullptr && previous->end + guard(*previous, device) > start) return false;
  if (pos < m_busy.size() && end + guard(m_busy[pos], device) > m_busy[pos].start) return false;
  return true;
}

bool VirtualChannelSchedule::reserve(uint64_t start, uint64_t end, BusDevice device) {
  if (!fits(start, end, device)) return false;
  const auto it = first_starting_after(m_busy, start);
  const size_t pos = static_cast<size_t>(it - m_busy.begin());
  const Transfer* previous = before(pos);
  const Transfer* next = pos < m_busy.size() ? &m_busy[pos] : nullptr;
  // The new transfer sits between its neighbours: their pair stops counting, its two pairs do.
  const int with_previous = previous != nullptr && previous->device != device;
  const int with_next = next != nullptr && next->device != device;
  const int replaced = previous != nullptr && next != nullptr && previous->device != next->device;
  m_switches += static_cast<uint64_t>(with_previous + with_next - replaced);
  m_busy.insert(it, Transfer{start, end, device});
  return true;
}

bool VirtualChannelSchedule::starts_at(uint64_t time) const {
  for (auto it = m_busy.rbegin(); it != m_busy.rend() && it->end > time; ++it) {
    if (it->start == time) return true;
  }
  return false;
}

void VirtualChannelSchedule::forget_until(uint64_t time) {
  size_t past = 0;
  while (past < m_busy.size() && m_busy[past].end + m_switch_ps <= time) ++past;
  if (past == 0) return;
  m_last_forgotten = m_busy[past - 1];
  m_busy.erase(m_busy.begin(), m_busy.begin() + static_cast<std::ptrdiff_t>(past));
}

}  // namespace ohmvp
