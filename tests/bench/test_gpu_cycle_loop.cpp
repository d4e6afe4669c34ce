#include <catch2/catch.hpp>
#include <systemc>
#include <vector>

#include "modules/gpu/cycle_loop.h"

using namespace ohmvp::gpu;
using sc_core::SC_NS;
using sc_core::sc_time;

namespace {

constexpr uint64_t period_ps = 1000;

// Busy every cycle from a start cycle to an end cycle, optionally with no work from `gap_at` to
// `gap_to`; records the SystemC time each cycle was simulated at.
struct Client : CycleLoop::Client {
  uint64_t busy_until = 0;
  uint64_t gap_at = CycleLoop::never;
  uint64_t gap_to = 0;
  bool pace = false;
  std::vector<uint64_t> cycles;
  std::vector<uint64_t> stamps_ps;

  uint64_t step(uint64_t cycle) override {
    cycles.push_back(cycle);
    stamps_ps.push_back(sc_core::sc_time_stamp().value());
    if (cycle >= gap_at && cycle < gap_to) return gap_to;
    return cycle + 1 < busy_until ? cycle + 1 : CycleLoop::never;
  }
  bool paced() const override { return pace; }
};

// Another process of the system: acts at given instants, which bound the loop's run-ahead.
struct Neighbour : sc_core::sc_module {
  sc_core::sc_event tick;
  std::vector<uint64_t> seen_ps;
  std::function<void()> action;
  explicit Neighbour(sc_core::sc_module_name name) : sc_module(name) {
    SC_METHOD(run);
    sensitive << tick;
    dont_initialize();
  }
  SC_HAS_PROCESS(Neighbour);
  void run() {
    seen_ps.push_back(sc_core::sc_time_stamp().value());
    if (action) action();
  }
};

struct Bench {
  Client client;
  CycleLoop loop{"loop", period_ps, client};
  Neighbour neighbour{"neighbour"};
  Bench() { sc_core::sc_start(sc_core::SC_ZERO_TIME); }
};

Bench& bench() {
  static Bench instance;
  return instance;
}

}  // namespace

TEST_CASE("cycle loop: runs ahead up to the next pending activity, then resumes there") {
  Bench& b = bench();
  b.client.busy_until = 100;
  b.neighbour.tick.notify(sc_time(50.5, SC_NS));
  b.loop.wake();
  sc_core::sc_start(sc_time(1, sc_core::SC_US));

  REQUIRE(b.client.cycles.size() == 100);
  for (uint64_t c = 0; c < 100; ++c) {
    CHECK(b.client.cycles[c] == c);
    // Cycles 0..50 lie at or before the neighbour's 50.5 ns: simulated in the first activation.
    CHECK(b.client.stamps_ps[c] == (c <= 50 ? 0 : 51000));
  }
  CHECK(b.neighbour.seen_ps == std::vector<uint64_t>{50500});
  CHECK(b.loop.activations() == 2);
}

TEST_CASE("cycle loop: sleeps while idle, a wake resumes at the current cycle") {
  Bench& b = bench();
  b.client.cycles.clear();
  b.client.stamps_ps.clear();
  const uint64_t activations = b.loop.activations();
  b.client.busy_until = 2000 + 3;
  b.neighbour.action = [&b] { b.loop.wake(); };
  b.neighbour.tick.notify(sc_time(1000, SC_NS) + sc_time(200.5, SC_NS) - sc_core::sc_time_stamp());
  sc_core::sc_start(sc_time(2, sc_core::SC_US));
  // Woken at 1200.5 ns: the first cycle at or after it is 1201.
  REQUIRE(b.client.cycles.size() == 2003 - 1201);
  CHECK(b.client.cycles.front() == 1201);
  CHECK(b.client.stamps_ps.front() == 1200500);
  CHECK(b.loop.activations() == activations + 1);
  b.neighbour.action = nullptr;
}

