#include "modules/gpu/simt/simt_stack.h"

#include <algorithm>

namespace ohmvp::gpu {

void SimtStack::branch(uint64_t taken, uint32_t target, uint32_t fall_through,
                       uint32_t reconvergence_pc) {
  SimtEntry& current = m_entries.back();
  const uint64_t not_taken = current.mask & ~taken;
  if (not_taken == 0) {
    current.pc = target;
    return;
  }
  if (taken == 0) {
    current.pc = fall_through;
    return;
  }
  // Lanes heading straight for the reconvergence point of the entry they are in just leave it:
  // the entry below already holds them at that pc (keeps loops from growing the stack).
  if (current.reconvergence_pc == reconvergence_pc) {
    if (fall_through == reconvergence_pc) {
      current.pc = target;
      current.mask = taken;
      return;
    }
    if (target == reconvergence_pc) {
      current.pc = fall_through;
      current.mask = not_taken;
      return;
    }
  }
  current.pc = reconvergence_pc;
  if (fall_through != reconvergence_pc)
    m_entries.push_back({fall_through, reconvergence_pc, not_taken});
  if (target != reconvergence_pc) m_entries.push_back({target, reconvergence_pc, taken});
}

void SimtStack::remove_lanes(uint64_t lanes, size_t from_depth) {
  for (size_t i = from_depth; i < m_entries.size(); ++i) m_entries[i].mask &= ~lanes;
}

void SimtStack::reconverge(size_t floor_depth) {
  while (m_entries.size() > floor_depth) {
    const SimtEntry& entry = m_entries.back();
    if (entry.mask != 0 && entry.pc != entry.reconvergence_pc) break;
    m_entries.pop_back();
  }
}

void SimtStack::settle(size_t floor_depth) {
  uint64_t above = m_entries.back().mask;
  for (size_t i = m_entries.size() - 1; i-- > floor_depth;) {
    SimtEntry& entry = m_entries[i];
    if (entry.pc == entry.reconvergence_pc) entry.mask &= above;
    above |= entry.mask;
  }
}

bool SimtStack::yield(size_t floor_depth) {
  settle(floor_depth);
  uint64_t above = m_entries.back().mask;
  size_t donor = m_entries.size();
  uint64_t waiting = 0;
  for (size_t i = m_entries.size() - 1; i-- > floor_depth;) {
    const uint64_t lanes_here = m_entries[i].mask & ~above;
    if (lanes_here != 0) {
      donor = i;
      waiting = lanes_here;
    }
    above |= m_entries[i].mask;
  }
  if (donor == m_entries.size()) return false;
  SimtEntry moved = m_entries[donor];
  moved.mask = waiting;
  m_entries[donor].mask &= ~waiting;
  m_entries.push_back(moved);
  drop_empty_below_top(floor_depth);
  return true;
}

void SimtStack::gather(size_t floor_depth) {
  settle(floor_depth);
  SimtEntry& top = m_entries.back();
  uint64_t above = top.mask;
  for (size_t i = m_entries.size() - 1; i-- > floor_depth;) {
    SimtEntry& entry = m_entries[i];
    const uint64_t lanes_here = entry.mask & ~above;
    above |= entry.mask;
    if (lanes_here == 0 || entry.pc != top.pc || entry.reconvergence_pc != top.reconvergence_pc)
      continue;
    entry.mask &= ~lanes_here;
    top.mask |= lanes_here;
  }
  drop_empty_below_top(floor_depth);
}

void SimtStack::raise(size_t index) {
  std::rotate(m_entries.begin() + static_cast<std::ptrdiff_t>(index),
              m_entries.begin() + static_cast<std::ptrdiff_t>(index) + 1, m_entries.end());
}

void SimtStack::step_past(size_t index, uint64_t lanes) {
  SimtEntry& entry = m_entries[index];
  if (entry.mask == lanes) {
    ++entry.pc;
    return;
  }
  SimtEntry moved = entry;
  moved.pc += 1;
  moved.mask = lanes;
  entry.mask &= ~lanes;
  m_entries.insert(m_entries.end() - 1, moved);
}

void SimtStack::drop_empty_below_top(size_t floor_depth) {
  const auto top = m_entries.end() - 1;
  m_entries.erase(std::remove_if(m_entries.begin() + static_cast<std::ptrdiff_t>(floor_depth), top,
                                 [](const SimtEntry& e) { return e.mask == 0; }),
                  top);
}

}  // namespace ohmvp::gpu
