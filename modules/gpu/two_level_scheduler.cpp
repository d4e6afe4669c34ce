#include "modules/gpu/two_level_scheduler.h"

#include <algorithm>

#include "modules/gpu/warp_slot_check.h"

namespace ohmvp::gpu {

namespace {

void erase_slot(std::vector<uint32_t>& list, uint32_t slot) {
  list.erase(std::find(list.begin(), list.end(), slot));
}

}  // namespace

TwoLevelScheduler::TwoLevelScheduler(uint32_t capacity, uint32_t active_set_size)
    : m_capacity(check_capacity(capacity)),
      m_active_set_size(std::max(1u, std::min(active_set_size, capacity))),
      m_where(capacity, Where::absent),
      m_waiting(capacity, false) {
  m_active.reserve(capacity);
  m_pending.reserve(capacity);
}

void TwoLevelScheduler::add_warp(uint32_t slot, uint64_t /*age*/) {
  check_slot(slot, m_capacity, "two-level scheduler");
  if (m_where[slot] != Where::absent)
    throw_slot_error("two-level scheduler", slot, "is already scheduled");
  m_waiting[slot] = false;
  if (m_active.size() < m_active_set_size) {
    m_active.push_back(slot);
    m_where[slot] = Where::active;
  } else {
    m_pending.push_back(slot);
    m_where[slot] = Where::pending;
  }
}

void TwoLevelScheduler::remove_warp(uint32_t slot) {
  check_slot(slot, m_capacity, "two-level scheduler");
  switch (m_where[slot]) {
    case Where::absent:
      throw_slot_error("two-level scheduler", slot, "is not scheduled");
    case Where::active:
      erase_slot(m_active, slot);
      break;
    case Where::pending:
      erase_slot(m_pending, slot);
      break;
  }
  m_where[slot] = Where::absent;
  m_waiting[slot] = false;
  if (m_last == slot) m_last = k_no_warp;
}

void TwoLevelScheduler::promote_ready_pending(const WarpReadiness& ready) {
  for (size_t i = 0; i < m_pending.size() && m_active.size() < m_active_set_size;) {
    const uint32_t slot = m_pending[i];
    if (!m_waiting[slot] && ready(slot)) {
      m_pending.erase(m_pending.begin() + static_cast<std::ptrdiff_t>(i));
      m_active.push_back(slot);
      m_where[slot] = Where::active;
    } else {
      ++i;
    }
  }
}

uint32_t TwoLevelScheduler::pick(const WarpReadiness& ready) {
  promote_ready_pending(ready);
  const size_t count = m_active.size();
  if (count == 0) return k_no_warp;
  size_t start = 0;
  if (m_last != k_no_warp && m_where[m_last] == Where::active) {
    const size_t last_position =
        static_cast<size_t>(std::find(m_active.begin(), m_active.end(), m_last) - m_active.begin());
    start = last_position + 1;
  }
  for (size_t i = 0; i < count; ++i) {
    const uint32_t slot = m_active[(start + i) % count];
    if (ready(slot)) return slot;
  }
  return k_no_warp;
}

void TwoLevelScheduler::on_issue(uint32_t slot) {
  check_slot(slot, m_capacity, "two-level scheduler");
  if (m_where[slot] != Where::active)
    throw_slot_error("two-level scheduler", slot, "issued but is not in the active set");
  m_last = slot;
}

void TwoLevelScheduler::on_long_latency_wait(uint32_t slot) {
  check_slot(slot, m_capacity, "two-level scheduler");
  if (m_where[slot] == Where::absent)
    throw_slot_error("two-level scheduler", slot, "is not scheduled");
  m_waiting[slot] = true;
  if (m_where[slot] == Where::active) {
    erase_slot(m_active, slot);
    m_pending.push_back(slot);
    m_where[slot] = Where::pending;
  }
}

void TwoLevelScheduler::on_long_latency_done(uint32_t slot) {
  check_slot(slot, m_capacity, "two-level scheduler");
  if (m_where[slot] == Where::absent)
    throw_slot_error("two-level scheduler", slot, "is not scheduled");
  m_waiting[slot] = false;
}

}  // namespace ohmvp::gpu
