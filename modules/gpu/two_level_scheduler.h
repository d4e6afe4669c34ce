#pragma once

#include <vector>

#include "modules/gpu/warp_scheduler.h"

namespace ohmvp::gpu {

// Two-level scheduling (Gebhart et al., ISCA 2011; Narasiman et al., MICRO 2011): only the
// warps of a small active set compete for issue, in loose round robin. A warp that starts
// waiting on a long-latency operation or at a barrier leaves the active set for the tail of the
// pending set (a barrier's waiters kept active would hold the set against the warps the barrier
// waits for);
// when the active set has room, the first pending warp (in pending order) that no longer waits
// and is ready is promoted. New warps join the active set while it has room, else the pending
// set.
class TwoLevelScheduler final : public WarpScheduler {
 public:
  TwoLevelScheduler(uint32_t capacity, uint32_t active_set_size);

  void add_warp(uint32_t slot, uint64_t age) override;
  void remove_warp(uint32_t slot) override;
  uint32_t pick(const WarpReadiness& ready) override;
  void on_issue(uint32_t slot) override;
  void on_long_latency_wait(uint32_t slot) override;
  void on_long_latency_done(uint32_t slot) override;
  bool wants_access_waits() const override { return true; }
  uint32_t warp_count() const override {
    return static_cast<uint32_t>(m_active.size() + m_pending.size());
  }
  WarpSchedulerPolicy policy() const override { return WarpSchedulerPolicy::two_level; }

  // For tests and traces: the sets in their current order.
  const std::vector<uint32_t>& active() const { return m_active; }
  const std::vector<uint32_t>& pending() const { return m_pending; }

 private:
  enum class Where : uint8_t { absent, active, pending };

  void promote_ready_pending(const WarpReadiness& ready);

  uint32_t m_capacity;
  uint32_t m_active_set_size;
  std::vector<uint32_t> m_active;   // round-robin order
  std::vector<uint32_t> m_pending;  // FIFO
  std::vector<Where> m_where;
  std::vector<bool> m_waiting;
  uint32_t m_last = k_no_warp;  // slot that issued last
};

}  // namespace ohmvp::gpu
