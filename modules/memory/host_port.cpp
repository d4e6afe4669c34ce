#include "modules/memory/host_port.h"

#include <algorithm>

#include "modules/common/sim_time.h"

namespace ohmvp {

HostPort::HostPort(sc_core::sc_module_name name, PcieLink& link, Done done)
    : sc_module(name), m_link(link), m_done(std::move(done)) {
  SC_METHOD(run);
  sensitive << m_wake;
  dont_initialize();
}

void HostPort::transfer(PcieLink::Direction direction, uint64_t bytes, uint64_t not_before_ps,
                        uint64_t token) {
  const uint64_t now = kernel_now_ps();
  const uint64_t arrival = m_link.transfer(direction, std::max(now, not_before_ps), bytes);
  m_arrivals.push(Arrival{arrival, m_sequence++, token});
  m_wake.notify(kernel_delay_of_ps(m_arrivals.top().time_ps - now));
}

void HostPort::run() {
  const uint64_t now = kernel_now_ps();
  while (!m_arrivals.empty() && m_arrivals.top().time_ps <= now) {
    const uint64_t token = m_arrivals.top().token;
    m_arrivals.pop();
    m_done(token);
  }
  if (!m_arrivals.empty()) {
    m_wake.notify(kernel_delay_of_ps(m_arrivals.top().time_ps - now));
  }
}

}  // namespace ohmvp
