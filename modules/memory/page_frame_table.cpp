#include "modules/memory/page_frame_table.h"

#include <algorithm>
#include <stdexcept>

namespace ohmvp {

PageFrameTable::PageFrameTable(uint64_t pages, uint32_t frames)
    : m_frame_of(pages, none), m_frames(frames) {}

uint32_t PageFrameTable::take_free_frame() {
  if (m_page_of.size() == m_frames) return none;
  m_page_of.push_back(0);
  m_dirty.push_back(0);
  return static_cast<uint32_t>(m_page_of.size() - 1);
}

uint64_t PageFrameTable::unmap(uint32_t frame) {
  const auto it = std::find(m_order.begin(), m_order.end(), frame);
  if (it == m_order.end()) throw std::logic_error("PageFrameTable::unmap: frame not mapped");
  m_order.erase(it);
  const uint64_t page = m_page_of[frame];
  m_frame_of.at(page) = none;
  return page;
}

void PageFrameTable::map(uint64_t page, uint32_t frame) {
  if (m_frame_of[page] != none) throw std::logic_error("PageFrameTable::map: page already mapped");
  m_frame_of.at(page) = frame;
  m_page_of[frame] = page;
  m_dirty[frame] = 0;
  m_order.push_back(frame);
}

}  // namespace ohmvp
