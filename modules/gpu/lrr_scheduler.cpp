#include "modules/gpu/lrr_scheduler.h"

#include "modules/gpu/warp_slot_check.h"

namespace ohmvp::gpu {

LrrScheduler::LrrScheduler(uint32_t capacity)
    : m_present(check_capacity(capacity), false), m_last(capacity - 1) {}

void LrrScheduler::add_warp(uint32_t slot, uint64_t /*age*/) {
  check_slot(slot, m_present.size(), "LRR scheduler");
  if (m_present[slot]) throw_slot_error("LRR scheduler", slot, "is already scheduled");
  m_present[slot] = true;
  ++m_count;
}

void LrrScheduler::remove_warp(uint32_t slot) {
  check_slot(slot, m_present.size(), "LRR scheduler");
  if (!m_present[slot]) throw_slot_error("LRR scheduler", slot, "is not scheduled");
  m_present[slot] = false;
  --m_count;
}

uint32_t LrrScheduler::pick(const WarpReadiness& ready) {
  const uint32_t capacity = static_cast<uint32_t>(m_present.size());
  uint32_t slot = m_last;
  for (uint32_t i = 0; i < capacity; ++i) {
    slot = slot + 1 == capacity ? 0 : slot + 1;
    if (m_present[slot] && ready(slot)) return slot;
  }
  return k_no_warp;
}

void LrrScheduler::on_issue(uint32_t slot) {
  check_slot(slot, m_present.size(), "LRR scheduler");
  m_last = slot;
}

}  // namespace ohmvp::gpu
