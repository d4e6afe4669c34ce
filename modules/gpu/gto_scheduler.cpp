#include "modules/gpu/gto_scheduler.h"

#include <algorithm>

#include "modules/gpu/warp_slot_check.h"

namespace ohmvp::gpu {

GtoScheduler::GtoScheduler(uint32_t capacity)
    : m_capacity(check_capacity(capacity)), m_present(capacity, false) {
  m_by_age.reserve(capacity);
}

void GtoScheduler::add_warp(uint32_t slot, uint64_t age) {
  check_slot(slot, m_capacity, "GTO scheduler");
  if (m_present[slot]) throw_slot_error("GTO scheduler", slot, "is already scheduled");
  m_present[slot] = true;
  const Entry entry{age, slot};
  const auto position =
      std::upper_bound(m_by_age.begin(), m_by_age.end(), entry, [](const Entry& a, const Entry& b) {
        return a.age != b.age ? a.age < b.age : a.slot < b.slot;
      });
  m_by_age.insert(position, entry);
}

void GtoScheduler::remove_warp(uint32_t slot) {
  check_slot(slot, m_capacity, "GTO scheduler");
  if (!m_present[slot]) throw_slot_error("GTO scheduler", slot, "is not scheduled");
  m_present[slot] = false;
  m_by_age.erase(std::find_if(m_by_age.begin(), m_by_age.end(),
                              [slot](const Entry& e) { return e.slot == slot; }));
  if (m_greedy == slot) m_greedy = k_no_warp;
}

void GtoScheduler::throw_not_scheduled(uint32_t slot) const {
  check_slot(slot, m_capacity, "GTO scheduler");
  throw_slot_error("GTO scheduler", slot, "issued but is not scheduled");
}

}  // namespace ohmvp::gpu
