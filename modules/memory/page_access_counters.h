#pragma once

#include <cstdint>
#include <vector>

#include "modules/memory/counter_decay.h"

namespace ohmvp {

// Planar mode: a saturating access counter per page, aged per group by a CounterDecay policy.
class PageAccessCounters {
 public:
  PageAccessCounters(uint64_t groups, uint32_t pages_per_group, const CounterDecay& decay);

  // Counts one access to `page` (ageing its group first when due); returns its new count.
  uint16_t record(uint64_t page);
  uint16_t count(uint64_t page) const { return m_count[page]; }
  // After a swap both pages start afresh, so the evicted page is not swapped straight back.
  void clear(uint64_t page) { m_count[page] = 0; }
  uint64_t decays() const { return m_decays; }

 private:
  uint32_t m_per_group;
  const CounterDecay& m_decay;
  std::vector<uint16_t> m_count;
  std::vector<uint32_t> m_group_accesses;  // since the group's last decay
  uint64_t m_decays = 0;
};

}  // namespace ohmvp
