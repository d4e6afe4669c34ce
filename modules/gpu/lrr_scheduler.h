#pragma once

#include <vector>

#include "modules/gpu/warp_scheduler.h"

namespace ohmvp::gpu {

// Loose round robin: the search starts at the slot after the one that issued last and takes
// the first ready warp, so every ready warp gets a turn.
class LrrScheduler final : public WarpScheduler {
 public:
  explicit LrrScheduler(uint32_t capacity);

  void add_warp(uint32_t slot, uint64_t age) override;
  void remove_warp(uint32_t slot) override;
  uint32_t pick(const WarpReadiness& ready) override;
  void on_issue(uint32_t slot) override;
  uint32_t warp_count() const override { return m_count; }
  WarpSchedulerPolicy policy() const override { return WarpSchedulerPolicy::lrr; }

 private:
  std::vector<bool> m_present;
  uint32_t m_count = 0;
  uint32_t m_last;  // slot that issued last
};

}  // namespace ohmvp::gpu
