#include "modules/gpu/tlb.h"

#include <stdexcept>

namespace ohmvp::gpu {

Tlb::Tlb(uint32_t entries, uint64_t page_bytes) : m_capacity(entries), m_page_bytes(page_bytes) {
  if (page_bytes == 0) throw std::invalid_argument("Tlb: a page of 0 bytes");
}

bool Tlb::lookup(uint64_t page) {
  const auto found = m_index.find(page);
  if (found == m_index.end()) return false;
  m_order.splice(m_order.begin(), m_order, found->second);
  return true;
}

void Tlb::insert(uint64_t page) {
  if (m_capacity == 0 || lookup(page)) return;
  if (m_index.size() == m_capacity) {
    m_index.erase(m_order.back());
    m_order.pop_back();
  }
  m_order.push_front(page);
  m_index.emplace(page, m_order.begin());
}

uint32_t Tlb::invalidate(uint64_t address, uint64_t bytes) {
  if (bytes == 0 || m_index.empty()) return 0;
  const uint64_t first = page_of(address), last = page_of(address + bytes - 1);
  uint32_t dropped = 0;
  const auto drop = [&](uint64_t page) {
    const auto found = m_index.find(page);
    if (found == m_index.end()) return;
    m_order.erase(found->second);
    m_index.erase(found);
    ++dropped;
  };
  // A range wider than the TLB is cheaper to check entry by entry.
  if (last - first >= m_index.size()) {
    for (auto it = m_order.begin(); it != m_order.end();) {
      const uint64_t page = *it++;
      if (page >= first && page <= last) drop(page);
    }
  } else {
    for (uint64_t page = first; page <= last; ++page) drop(page);
  }
  return dropped;
}

}  // namespace ohmvp::gpu
