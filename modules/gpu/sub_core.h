#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>

#include "modules/common/trace_signal.h"
#include "modules/gpu/functional_unit.h"
#include "modules/gpu/gpu_config.h"
#include "modules/gpu/gto_scheduler.h"
#include "modules/gpu/sm_stats.h"
#include "modules/gpu/warp_scheduler.h"

namespace ohmvp::gpu {

// One of an SM's sub-cores (processing blocks): its warp scheduler, one group of functional
// units per unit class, its issue-stall counters and its VCD signals. The SM runs the issue
// logic; the sub-core holds the state it works on.
class SubCore {
 public:
  SubCore(const GpuConfig& config, uint32_t warp_capacity, StatsRegistry& stats,
          const std::string& group, VcdWriter* vcd, const std::string& scope);

  WarpScheduler& scheduler() { return *m_scheduler; }
  // The scheduler when it is greedy-then-oldest (the SM inlines its pick), else null.
  GtoScheduler* gto_scheduler() { return m_gto; }
  FunctionalUnitGroup& unit(UnitClass unit) { return m_units[unit_index(unit)]; }
  SubCoreStats& stats() { return m_stats; }
  const SubCoreStats& stats() const { return m_stats; }

  // Counts the cycles since the last record as stalled for the reason seen then (nothing can
  // change while the SM is asleep), then `reason` for `cycle` itself.
  void record(uint64_t cycle, StallReason reason);
  // The SM has no warp left: cycles from now on are not the sub-core's until record() again.
  void pause() {
    m_recording = false;
    m_tensor_idle_ps = 0;
  }
  // Issued-warp signal: the warp's slot + 1 at `time_ps`, 0 when it issued nothing.
  void trace_issue(uint32_t warp_plus_one, uint64_t time_ps) {
    m_issued.set(warp_plus_one, time_ps);
  }
  void trace_active(uint32_t warps, uint64_t time_ps) { m_active.set(warps, time_ps); }
  // Tensor-core signal: the HMMA steps of the matrix multiply issued at `time_ps`, back to 0
  // at `idle_ps` (when its last step has ended) unless another one issues before then. The
  // return to 0 is recorded at once, ahead of time (the SM may sleep past it while the VCD's
  // horizon moves on); one that issues before it overrides it where it runs longer (at one time
  // the last value recorded wins).
  void trace_tensor(uint32_t hmma, uint64_t time_ps, uint64_t idle_ps) {
    m_tensor.record(hmma, time_ps);
    if (m_tensor_idle_ps > time_ps && idle_ps > m_tensor_idle_ps)
      m_tensor.record(hmma, m_tensor_idle_ps);
    m_tensor.record(0, idle_ps);
    m_tensor_idle_ps = idle_ps;
  }

  uint32_t resident_warps = 0;

 private:
  std::unique_ptr<WarpScheduler> m_scheduler;
  GtoScheduler* m_gto;
  std::vector<FunctionalUnitGroup> m_units;
  SubCoreStats m_stats;
  StallReason m_last = StallReason::no_ready_warp;
  uint64_t m_next_cycle = 0;  // first cycle not yet recorded
  bool m_recording = false;
  TraceSignal m_issued;
  TraceSignal m_active;
  TraceSignal m_tensor;
  uint64_t m_tensor_idle_ps = 0;  // when the last traced matrix multiply ends (0: none pending)
};

}  // namespace ohmvp::gpu
