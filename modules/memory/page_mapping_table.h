#pragma once

#include <cstdint>
#include <vector>

namespace ohmvp {

// Planar mode's mapping table: the unified address space is cut into groups of 1 + k pages
// (logical page p is in group p / (k + 1)); each group owns one DRAM page (slot 0) and k XPoint
// pages (slots 1..k). Pages only ever trade places inside their group, so one byte per page,
// its slot, says where it lives: (1 + k) bytes per group, no tags, no addresses.
class PageMappingTable {
 public:
  // k in 1..255.
  PageMappingTable(uint64_t groups, uint32_t xpoint_pages_per_group);

  uint64_t groups() const { return m_groups; }
  uint32_t pages_per_group() const { return m_per_group; }
  uint64_t pages() const { return m_groups * m_per_group; }
  uint64_t group_of(uint64_t page) const { return page / m_per_group; }

  // 0: the group's DRAM page; s > 0: the group's XPoint page s - 1.
  uint32_t slot_of(uint64_t page) const { return m_slot[page]; }
  bool in_dram(uint64_t page) const { return m_slot[page] == 0; }
  // The logical page held in the group's DRAM page.
  uint64_t dram_resident(uint64_t group) const;
  // Device page numbers: DRAM page index (the group), or XPoint page index.
  uint64_t xpoint_page_of_slot(uint64_t group, uint32_t slot) const {
    return group * (m_per_group - 1) + (slot - 1);
  }
  // `page` (in XPoint) and the group's DRAM resident trade places.
  void swap_with_dram(uint64_t page);
  // Bytes the table takes in the controller.
  uint64_t storage_bytes() const { return m_slot.size(); }

 private:
  uint64_t m_groups;
  uint32_t m_per_group;
  std::vector<uint8_t> m_slot;
};

}  // namespace ohmvp
