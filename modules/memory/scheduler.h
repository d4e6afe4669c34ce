#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "modules/memory/controller_request.h"

namespace ohmvp {

enum class SchedulerKind { fr_fcfs, fcfs };

// Chooses which of one bank's queued requests to serve next. The queue is in arrival order;
// blocked requests (an older request to the same burst is still queued) are never chosen.
class Scheduler {
 public:
  static constexpr size_t npos = static_cast<size_t>(-1);
  struct Pick {
    size_t position = npos;  // of the chosen request; npos if none is eligible
    // It hits the open row ahead of an older eligible request to another row.
    bool bypasses = false;
  };
  virtual ~Scheduler() = default;
  // `hits_ahead`: the requests that went ahead of an older one since the open row was opened.
  virtual Pick pick(const std::vector<ControllerRequest*>& queue, bool row_open, Row open_row,
                    uint32_t hits_ahead) const = 0;
};

// First-ready FCFS with a cap (FR-FCFS+Cap, Mutlu and Moscibroda, MICRO 2007): the oldest
// request that hits the open row, else the oldest request; once `row_hit_cap` hits have gone
// ahead of an older request to another row, that request is next.
class FrFcfsScheduler : public Scheduler {
 public:
  explicit FrFcfsScheduler(uint32_t row_hit_cap) : m_row_hit_cap(row_hit_cap) {}
  Pick pick(const std::vector<ControllerRequest*>& queue, bool row_open, Row open_row,
            uint32_t hits_ahead) const override;

 private:
  uint32_t m_row_hit_cap;
};

// Strict arrival order within the bank.
class FcfsScheduler : public Scheduler {
 public:
  Pick pick(const std::vector<ControllerRequest*>& queue, bool row_open, Row open_row,
            uint32_t hits_ahead) const override;
};

std::unique_ptr<Scheduler> make_scheduler(SchedulerKind kind, uint32_t row_hit_cap);

}  // namespace ohmvp
