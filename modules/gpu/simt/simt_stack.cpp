#include "modules/gpu/simt/simt_stack.h"

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

}  // namespace ohmvp::gpu
