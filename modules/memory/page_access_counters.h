#pragma once

#include <cstdint>

#include "modules/common/lazy_table.h"
#include "modules/memory/counter_decay.h"
#include "modules/memory/page_mapping_table.h"

namespace ohmvp {

// Planar mode: a saturating access counter per page, aged per group by a CounterDecay policy.
class PageAccessCounters {
 public:
  // Groups as `table` forms them (the table must outlive the counters).
  PageAccessCounters(const PageMappingTable& table, const CounterDecay& decay);

  // Counts one access to `page` (ageing its group first when due); returns its new count.
  uint16_t record(uint64_t page);
  uint16_t count(uint64_t page) const { return m_count[page]; }
  // After a swap both pages start afresh, so the evicted page is not swapped straight back.
  void clear(uint64_t page) {
    if (m_count[page] != 0) m_count.at(page) = 0;
  }
  uint64_t decays() const { return m_decays; }

 private:
  const PageMappingTable& m_table;
  const CounterDecay& m_decay;
  LazyTable<uint16_t> m_count;
  LazyTable<uint32_t> m_group_accesses;  // since the group's last decay
  uint64_t m_decays = 0;
};

}  // namespace ohmvp
