#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "modules/common/lazy_table.h"

namespace ohmvp {

// Paged mode's page table: which of `pages` pages of the address space sit in which of `frames`
// DRAM frames. Frames are handed out free ones first, then the frame whose page was brought in
// longest ago is the one to give up: the order is that of allocation, not of use, as the NVIDIA
// UVM driver orders its eviction list (PARAMETERS.md).
class PageFrameTable {
 public:
  static constexpr uint32_t none = UINT32_MAX;

  PageFrameTable(uint64_t pages, uint32_t frames);

  uint64_t pages() const { return m_frame_of.size(); }
  uint32_t frames() const { return m_frames; }
  uint32_t frame_of(uint64_t page) const { return m_frame_of[page]; }
  bool resident(uint64_t page) const { return m_frame_of[page] != none; }
  uint64_t page_of(uint32_t frame) const { return m_page_of[frame]; }

  // A frame nobody holds, or `none`. Frames are handed out 0, 1, 2, ... and never given back.
  uint32_t take_free_frame();
  // The frame to give up when none is free: the one mapped longest ago (`none` if no frame is
  // mapped, e.g. all are being filled).
  uint32_t oldest_frame() const { return m_order.empty() ? none : m_order.front(); }
  // Unmaps the page in `frame`; the frame stays taken (it is about to be refilled).
  uint64_t unmap(uint32_t frame);
  // `page` now lives in `frame` (a taken frame), clean; it becomes the newest.
  void map(uint64_t page, uint32_t frame);

  bool dirty(uint32_t frame) const { return m_dirty[frame] != 0; }
  void mark_dirty(uint32_t frame) { m_dirty[frame] = 1; }

 private:
  LazyTable<uint32_t> m_frame_of;  // per page
  uint32_t m_frames;
  std::vector<uint64_t> m_page_of;  // per frame taken; meaningful while mapped
  std::vector<uint8_t> m_dirty;     // per frame taken
  std::deque<uint32_t> m_order;  // mapped frames, oldest mapping first
};

}  // namespace ohmvp
