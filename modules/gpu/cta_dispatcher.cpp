#include "modules/gpu/cta_dispatcher.h"

#include <algorithm>
#include <string>

#include "modules/common/errors.h"

namespace ohmvp::gpu {

CtaDispatcher::CtaDispatcher(uint32_t sm_count, const SmLimits& limits, uint32_t warp_size)
    : m_limits(limits), m_warp_size(warp_size), m_used(sm_count) {
  if (sm_count == 0) throw SimulationError("CTA dispatcher: needs at least one SM");
}

void CtaDispatcher::add_grid(uint32_t grid, uint64_t cta_count, const Occupancy& occupancy,
                             bool all_at_once, int priority) {
  if (find(grid) != nullptr)
    throw SimulationError("CTA dispatcher: grid " + std::to_string(grid) + " added twice");
  if (occupancy.ctas_per_sm == 0) throw SimulationError("CTA dispatcher: no CTA fits on an SM");
  Grid added;
  added.id = grid;
  added.cta_count = cta_count;
  added.all_at_once = all_at_once;
  added.priority = priority;
  added.cta.ctas = 1;
  added.cta.warps = occupancy.warps_per_cta;
  added.cta.threads = uint64_t{occupancy.warps_per_cta} * m_warp_size;
  added.cta.registers = occupancy.registers_per_cta;
  added.cta.shared_bytes = occupancy.shared_bytes_per_cta;
  // After every grid of the same or a greater priority, before the lesser ones.
  const auto before = std::find_if(m_grids.begin(), m_grids.end(),
                                   [priority](const Grid& g) { return g.priority > priority; });
  m_grids.insert(before, added);
}

CtaDispatcher::Use& CtaDispatcher::Use::operator+=(const Use& cta) {
  ctas += cta.ctas;
  threads += cta.threads;
  warps += cta.warps;
  registers += cta.registers;
  shared_bytes += cta.shared_bytes;
  return *this;
}

CtaDispatcher::Use& CtaDispatcher::Use::operator-=(const Use& cta) {
  ctas -= cta.ctas;
  threads -= cta.threads;
  warps -= cta.warps;
  registers -= cta.registers;
  shared_bytes -= cta.shared_bytes;
  return *this;
}

bool CtaDispatcher::fits(const Use& used, const Use& cta) const {
  return used.ctas + cta.ctas <= m_limits.max_ctas &&
         used.threads + cta.threads <= m_limits.max_threads &&
         used.warps + cta.warps <= m_limits.max_warps &&
         used.registers + cta.registers <= m_limits.registers &&
         used.shared_bytes + cta.shared_bytes <= m_limits.shared_memory_bytes;
}

bool CtaDispatcher::next(Assignment& assignment) {
  const auto head = std::find_if(m_grids.begin(), m_grids.end(),
                                 [](const Grid& g) { return g.next_cta < g.cta_count; });
  if (head == m_grids.end()) return false;
  if (head->next_cta == 0) {
    if (head->all_at_once &&
        std::any_of(m_used.begin(), m_used.end(), [](const Use& used) { return used.ctas != 0; }))
      return false;
    m_next_sm = 0;
  }
  const uint32_t count = sm_count();
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t sm = (m_next_sm + i) % count;
    Use& used = m_used[sm];
    if (!fits(used, head->cta)) continue;
    used += head->cta;
    assignment = Assignment{sm, head->id, head->next_cta++};
    m_next_sm = (sm + 1) % count;
    return true;
  }
  return false;
}

void CtaDispatcher::finished(uint32_t sm, uint32_t grid) {
  Grid& g = get(grid, "finished a CTA of");
  if (sm >= sm_count() || g.completed == g.next_cta || m_used[sm].ctas == 0)
    throw SimulationError("CTA dispatcher: SM " + std::to_string(sm) + " finished a CTA of grid " +
                          std::to_string(grid) + " it does not hold");
  m_used[sm] -= g.cta;
  ++g.completed;
}

void CtaDispatcher::remove_grid(uint32_t grid) {
  const Grid& g = get(grid, "removed");
  if (g.completed != g.cta_count)
    throw SimulationError("CTA dispatcher: grid " + std::to_string(grid) + " removed with " +
                          std::to_string(g.cta_count - g.completed) + " CTAs unfinished");
  m_grids.erase(locate(grid));
}

void CtaDispatcher::clear() {
  m_grids.clear();
  std::fill(m_used.begin(), m_used.end(), Use{});
  m_next_sm = 0;
}

bool CtaDispatcher::grid_done(uint32_t grid) const {
  const Grid* g = find(grid);
  return g != nullptr && g->completed == g->cta_count;
}

bool CtaDispatcher::all_dispatched() const {
  return std::all_of(m_grids.begin(), m_grids.end(),
                     [](const Grid& g) { return g.next_cta == g.cta_count; });
}

std::deque<CtaDispatcher::Grid>::const_iterator CtaDispatcher::locate(uint32_t grid) const {
  return std::find_if(m_grids.begin(), m_grids.end(),
                      [grid](const Grid& g) { return g.id == grid; });
}

const CtaDispatcher::Grid* CtaDispatcher::find(uint32_t grid) const {
  const auto found = locate(grid);
  return found == m_grids.end() ? nullptr : &*found;
}

CtaDispatcher::Grid& CtaDispatcher::get(uint32_t grid, const char* what) {
  const auto found = locate(grid);
  if (found == m_grids.end())
    throw SimulationError("CTA dispatcher: " + std::string(what) + " grid " + std::to_string(grid) +
                          ", which it does not hold");
  return m_grids[size_t(found - m_grids.begin())];
}

}  // namespace ohmvp::gpu
