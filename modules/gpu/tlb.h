#pragma once

#include <cstddef>
#include <cstdint>
#include <list>
#include <unordered_map>

namespace ohmvp::gpu {

// An SM's translation lookaside buffer for managed pages: fully associative, least recently used
// entry replaced, as UVMSmart's per-SM TLB (PARAMETERS.md). It holds page numbers only: the
// frame comes from the driver's page table, which the driver keeps in step by invalidating the
// entries of every page it unmaps (a shootdown). No entries: every lookup misses.
class Tlb {
 public:
  Tlb(uint32_t entries, uint64_t page_bytes);

  uint64_t page_of(uint64_t address) const { return address / m_page_bytes; }
  // Whether `page` has an entry; a hit makes it the most recently used.
  bool lookup(uint64_t page);
  // Enters `page` (a walk found it mapped), replacing the least recently used entry when full.
  void insert(uint64_t page);
  // Drops the entries of the pages [address, address + bytes) overlaps; returns how many.
  uint32_t invalidate(uint64_t address, uint64_t bytes);
  size_t size() const { return m_index.size(); }
  uint32_t capacity() const { return m_capacity; }

 private:
  uint32_t m_capacity;
  uint64_t m_page_bytes;
  std::list<uint64_t> m_order;  // most recently used first
  std::unordered_map<uint64_t, std::list<uint64_t>::iterator> m_index;
};

}  // namespace ohmvp::gpu
