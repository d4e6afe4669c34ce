#pragma once

#include <cstdint>
#include <systemc>

namespace ohmvp::gpu {

// Advances every block of one clock domain (all SMs of the GPU core) cycle by cycle inside a
// single SC_METHOD activation, ahead of SystemC time while nothing else in the system can
// interfere.
//
// Run-ahead rule: the loop simulates cycle c while time(c) <= now + sc_time_to_pending_activity(),
// i.e. up to the next instant at which another process could act. Something the client sends at
// local cycle c carries time(c) - sc_time_stamp() as its annotated delay (offset_of), so the
// receiver sees it at the right time. Something arriving from outside at time t is usable from
// cycle floor(t / period) + 1 (arrival_cycle): strictly after the edge it arrived at, which makes
// the result independent of the order of processes within one instant.
//
// When the client has no work before cycle n, the loop jumps there without simulating the cycles
// between; when it has none at all, the process sleeps until wake(). A wake() (something arrived
// from outside) makes the loop simulate the first cycle not yet simulated at or after the current
// time, so a jump never skips past an arrival. Nothing runs while idle.
class CycleLoop : public sc_core::sc_module {
 public:
  static constexpr uint64_t never = UINT64_MAX;

  class Client {
   public:
    virtual ~Client() = default;
    // Simulates cycle `cycle`. Returns the next cycle (> cycle) at which the client has work of
    // its own, or `never` when only an external event can give it some (then it must call
    // wake() when that event happens).
    virtual uint64_t step(uint64_t cycle) = 0;
    // While true, the loop goes through the client's idle cycles as stepping each of them would
    // (they cost nothing): it stops at the first cycle past the next pending activity, and then
    // at the first past the one after, rather than sleeping until the client's next cycle. The
    // process then wakes at the instants it would if stepped every cycle, which keeps the order
    // of same-instant processes that the results depend on (docs/gpu_timing.md).
    virtual bool paced() const { return false; }
  };

  CycleLoop(sc_core::sc_module_name name, uint64_t period_ps, Client& client);
  SC_HAS_PROCESS(CycleLoop);

  // Re-evaluates at the current time (new work: a launch, a response). Callable from any process;
  // a call from inside step() is not needed and is ignored.
  void wake();

  uint64_t period_ps() const { return m_period_ps; }
  // The cycle being simulated (inside step) or the next one to simulate.
  uint64_t cycle() const { return m_cycle; }
  uint64_t time_ps(uint64_t cycle) const { return cycle * m_period_ps; }
  // Annotated delay for something sent at `cycle`: time(cycle) - sc_time_stamp(), never negative.
  sc_core::sc_time offset_of(uint64_t cycle) const;
  // First cycle that may use something arriving at sc_time_stamp() + delay.
  uint64_t arrival_cycle(const sc_core::sc_time& delay) const;
  // Activations of the process so far (a figure for the speed benchmark and tests).
  uint64_t activations() const { return m_activations; }

 private:
  void run();

  uint64_t m_period_ps;
  Client& m_client;
  uint64_t m_cycle = 0;              // the next cycle to simulate
  uint64_t m_first_unsimulated = 0;  // every cycle before it has been simulated or skipped
  uint64_t m_activations = 0;
  bool m_in_step = false;
  bool m_woken = false;
  sc_core::sc_event m_wake;
};

}  // namespace ohmvp::gpu
