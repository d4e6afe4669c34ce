#include <catch2/catch.hpp>

#include <deque>
#include <vector>

#include "modules/memory/scheduler.h"

using namespace ohmvp;

namespace {

// Requests to one bank, in arrival order; pointers stay valid as requests are added.
class Queue {
 public:
  ControllerRequest* add(uint32_t row, bool blocked = false) {
    ControllerRequest& r = m_requests.emplace_back();
    r.address.row = Row{row};
    r.sequence = m_requests.size() - 1;
    r.blocked = blocked;
    m_queue.push_back(&r);
    return &r;
  }
  const std::vector<ControllerRequest*>& queue() const { return m_queue; }

 private:
  std::deque<ControllerRequest> m_requests;
  std::vector<ControllerRequest*> m_queue;
};

constexpr size_t npos = Scheduler::npos;
constexpr uint32_t cap = 16;

size_t position(const Scheduler& scheduler, const Queue& q, bool row_open, uint32_t open_row,
                uint32_t hits_ahead = 0) {
  return scheduler.pick(q.queue(), row_open, Row{open_row}, hits_ahead).position;
}

}  // namespace

TEST_CASE("scheduler: FR-FCFS serves the oldest row hit first") {
  const FrFcfsScheduler scheduler(cap);
  Queue q;
  q.add(1);
  q.add(2);
  q.add(3);
  q.add(2);
  CHECK(position(scheduler, q, true, 2) == 1);
  CHECK(position(scheduler, q, true, 3) == 2);
}

TEST_CASE("scheduler: FR-FCFS falls back to the oldest request") {
  const FrFcfsScheduler scheduler(cap);
  Queue q;
  q.add(1);
  q.add(2);
  SECTION("no request hits the open row") {
    CHECK(position(scheduler, q, true, 7) == 0);
  }
  SECTION("the bank is closed: the open row argument is ignored") {
    CHECK(position(scheduler, q, false, 2) == 0);
  }
}

TEST_CASE("scheduler: FR-FCFS never picks a blocked request") {
  const FrFcfsScheduler scheduler(cap);
  Queue q;
  SECTION("a blocked hit gives way to a later hit") {
    q.add(1);
    q.add(2, true);
    q.add(2);
    CHECK(position(scheduler, q, true, 2) == 2);
  }
  SECTION("a blocked hit gives way to the oldest unblocked miss") {
    q.add(1, true);
    q.add(2, true);
    q.add(3);
    q.add(1);
    CHECK(position(scheduler, q, true, 2) == 2);
  }
  SECTION("all blocked") {
    q.add(2, true);
    q.add(2, true);
    CHECK(position(scheduler, q, true, 2) == npos);
    CHECK(position(scheduler, q, false, 2) == npos);
  }
}

TEST_CASE("scheduler: FR-FCFS says whether its hit goes ahead of an older request") {
  const FrFcfsScheduler scheduler(cap);
  Queue q;
  q.add(1);
  q.add(2);
  q.add(1);
  const Scheduler::Pick ahead = scheduler.pick(q.queue(), true, Row{2}, 0);
  CHECK(ahead.position == 1);
  CHECK(ahead.bypasses);
  const Scheduler::Pick oldest = scheduler.pick(q.queue(), true, Row{1}, 0);
  CHECK(oldest.position == 0);
  CHECK_FALSE(oldest.bypasses);
  CHECK_FALSE(scheduler.pick(q.queue(), true, Row{7}, 0).bypasses);  // the oldest, a miss
}

TEST_CASE("scheduler: FR-FCFS serves the oldest request once the cap of hits went ahead") {
  const FrFcfsScheduler scheduler(cap);
  Queue q;
  q.add(1);
  q.add(2);
  CHECK(position(scheduler, q, true, 2, cap - 1) == 1);
  CHECK(position(scheduler, q, true, 2, cap) == 0);
  CHECK_FALSE(scheduler.pick(q.queue(), true, Row{2}, cap).bypasses);
  SECTION("a blocked oldest request is not waited for") {
    Queue blocked;
    blocked.add(1, true);
    blocked.add(2);
    CHECK(position(scheduler, blocked, true, 2, cap) == 1);
    CHECK_FALSE(scheduler.pick(blocked.queue(), true, Row{2}, 0).bypasses);
  }
}

TEST_CASE("scheduler: FCFS serves strictly in arrival order") {
  const FcfsScheduler scheduler;
  Queue q;
  q.add(1);
  q.add(2);
  CHECK(position(scheduler, q, true, 2) == 0);  // a younger row hit does not overtake
  CHECK(position(scheduler, q, false, 0) == 0);
}

TEST_CASE("scheduler: FCFS skips blocked requests") {
  const FcfsScheduler scheduler;
  Queue q;
  q.add(1, true);
  q.add(2, true);
  CHECK(position(scheduler, q, true, 1) == npos);
  q.add(3);
  q.add(1);
  CHECK(position(scheduler, q, true, 1) == 2);
}

TEST_CASE("scheduler: an empty queue has nothing to pick") {
  const std::vector<ControllerRequest*> empty;
  CHECK(FrFcfsScheduler(cap).pick(empty, true, Row{0}, 0).position == npos);
  CHECK(FcfsScheduler().pick(empty, false, Row{0}, 0).position == npos);
}

TEST_CASE("scheduler: make_scheduler builds the named kind") {
  const auto fr_fcfs = make_scheduler(SchedulerKind::fr_fcfs, cap);
  const auto fcfs = make_scheduler(SchedulerKind::fcfs, cap);
  CHECK(dynamic_cast<const FrFcfsScheduler*>(fr_fcfs.get()) != nullptr);
  CHECK(dynamic_cast<const FcfsScheduler*>(fcfs.get()) != nullptr);
  // And they behave as such through the base interface.
  Queue q;
  q.add(1);
  q.add(2);
  CHECK(position(*fr_fcfs, q, true, 2) == 1);
  CHECK(position(*fcfs, q, true, 2) == 0);
}
