#include "modules/memory/page_mapping_table.h"

#include <stdexcept>

namespace ohmvp {

PageMappingTable::PageMappingTable(uint64_t groups, uint32_t xpoint_pages_per_group)
    : m_groups(groups), m_per_group(xpoint_pages_per_group + 1) {
  if (xpoint_pages_per_group == 0 || xpoint_pages_per_group > 255) {
    throw std::invalid_argument("PageMappingTable: XPoint pages per group must be 1..255");
  }
  m_slot.resize(groups * m_per_group);
  for (uint64_t p = 0; p < m_slot.size(); ++p) m_slot[p] = static_cast<uint8_t>(p % m_per_group);
}

uint64_t PageMappingTable::dram_resident(uint64_t group) const {
  const uint64_t first = group * m_per_group;
  for (uint64_t p = first; p < first + m_per_group; ++p) {
    if (m_slot[p] == 0) return p;
  }
  throw std::logic_error("PageMappingTable: group without a DRAM page");
}

void PageMappingTable::swap_with_dram(uint64_t page) {
  const uint64_t resident = dram_resident(group_of(page));
  m_slot[resident] = m_slot[page];
  m_slot[page] = 0;
}

}  // namespace ohmvp
