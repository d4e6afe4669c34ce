#include "modules/interconnect/data_bus_schedule.h"

#include <algorithm>
#include <string>

#include "modules/common/errors.h"

namespace ohmvp {

void DataBusSchedule::Before::pass(const Transfer& t) {
  end = t.end;
  if (owned(t.use)) {
    last_owned = &t;
    loss = 0;
  } else {
    loss += t.end - t.start;
  }
}

size_t DataBusSchedule::position_of(uint64_t time) const {
  // From the back: transfers are placed near the present, and few lie ahead of it.
  size_t position = m_busy.size();
  while (position > 0 && m_busy[position - 1].start >= time) --position;
  return position;
}

DataBusSchedule::Before DataBusSchedule::before(size_t position) const {
  Before b;
  if (position > 0) b.end = m_busy[position - 1].end;
  size_t i = position;
  for (; i > 0 && !owned(m_busy[i - 1].use); --i) b.loss += m_busy[i - 1].end - m_busy[i - 1].start;
  if (i > 0) {
    b.last_owned = &m_busy[i - 1];
  } else if (m_last_forgotten) {
    b.last_owned = &*m_last_forgotten;
    b.loss += m_forgotten_loss;
  }
  return b;
}

const DataBusSchedule::Transfer* DataBusSchedule::next_owned(size_t position,
                                                             uint64_t& loss) const {
  loss = 0;
  for (; position < m_busy.size(); ++position) {
    const Transfer& t = m_busy[position];
    if (owned(t.use)) return &t;
    loss += t.end - t.start;
  }
  return nullptr;
}

uint64_t DataBusSchedule::earliest_free(uint64_t from, uint64_t duration, BusUse use) const {
  // One pass forward: transfers the candidate start has passed join `b`; moving the start later
  // only makes the room before the next owned transfer smaller, so no earlier fit is skipped.
  size_t i = position_of(from);
  Before b = before(i);
  uint64_t start = from;
  for (;;) {
    start = std::max(start, b.end);
    if (owned(use) && b.last_owned != nullptr) {
      start = std::max(start, b.last_owned->end + b.loss + guard(b.last_owned->use, use));
    }
    if (i < m_busy.size() && m_busy[i].start < start + duration) {
      b.pass(m_busy[i++]);
      continue;
    }
    uint64_t loss_after = 0;
    const Transfer* next = next_owned(i, loss_after);
    if (next != nullptr) {
      bool fits;
      if (owned(use)) {
        fits = start + duration + loss_after + guard(use, next->use) <= next->start;
      } else {
        // A loss block between two devices' transfers takes time from the switch's idle time.
        const uint64_t busy = b.loss + duration + loss_after;
        fits = b.last_owned == nullptr ||
               b.last_owned->end + busy + guard(b.last_owned->use, next->use) <= next->start;
      }
      if (!fits) {
        while (&m_busy[i] != next) b.pass(m_busy[i++]);
        b.pass(m_busy[i++]);
        continue;
      }
    }
    return start;
  }
}

bool DataBusSchedule::fits(uint64_t start, uint64_t end, BusUse use) const {
  return start < end && earliest_free(start, end - start, use) == start;
}

bool DataBusSchedule::reserve_between(uint64_t start, uint64_t end, BusUse use) {
  if (!fits(start, end, use)) return false;
  const size_t position = position_of(start);
  if (owned(use)) {
    // The new transfer sits between its owned neighbours: their pair stops counting, its two do.
    const Transfer* previous = before(position).last_owned;
    uint64_t loss = 0;
    const Transfer* next = next_owned(position, loss);
    const int with_previous = previous != nullptr && !same_device(previous->use, use);
    const int with_next = next != nullptr && !same_device(use, next->use);
    const int replaced =
        previous != nullptr && next != nullptr && !same_device(previous->use, next->use);
    m_switches += static_cast<uint64_t>(with_previous + with_next - replaced);
  }
  m_busy.insert(m_busy.begin() + static_cast<std::ptrdiff_t>(position), Transfer{start, end, use});
  return true;
}

void DataBusSchedule::refuse(uint64_t start, uint64_t end, const char* channel,
                             const char* what) const {
  throw SimulationError(std::string(channel) + ": " + what + " transfer at " +
                        std::to_string(start) + ".." + std::to_string(end) +
                        " ps overlaps another one or leaves no time to switch devices (" +
                        std::to_string(m_switch_ps) + " ps)");
}

bool DataBusSchedule::starts_at(uint64_t time, std::optional<BusUse> use) const {
  for (auto it = m_busy.rbegin(); it != m_busy.rend() && it->end > time; ++it) {
    if (it->start == time && (!use || it->use == *use)) return true;
  }
  return false;
}

void DataBusSchedule::forget_until(uint64_t time) {
  size_t past = 0;
  while (past < m_busy.size() && m_busy[past].end + m_switch_ps <= time) {
    const Transfer& t = m_busy[past++];
    if (owned(t.use)) {
      m_last_forgotten = t;
      m_forgotten_loss = 0;
    } else {
      m_forgotten_loss += t.end - t.start;
    }
  }
  if (past == 0) return;
  m_busy.erase(m_busy.begin(), m_busy.begin() + static_cast<std::ptrdiff_t>(past));
}

}  // namespace ohmvp
