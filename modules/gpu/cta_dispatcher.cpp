#include "modules/gpu/cta_dispatcher.h"

#include <string>

#include "modules/common/errors.h"

namespace ohmvp::gpu {

CtaDispatcher::CtaDispatcher(uint32_t sm_count) : m_resident(sm_count, 0) {
  if (sm_count == 0) throw SimulationError("CTA dispatcher: needs at least one SM");
}

void CtaDispatcher::start_grid(uint64_t cta_count, uint32_t ctas_per_sm) {
  if (!grid_done())
    throw SimulationError("CTA dispatcher: a grid started while " +
                          std::to_string(m_cta_count - m_completed) +
                          " CTAs of the previous one are unfinished");
  if (ctas_per_sm == 0) throw SimulationError("CTA dispatcher: no CTA fits on an SM");
  m_ctas_per_sm = ctas_per_sm;
  m_cta_count = cta_count;
  m_next_cta = 0;
  m_completed = 0;
  m_next_sm = 0;
}

bool CtaDispatcher::next(Assignment& assignment) {
  if (all_dispatched()) return false;
  const uint32_t count = sm_count();
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t sm = (m_next_sm + i) % count;
    if (m_resident[sm] < m_ctas_per_sm) {
      ++m_resident[sm];
      assignment = Assignment{sm, m_next_cta++};
      m_next_sm = (sm + 1) % count;
      return true;
    }
  }
  return false;
}

void CtaDispatcher::finished(uint32_t sm) {
  if (sm >= sm_count() || m_resident[sm] == 0)
    throw SimulationError("CTA dispatcher: SM " + std::to_string(sm) +
                          " finished a CTA it does not hold");
  --m_resident[sm];
  ++m_completed;
}

}  // namespace ohmvp::gpu
