#include "modules/gpu/functional_unit.h"

#include <algorithm>
#include <string>

#include "modules/common/errors.h"

namespace ohmvp::gpu {

FunctionalUnit::FunctionalUnit(uint32_t latency, uint32_t initiation_interval)
    : m_latency(latency), m_initiation_interval(initiation_interval) {
  if (latency == 0 || initiation_interval == 0)
    throw SimulationError("functional unit: latency and initiation interval must be at least 1");
}

uint64_t FunctionalUnit::issue(uint64_t cycle) {
  return issue(cycle, m_latency, m_initiation_interval);
}

uint64_t FunctionalUnit::issue(uint64_t cycle, uint32_t latency, uint32_t initiation_interval) {
  if (!can_issue(cycle))
    throw SimulationError("functional unit: issue at cycle " + std::to_string(cycle) +
                          " while busy until cycle " + std::to_string(m_next_issue));
  return issue_free(cycle, latency, initiation_interval);
}

FunctionalUnitGroup::FunctionalUnitGroup(const UnitTiming& timing)
    : m_units(std::max(1u, timing.units_per_sub_core),
              FunctionalUnit(timing.latency, timing.initiation_interval)) {}

uint64_t FunctionalUnitGroup::issue(uint64_t cycle, uint32_t latency,
                                    uint32_t initiation_interval) {
  for (FunctionalUnit& unit : m_units) {
    if (unit.can_issue(cycle)) {
      const uint64_t ready = unit.issue(cycle, latency, initiation_interval);
      note_issue();
      return ready;
    }
  }
  return m_units.front().issue(cycle, latency, initiation_interval);  // throws
}

void FunctionalUnitGroup::note_issue() {
  m_next_free = m_units.front().next_free_cycle();
  for (const FunctionalUnit& unit : m_units)
    m_next_free = std::min(m_next_free, unit.next_free_cycle());
}

}  // namespace ohmvp::gpu
