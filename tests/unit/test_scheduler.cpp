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

}  // namespace

TEST_CASE("scheduler: FR-FCFS serves the oldest row hit first") {
  const FrFcfsScheduler scheduler;
  Queue q;
  q.add(1);
  q.add(2);
  q.add(3);
  q.add(2);
  CHECK(scheduler.pick(q.queue(), true, Row{2}) == 1);
  CHECK(scheduler.pick(q.queue(), true, Row{3}) == 2);
}

TEST_CASE("scheduler: FR-FCFS falls back to the oldest request") {
  const FrFcfsScheduler scheduler;
  Queue q;
  q.add(1);
  q.add(2);
  SECTION("no request hits the open row") {
    CHECK(scheduler.pick(q.queue(), true, Row{7}) == 0);
  }
  SECTION("the bank is closed: the open row argument is ignored") {
    CHECK(scheduler.pick(q.queue(), false, Row{2}) == 0);
  }
}

TEST_CASE("scheduler: FR-FCFS never picks a blocked request") {
  const FrFcfsScheduler scheduler;
  Queue q;
  SECTION("a blocked hit gives way to a later hit") {
    q.add(1);
    q.add(2, true);
    q.add(2);
    CHECK(scheduler.pick(q.queue(), true, Row{2}) == 2);
  }
  SECTION("a blocked hit gives way to the oldest unblocked miss") {
    q.add(1, true);
    q.add(2, true);
    q.add(3);
    q.add(1);
    CHECK(scheduler.pick(q.queue(), true, Row{2}) == 2);
  }
  SECTION("all blocked") {
    q.add(2, true);
    q.add(2, true);
    CHECK(scheduler.pick(q.queue(), true, Row{2}) == npos);
    CHECK(scheduler.pick(q.queue(), false, Row{2}) == npos);
  }
}

TEST_CASE("scheduler: FCFS serves strictly in arrival order") {
  const FcfsScheduler scheduler;
  Queue q;
  q.add(1);
  q.add(2);
  CHECK(scheduler.pick(q.queue(), true, Row{2}) == 0);  // a younger row hit does not overtake
  CHECK(scheduler.pick(q.queue(), false, Row{0}) == 0);
}

TEST_CASE("scheduler: FCFS skips blocked requests") {
  const FcfsScheduler scheduler;
  Queue q;
  q.add(1, true);
  q.add(2, true);
  CHECK(scheduler.pick(q.queue(), true, Row{1}) == npos);
  q.add(3);
  q.add(1);
  CHECK(scheduler.pick(q.queue(), true, Row{1}) == 2);
}

TEST_CASE("scheduler: an empty queue has nothing to pick") {
  const std::vector<ControllerRequest*> empty;
  CHECK(FrFcfsScheduler().pick(empty, true, Row{0}) == npos);
  CHECK(FcfsScheduler().pick(empty, false, Row{0}) == npos);
}

TEST_CASE("scheduler: make_scheduler builds the named kind") {
  const auto fr_fcfs = make_scheduler(SchedulerKind::fr_fcfs);
  const auto fcfs = make_scheduler(SchedulerKind::fcfs);
  CHECK(dynamic_cast<const FrFcfsScheduler*>(fr_fcfs.get()) != nullptr);
  CHECK(dynamic_cast<const FcfsScheduler*>(fcfs.get()) != nullptr);
  // And they behave as such through the base interface.
  Queue q;
  q.add(1);
  q.add(2);
  CHECK(fr_fcfs->pick(q.queue(), true, Row{2}) == 1);
  CHECK(fcfs->pick(q.queue(), true, Row{2}) == 0);
}
