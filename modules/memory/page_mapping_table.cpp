#include "modules/memory/page_mapping_table.h"

#include <stdexcept>

namespace ohmvp {

PageMappingTable::PageMappingTable(uint64_t groups, uint32_t xpoint_pages_per_group,
                                   PageGrouping grouping)
    : m_groups(groups),
      m_per_group(xpoint_pages_per_group + 1),
      m_grouping(grouping),
      m_slot(groups * m_per_group, 0) {
  if (xpoint_pages_per_group == 0 || xpoint_pages_per_group > 255) {
    throw std::invalid_argument("PageMappingTable: XPoint pages per group must be 1..255");
  }
}

uint64_t PageMappingTable::dram_resident(uint64_t group) const {
  for (uint32_t i = 0; i < m_per_group; ++i) {
    if (slot_of(member(group, i)) == 0) return member(group, i);
  }
  throw std::logic_error("PageMappingTable: group without a DRAM page");
}

void PageMappingTable::swap_with_dram(uint64_t page) {
  const uint64_t resident = dram_resident(group_of(page));
  slot(resident) = static_cast<uint8_t>(slot_of(page));
  slot(page) = 0;
}

}  // namespace ohmvp
