#include <catch2/catch.hpp>

#include <set>

#include "modules/common/random.h"
#include "modules/memory/page_frame_table.h"

using ohmvp::PageFrameTable;

TEST_CASE("page frame table: free frames first, then the oldest mapping", "[paged]") {
  PageFrameTable t(16, 3);
  CHECK(t.oldest_frame() == PageFrameTable::none);
  const uint32_t a = t.take_free_frame();
  const uint32_t b = t.take_free_frame();
  const uint32_t c = t.take_free_frame();
  CHECK(t.take_free_frame() == PageFrameTable::none);
  CHECK(std::set<uint32_t>{a, b, c}.size() == 3);
  t.map(5, b);
  t.map(9, a);
  CHECK(t.oldest_frame() == b);  // c is taken but not mapped yet
  t.map(1, c);
  CHECK(t.resident(5));
  CHECK(t.frame_of(9) == a);
  CHECK(t.page_of(c) == 1);
  CHECK_FALSE(t.resident(2));

  // Use does not reorder: page 5 stays the oldest however often it is touched.
  t.mark_dirty(b);
  CHECK(t.dirty(b));
  CHECK(t.unmap(t.oldest_frame()) == 5);
  CHECK_FALSE(t.resident(5));
  t.map(2, b);
  CHECK_FALSE(t.dirty(b));  // a page comes in clean
  CHECK(t.oldest_frame() == a);
  CHECK_THROWS_AS(t.map(2, c), std::logic_error);
}

TEST_CASE("page frame table: random faults keep the mapping one to one", "[paged]") {
  PageFrameTable t(64, 8);
  ohmvp::Rng rng(77);
  for (int i = 0; i < 20000; ++i) {
    const uint64_t page = rng.below(64);
    if (t.resident(page)) continue;
    uint32_t frame = t.take_free_frame();
    if (frame == PageFrameTable::none) {
      frame = t.oldest_frame();
      t.unmap(frame);
    }
    t.map(page, frame);
  }
  std::set<uint32_t> frames;
  uint32_t resident = 0;
  for (uint64_t p = 0; p < 64; ++p) {
    if (!t.resident(p)) continue;
    ++resident;
    CHECK(t.page_of(t.frame_of(p)) == p);
    frames.insert(t.frame_of(p));
  }
  CHECK(resident == 8);
  CHECK(frames.size() == 8);
}
