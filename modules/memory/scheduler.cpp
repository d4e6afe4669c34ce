#include "modules/memory/scheduler.h"

namespace ohmvp {

size_t FrFcfsScheduler::pick(const std::vector<ControllerRequest*>& queue, bool row_open,
                             Row open_row) const {
  size_t oldest = npos;
  for (size_t i = 0; i < queue.size(); ++i) {
    const ControllerRequest* r = queue[i];
    if (r->blocked) continue;
    if (row_open && r->address.row == open_row) return i;
    if (oldest == npos) oldest = i;
  }
  return oldest;
}

size_t FcfsScheduler::pick(const std::vector<ControllerRequest*>& queue, bool, Row) const {
  for (size_t i = 0; i < queue.size(); ++i) {
    if (!queue[i]->blocked) return i;
  }
  return npos;
}

std::unique_ptr<Scheduler> make_scheduler(SchedulerKind kind) {
  if (kind == SchedulerKind::fcfs) return std::make_unique<FcfsScheduler>();
  return std::make_unique<FrFcfsScheduler>();
}

}  // namespace ohmvp
