#include "platforms/run_monitor.h"

#include <cstdio>

#include "platforms/interruption.h"

namespace ohmvp {

RunMonitor::RunMonitor(sc_core::sc_module_name name, std::function<Progress()> progress,
                       VcdWriter* vcd, bool show, sc_core::sc_time period, unsigned stall_periods,
                       sc_core::sc_time time_limit)
    : sc_module(name),
      m_progress(std::move(progress)),
      m_vcd(vcd),
      m_show(show),
      m_period(period),
      m_stall_periods(stall_periods),
      m_time_limit(time_limit),
      m_last_print(std::chrono::steady_clock::now()) {
  SC_THREAD(watch);
}

void RunMonitor::watch() {
  uint64_t last_activity = 0;
  unsigned idle_periods = 0;
  const bool limited = m_time_limit != sc_core::SC_ZERO_TIME;
  for (;;) {
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    if (limited && now + m_period >= m_time_limit) {
      wait(m_time_limit - now);
      m_over_time_limit = true;
      sc_core::sc_stop();
      return;
    }
    wait(m_period);
    if (m_vcd) {
      m_vcd->set_horizon(sc_core::sc_time_stamp().value());
      if (m_vcd->full()) {
        m_over_vcd_limit = true;
        sc_core::sc_stop();
        return;
      }
    }
    if (interruption() != 0) {  // Ctrl-C: the run's caller says so (end_if_interrupted)
      sc_core::sc_stop();
      return;
    }
    const Progress p = m_progress();
    idle_periods = p.busy && p.activity == last_activity ? idle_periods + 1 : 0;
    last_activity = p.activity;
    if (idle_periods >= m_stall_periods) {
      m_stalled = true;
      sc_core::sc_stop();
      return;
    }
    if (m_show &&
        std::chrono::steady_clock::now() - m_last_print > std::chrono::milliseconds(250)) {
      print(p);
      m_last_print = std::chrono::steady_clock::now();
    }
  }
}

void RunMonitor::print(const Progress& p) const {
  const double us = sc_core::sc_time_stamp().to_seconds() * 1e6;
  const auto done = static_cast<unsigned long long>(p.done);
  if (p.total > 0)
    std::fprintf(stderr, "\r[ohmvp] %.3f us simulated, %llu of %llu %s done", us, done,
                 static_cast<unsigned long long>(p.total), p.unit);
  else
    std::fprintf(stderr, "\r[ohmvp] %.3f us simulated, %llu %s done", us, done, p.unit);
  std::fflush(stderr);
  m_printed = true;
}

void RunMonitor::clear_line() const {
  if (m_printed) std::fprintf(stderr, "\r\033[K");
}

unsigned stall_looks(sc_core::sc_time period, uint64_t longest_operation_ps) {
  const uint64_t period_ps = period.value();
  const uint64_t window_ps = std::max<uint64_t>(1'000'000'000, 10 * longest_operation_ps);
  return static_cast<unsigned>((window_ps + period_ps - 1) / period_ps);
}

}  // namespace ohmvp
