#pragma once

#include <chrono>
#include <functional>
#include <systemc>

#include "modules/common/vcd_writer.h"

namespace ohmvp {

// Watches a run from inside simulated time, every `period`: moves the VCD writer's horizon to
// the current time (every module records changes at the current time or later, so what is
// older can be written), prints a progress line on a terminal (throttled to a few per
// wall-clock second), stops a run whose work no longer advances (a deadlock would otherwise run
// forever, since refresh never stops), stops a run at its time limit or once its VCD is full (a
// kernel that never ends) and stops a run a signal interrupted (interruption.h).
class RunMonitor : public sc_core::sc_module {
 public:
  struct Progress {
    uint64_t done;      // units of work completed
    uint64_t total;     // units in the workload; 0 when not known in advance
    uint64_t activity;  // grows whenever the platform gets work done
    bool busy;          // work is in flight (an idle gap in a trace is not a stall)
    const char* unit = "requests";
  };

  // `vcd`: the run's VCD writer, null for none. `time_limit`: the simulated time at which the
  // run stops; SC_ZERO_TIME for none.
  RunMonitor(sc_core::sc_module_name name, std::function<Progress()> progress, VcdWriter* vcd,
             bool show, sc_core::sc_time period, unsigned stall_periods,
             sc_core::sc_time time_limit = sc_core::SC_ZERO_TIME);
  SC_HAS_PROCESS(RunMonitor);

  bool stalled() const { return m_stalled; }
  // The simulated time without progress that makes a stall.
  sc_core::sc_time stall_window() const { return m_period * double(m_stall_periods); }
  bool over_time_limit() const { return m_over_time_limit; }
  bool over_vcd_limit() const { return m_over_vcd_limit; }
  void clear_line() const;

 private:
  void watch();
  void print(const Progress& p) const;

  std::function<Progress()> m_progress;
  VcdWriter* m_vcd;
  bool m_show;
  sc_core::sc_time m_period;
  unsigned m_stall_periods;
  sc_core::sc_time m_time_limit;
  bool m_stalled = false;
  bool m_over_time_limit = false;
  bool m_over_vcd_limit = false;
  mutable bool m_printed = false;
  std::chrono::steady_clock::time_point m_last_print;
};

// The simulated time between two looks of a run's monitor.
inline sc_core::sc_time monitor_period() {
  return sc_core::sc_time(10, sc_core::SC_US);
}

// How many looks every `period` without progress make a stall: a millisecond of simulated time,
// or ten of the platform's longest single operations (`longest_operation_ps`: a DRAM timing, an
// XPoint media access, a page fault's service) when that is longer, so that a platform set up
// with very slow memory is not taken for a deadlock.
unsigned stall_looks(sc_core::sc_time period, uint64_t longest_operation_ps);

}  // namespace ohmvp
