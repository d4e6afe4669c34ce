#include "modules/gpu/cycle_loop.h"

#include <algorithm>

#include "modules/common/sim_time.h"

namespace ohmvp::gpu {

namespace {

// The next instant another process may act, in ps; UINT64_MAX when none is pending.
inline uint64_t horizon_ps(uint64_t now) {
  const sc_core::sc_time to_pending = sc_core::sc_time_to_pending_activity();
  return to_pending >= sc_core::sc_max_time() - sc_core::sc_time_stamp() ? UINT64_MAX
                                                                         : now + to_pending.value();
}

}  // namespace

CycleLoop::CycleLoop(sc_core::sc_module_name name, uint64_t period_ps, Client& client)
    : sc_module(name), m_period_ps(period_ps), m_client(client) {
  SC_METHOD(run);
  sensitive << m_wake;
  dont_initialize();
}

void CycleLoop::wake() {
  if (m_in_step) return;
  m_woken = true;
  m_wake.notify(sc_core::SC_ZERO_TIME);
}

sc_core::sc_time CycleLoop::offset_of(uint64_t cycle) const {
  const uint64_t now = kernel_now_ps();
  const uint64_t at = time_ps(cycle);
  return kernel_delay_of_ps(at > now ? at - now : 0);
}

uint64_t CycleLoop::arrival_cycle(const sc_core::sc_time& delay) const {
  return (kernel_now_ps() + delay.value()) / m_period_ps + 1;
}

void CycleLoop::run() {
  ++m_activations;
  const uint64_t now = kernel_now_ps();
  const uint64_t now_cycle = (now + m_period_ps - 1) / m_period_ps;
  // Something arrived: look at the first cycle not yet simulated (nothing happened in the cycles
  // that passed while asleep).
  if (m_woken) m_cycle = std::max(m_first_unsimulated, now_cycle);
  m_woken = false;
  uint64_t horizon = horizon_ps(now);
  while (true) {
    if (time_ps(m_cycle) > horizon) {
      next_trigger(kernel_delay_of_ps(time_ps(m_cycle) - now), m_wake);
      return;
    }
    m_in_step = true;
    const uint64_t next = m_client.step(m_cycle);
    m_in_step = false;
    m_first_unsimulated = m_cycle + 1;
    const bool paced = next > m_cycle + 1 && m_client.paced();
    if (next != never || paced) horizon = horizon_ps(now);  // the step may have notified something
    if (paced) {
      const uint64_t past_horizon =
          horizon == UINT64_MAX ? never : horizon / m_period_ps + 1;  // time_ps > horizon
      if (past_horizon < next) {  // the idle cycles before it count as simulated
        m_first_unsimulated = m_cycle = std::max(past_horizon, m_cycle + 1);
        continue;
      }
    }
    if (next == never) {
      ++m_cycle;
      next_trigger(m_wake);
      return;
    }
    m_cycle = std::max(next, m_cycle + 1);
  }
}

}  // namespace ohmvp::gpu
