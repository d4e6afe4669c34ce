#include "modules/memory/page_access_counters.h"

namespace ohmvp {

PageAccessCounters::PageAccessCounters(uint64_t groups, uint32_t pages_per_group,
                                       const CounterDecay& decay)
    : m_per_group(pages_per_group),
      m_decay(decay),
      m_count(groups * pages_per_group, 0),
      m_group_accesses(groups, 0) {}

uint16_t PageAccessCounters::record(uint64_t page) {
  const uint64_t group = page / m_per_group;
  if (m_decay.due(m_group_accesses[group])) {
    const uint64_t first = group * m_per_group;
    for (uint64_t p = first; p < first + m_per_group; ++p) m_count[p] = m_decay.decayed(m_count[p]);
    m_group_accesses[group] = 0;
    ++m_decays;
  }
  ++m_group_accesses[group];
  if (m_count[page] != UINT16_MAX) ++m_count[page];
  return m_count[page];
}

}  // namespace ohmvp
