#pragma once

#include <cstdint>
#include <vector>

#include "modules/gpu/gpu_config.h"

namespace ohmvp::gpu {

// One pipelined functional unit: it accepts a warp instruction every `initiation_interval`
// cycles and its result is ready `latency` cycles after issue. Cycles are the SM's core cycles.
class FunctionalUnit {
 public:
  FunctionalUnit(uint32_t latency, uint32_t initiation_interval);

  bool can_issue(uint64_t cycle) const { return cycle >= m_next_issue; }
  // Issues at `cycle` and returns the cycle the result is ready; throws SimulationError when the
  // unit is still busy (the caller checks can_issue first).
  uint64_t issue(uint64_t cycle);
  // Issues an instruction with its own timing (the tensor cores' wmma.mma, whose latency and
  // busy cycles depend on its mode and shape).
  uint64_t issue(uint64_t cycle, uint32_t latency, uint32_t initiation_interval);
  // issue() once can_issue(cycle) is known to hold.
  uint64_t issue_free(uint64_t cycle, uint32_t latency, uint32_t initiation_interval) {
    m_next_issue = cycle + initiation_interval;
    ++m_issued;
    return cycle + latency;
  }
  // The first cycle at which the unit accepts another instruction.
  uint64_t next_free_cycle() const { return m_next_issue; }

  uint32_t latency() const { return m_latency; }
  uint32_t initiation_interval() const { return m_initiation_interval; }
  uint64_t issued() const { return m_issued; }

 private:
  uint32_t m_latency;
  uint32_t m_initiation_interval;
  uint64_t m_next_issue = 0;
  uint64_t m_issued = 0;
};

// The `units_per_sub_core` identical units of one class in a sub-core; an instruction goes to
// the lowest-numbered unit that is free.
class FunctionalUnitGroup {
 public:
  explicit FunctionalUnitGroup(const UnitTiming& timing);

  // Inline: the readiness checks ask it for every candidate warp.
  bool can_issue(uint64_t cycle) const { return cycle >= m_next_free; }
  // Inline for the usual group of one unit: every issue goes through it.
  uint64_t issue(uint64_t cycle) {
    FunctionalUnit& unit = m_units.front();
    if (m_units.size() != 1 || !unit.can_issue(cycle))
      return issue(cycle, unit.latency(), unit.initiation_interval());
    const uint64_t ready = unit.issue_free(cycle, unit.latency(), unit.initiation_interval());
    m_next_free = unit.next_free_cycle();
    return ready;
  }
  uint64_t issue(uint64_t cycle, uint32_t latency, uint32_t initiation_interval);
  uint64_t next_free_cycle() const { return m_next_free; }
  uint32_t latency() const { return m_units.front().latency(); }

 private:
  void note_issue();

  std::vector<FunctionalUnit> m_units;
  uint64_t m_next_free = 0;  // the earliest of the units' next free cycles
};

}  // namespace ohmvp::gpu
