#include "modules/memory/page_access_counters.h"

namespace ohmvp {

PageAccessCounters::PageAccessCounters(const PageMappingTable& table, const CounterDecay& decay)
    : m_table(table),
      m_decay(decay),
      m_count(table.pages(), 0),
      m_group_accesses(table.groups(), 0) {}

uint16_t PageAccessCounters::record(uint64_t page) {
  const uint64_t group = m_table.group_of(page);
  uint32_t& accesses = m_group_accesses.at(group);
  if (m_decay.due(accesses)) {
    for (uint32_t i = 0; i < m_table.pages_per_group(); ++i) {
      const uint64_t p = m_table.member(group, i);
      // A decay never raises a count: pages at 0 stay untouched.
      if (m_count[p] != 0) m_count.at(p) = m_decay.decayed(m_count[p]);
    }
    accesses = 0;
    ++m_decays;
  }
  ++accesses;
  uint16_t& count = m_count.at(page);
  if (count != UINT16_MAX) ++count;
  return count;
}

}  // namespace ohmvp
