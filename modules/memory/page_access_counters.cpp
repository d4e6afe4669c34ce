#include "modules/memory/page_access_counters.h"

namespace ohmvp {

PageAccessCounters::PageAccessCounters(const PageMappingTable& table, const CounterDecay& decay)
    : m_table(table),
      m_decay(decay),
      m_count(table.pages(), 0),
      m_group_accesses(table.groups(), 0) {}

uint16_t PageAccessCounters::record(uint64_t page) {
  const uint64_t group = m_table.group_of(page);
  if (m_decay.due(m_group_accesses[group])) {
    for (uint32_t i = 0; i < m_table.pages_per_group(); ++i) {
      const uint64_t p = m_table.member(group, i);
      m_count[p] = m_decay.decayed(m_count[p]);
    }
    m_group_accesses[group] = 0;
    ++m_decays;
  }
  ++m_group_accesses[group];
  if (m_count[page] != UINT16_MAX) ++m_count[page];
  return m_count[page];
}

}  // namespace ohmvp