TEST_CASE("cycle loop: a client with no work until cycle n is not stepped in between") {
  Bench& b = bench();
  b.client.cycles.clear();
  b.client.stamps_ps.clear();
  const uint64_t start = sc_core::sc_time_stamp().value() / period_ps;
  b.client.gap_at = start;
  b.client.gap_to = start + 500;
  b.client.busy_until = start + 502;
  // A neighbour at start + 100.5 cycles bounds the run-ahead: the loop sleeps through it to the
  // gap's end and runs out from there.
  b.neighbour.tick.notify(sc_time::from_value((start + 100) * period_ps + 500) -
                          sc_core::sc_time_stamp());
  b.loop.wake();
  sc_core::sc_start(sc_time(2, sc_core::SC_US));
  REQUIRE(b.client.cycles == std::vector<uint64_t>{start, start + 500, start + 501});
  CHECK(b.client.stamps_ps[0] == start * period_ps);
  CHECK(b.client.stamps_ps[1] == (start + 500) * period_ps);
}

TEST_CASE("cycle loop: a paced client's idle cycles end where stepping each would have stopped") {
  Bench& b = bench();
  const uint64_t start = sc_core::sc_time_stamp().value() / period_ps + 10;
  sc_core::sc_start(sc_time::from_value(start * period_ps) - sc_core::sc_time_stamp());
  b.client.cycles.clear();
  b.client.stamps_ps.clear();
  b.neighbour.seen_ps.clear();
  const uint64_t activations = b.loop.activations();
  b.client.pace = true;
  b.client.gap_at = start;
  b.client.gap_to = start + 500;
  b.client.busy_until = start + 502;
  // The neighbour acts at start + 100.5 cycles and then at start + 300.5. Stepping every cycle,
  // the loop would stop at the first cycle past each, start + 101 and start + 301, and wake
  // there; paced, it wakes at the same instants but steps only the first cycle of each stretch.
  const auto half_cycles_from_now = [](uint64_t half_cycles) {
    return sc_time::from_value(half_cycles * period_ps / 2) - sc_core::sc_time_stamp();
  };
  b.neighbour.action = [&] {
    if (b.neighbour.seen_ps.size() == 1)
      b.neighbour.tick.notify(half_cycles_from_now(2 * start + 601));
  };
  b.neighbour.tick.notify(half_cycles_from_now(2 * start + 201));
  b.loop.wake();
  sc_core::sc_start(sc_time(2, sc_core::SC_US));
  REQUIRE(b.client.cycles ==
          std::vector<uint64_t>{start, start + 101, start + 301, start + 500, start + 501});
  CHECK(b.client.stamps_ps[0] == start * period_ps);
  CHECK(b.client.stamps_ps[1] == (start + 101) * period_ps);
  CHECK(b.client.stamps_ps[2] == (start + 301) * period_ps);
  CHECK(b.client.stamps_ps[3] == (start + 301) * period_ps);  // nothing pending: run ahead
  CHECK(b.neighbour.seen_ps == std::vector<uint64_t>{(2 * start + 201) * period_ps / 2,
                                                     (2 * start + 601) * period_ps / 2});
  CHECK(b.loop.activations() == activations + 3);
  b.client.pace = false;
  b.neighbour.action = nullptr;
}

TEST_CASE("cycle loop: annotated delay of a local cycle and the arrival cycle of a response") {
  Bench& b = bench();
  const uint64_t now = sc_core::sc_time_stamp().value();
  const uint64_t cycle = now / period_ps + 7;
  CHECK(b.loop.offset_of(cycle).value() == cycle * period_ps - now);
  CHECK(b.loop.offset_of(0) == sc_core::SC_ZERO_TIME);
  CHECK(b.loop.arrival_cycle(sc_time::from_value(cycle * period_ps - now)) == cycle + 1);
  CHECK(b.loop.arrival_cycle(sc_time::from_value(cycle * period_ps - now + 1)) == cycle + 1);
}
