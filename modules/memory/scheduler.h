#pragma once

#include <memory>
#include <vector>

#include "modules/memory/controller_request.h"

namespace ohmvp {

enum class SchedulerKind { fr_fcfs, fcfs };

// Chooses which of one bank's queued requests to serve next. The queue is in arrival order;
// blocked requests (an older request to the same burst is still queued) are never chosen.
// Returns the index of the chosen request, or npos if none is eligible.
class Scheduler {
 public:
  static constexpr size_t npos = static_cast<size_t>(-1);
  virtual ~Scheduler() = default;
  virtual size_t pick(const std::vector<ControllerRequest*>& queue, bool row_open,
                      Row open_row) const = 0;
};

// First-ready FCFS: the oldest request that hits the open row, else the oldest request.
class FrFcfsScheduler : public Scheduler {
 public:
  size_t pick(const std::vector<ControllerRequest*>& queue, bool row_open,
              Row open_row) const override;
};

// Strict arrival order within the bank.
class FcfsScheduler : public Scheduler {
 public:
  size_t pick(const std::vector<ControllerRequest*>& queue, bool row_open,
              Row open_row) const override;
};

std::unique_ptr<Scheduler> make_scheduler(SchedulerKind kind);

}  // namespace ohmvp
