#include "modules/common/timed_actions.h"

#include <algorithm>

#include "modules/common/sim_time.h"

namespace ohmvp {

TimedActions::TimedActions(sc_core::sc_module_name name) : sc_module(name) {
  SC_METHOD(run);
  sensitive << m_due;
  dont_initialize();
}

void TimedActions::at(uint64_t time_ps, std::function<void()> action) {
  const uint64_t now = kernel_now_ps();
  m_actions.emplace(std::max(time_ps, now), std::move(action));
  m_due.notify(kernel_delay_of_ps(m_actions.begin()->first - now));
}

void TimedActions::run() {
  const uint64_t now = kernel_now_ps();
  while (!m_actions.empty() && m_actions.begin()->first <= now) {
    std::function<void()> action = std::move(m_actions.begin()->second);
    m_actions.erase(m_actions.begin());
    action();
  }
  if (!m_actions.empty()) m_due.notify(kernel_delay_of_ps(m_actions.begin()->first - now));
}

}  // namespace ohmvp
