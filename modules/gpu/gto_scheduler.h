#pragma once

#include <vector>

#include "modules/gpu/warp_scheduler.h"

namespace ohmvp::gpu {

// Greedy then oldest: the warp that issued last keeps issuing while it is ready; when it
// stalls, the oldest ready warp (smallest age, then lowest slot) takes over.
class GtoScheduler final : public WarpScheduler {
 public:
  explicit GtoScheduler(uint32_t capacity);

  void add_warp(uint32_t slot, uint64_t age) override;
  void remove_warp(uint32_t slot) override;
  uint32_t pick(const WarpReadiness& ready) override { return pick_ready(ready); }
  // pick() with a readiness predicate the caller's compiler can inline (the SM's, for the
  // default policy, without WarpReadiness's indirect call per candidate).
  template <class Ready>
  uint32_t pick_ready(const Ready& ready) const {
    if (m_greedy != k_no_warp && ready(m_greedy)) return m_greedy;
    for (const Entry& entry : m_by_age)
      if (entry.slot != m_greedy && ready(entry.slot)) return entry.slot;
    return k_no_warp;
  }
  // Inline (through a GtoScheduler, as the SM calls it for the default policy): every issue
  // tells the scheduler.
  void on_issue(uint32_t slot) override {
    if (slot >= m_capacity || !m_present[slot]) throw_not_scheduled(slot);
    m_greedy = slot;
  }
  uint32_t warp_count() const override { return static_cast<uint32_t>(m_by_age.size()); }
  WarpSchedulerPolicy policy() const override { return WarpSchedulerPolicy::gto; }

 private:
  [[noreturn]] void throw_not_scheduled(uint32_t slot) const;

  struct Entry {
    uint64_t age;
    uint32_t slot;
  };
  uint32_t m_capacity;
  std::vector<Entry> m_by_age;  // oldest first
  std::vector<bool> m_present;
  uint32_t m_greedy = k_no_warp;
};

}  // namespace ohmvp::gpu
