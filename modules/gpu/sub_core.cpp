#include "modules/gpu/sub_core.h"

namespace ohmvp::gpu {

SubCore::SubCore(const GpuConfig& config, uint32_t warp_capacity, StatsRegistry& stats,
                 const std::string& group, VcdWriter* vcd, const std::string& scope)
    : m_scheduler(make_warp_scheduler(config.scheduler, warp_capacity)),
      m_gto(dynamic_cast<GtoScheduler*>(m_scheduler.get())),
      m_stats(stats, group) {
  m_units.reserve(k_unit_class_count);
  for (size_t u = 0; u < k_unit_class_count; ++u) m_units.emplace_back(config.units[u]);
  m_issued.attach(vcd, scope, "issued_warp", 8);
  m_active.attach(vcd, scope, "active_warps", 8);
  m_tensor.attach(vcd, scope, "tensor_hmma", 8);
}

void SubCore::record(uint64_t cycle, StallReason reason) {
  if (m_recording && cycle > m_next_cycle) m_stats.record(m_last, cycle - m_next_cycle);
  m_stats.record(reason, 1);
  m_last = reason;
  m_next_cycle = cycle + 1;
  m_recording = true;
}

}  // namespace ohmvp::gpu
