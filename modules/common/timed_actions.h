#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <systemc>

namespace ohmvp {

// Actions that run at given simulated times, from one SystemC method: what a model that works
// out when things happen (a link's arrival times) calls back at those times. Actions due at
// the same time run in the order they were asked for.
class TimedActions : public sc_core::sc_module {
 public:
  explicit TimedActions(sc_core::sc_module_name name);
  SC_HAS_PROCESS(TimedActions);

  // Runs `action` at `time_ps`, or now (in the next delta cycle at the earliest) if that passed.
  void at(uint64_t time_ps, std::function<void()> action);
  bool idle() const { return m_actions.empty(); }

 private:
  void run();

  std::multimap<uint64_t, std::function<void()>> m_actions;
  sc_core::sc_event m_due;
};

}  // namespace ohmvp
