#pragma once

#include <cstdint>

#include "modules/common/lazy_table.h"

namespace ohmvp {

// Which logical pages share a group (G groups of 1 + k pages).
//   contiguous:  pages g (k + 1) .. g (k + 1) + k, so neighbouring pages compete for one DRAM page.
//   interleaved: pages g, g + G, g + 2G, .. g + kG (congruence groups, as in PoM, Sim et al.
//                MICRO 2014, and CAMEO, Chou et al. MICRO 2014): the first G pages of the space
//                are each in a group of their own, so neighbouring pages can share DRAM.
enum class PageGrouping { contiguous, interleaved };

// Planar mode's mapping table: the unified address space is cut into groups of 1 + k pages;
// each group owns one DRAM page (slot 0) and k XPoint pages (slots 1..k). Pages only ever trade
// places inside their group, so one byte per page, its slot, says where it lives: (1 + k) bytes
// per group, no tags, no addresses. Initially the group's member i is in slot i.
class PageMappingTable {
 public:
  // k in 1..255.
  PageMappingTable(uint64_t groups, uint32_t xpoint_pages_per_group, PageGrouping grouping);

  uint64_t groups() const { return m_groups; }
  uint32_t pages_per_group() const { return m_per_group; }
  uint64_t pages() const { return m_groups * m_per_group; }
  uint64_t group_of(uint64_t page) const {
    return m_grouping == PageGrouping::contiguous ? page / m_per_group : page % m_groups;
  }
  // The group's member `index` (0..k).
  uint64_t member(uint64_t group, uint32_t index) const {
    return m_grouping == PageGrouping::contiguous ? group * m_per_group + index
                                                  : group + index * m_groups;
  }

  // 0: the group's DRAM page; s > 0: the group's XPoint page s - 1.
  uint32_t slot_of(uint64_t page) const {
    const uint8_t* slot = m_slot.find(page);
    return slot == nullptr ? initial_slot(page) : *slot;
  }
  bool in_dram(uint64_t page) const { return slot_of(page) == 0; }
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
  // The slot of `page` before any swap: its index in its group.
  uint32_t initial_slot(uint64_t page) const {
    return static_cast<uint32_t>(m_grouping == PageGrouping::contiguous ? page % m_per_group
                                                                        : page / m_groups);
  }
  uint8_t& slot(uint64_t page) {
    return m_slot.at(page, [this](uint64_t p) { return static_cast<uint8_t>(initial_slot(p)); });
  }

  uint64_t m_groups;
  uint32_t m_per_group;
  PageGrouping m_grouping;
  LazyTable<uint8_t> m_slot;
};

}  // namespace ohmvp
