#include "modules/memory/scheduler.h"

namespace ohmvp {

Scheduler::Pick FrFcfsScheduler::pick(const std::vector<ControllerRequest*>& queue, bool row_open,
                                      Row open_row, uint32_t hits_ahead) const {
  const bool hits_first = row_open && hits_ahead < m_row_hit_cap;
  size_t oldest = npos;
  for (size_t i = 0; i < queue.size(); ++i) {
    const ControllerRequest* r = queue[i];
    if (r->blocked) continue;
    // An older eligible request, had there been one, missed the open row.
    if (hits_first && r->address.row == open_row) return Pick{i, oldest != npos};
    if (oldest == npos) oldest = i;
  }
  return Pick{oldest, false};
}

Scheduler::Pick FcfsScheduler::pick(const std::vector<ControllerRequest*>& queue, bool, Row,
                                    uint32_t) const {
  for (size_t i = 0; i < queue.size(); ++i) {
    if (!queue[i]->blocked) return Pick{i, false};
  }
  return Pick{};
}

std::unique_ptr<Scheduler> make_scheduler(SchedulerKind kind, uint32_t row_hit_cap) {
  if (kind == SchedulerKind::fcfs) return std::make_unique<FcfsScheduler>();
  return std::make_unique<FrFcfsScheduler>(row_hit_cap);
}

}  // namespace ohmvp
