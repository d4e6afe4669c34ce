#include <catch2/catch.hpp>

#include "modules/gpu/tlb.h"

using ohmvp::gpu::Tlb;

TEST_CASE("tlb: a page misses until a walk enters it, then hits", "[sm][tlb]") {
  Tlb tlb(4, 4096);
  CHECK(tlb.page_of(0x7c00'0000'1fff) == 0x7c00'0000'1fff / 4096);
  CHECK_FALSE(tlb.lookup(7));
  tlb.insert(7);
  CHECK(tlb.lookup(7));
  tlb.insert(7);  // entered twice: still one entry
  CHECK(tlb.size() == 1);
}

TEST_CASE("tlb: when full, the least recently used entry goes", "[sm][tlb]") {
  Tlb tlb(3, 4096);
  for (uint64_t page : {1, 2, 3}) tlb.insert(page);
  CHECK(tlb.lookup(1));  // 2 is now the least recently used
  tlb.insert(4);
  CHECK(tlb.size() == 3);
  CHECK_FALSE(tlb.lookup(2));
  CHECK(tlb.lookup(1));
  CHECK(tlb.lookup(3));
  CHECK(tlb.lookup(4));
  tlb.insert(5);  // 1 was used longest ago now
  CHECK_FALSE(tlb.lookup(1));
}

TEST_CASE("tlb: a shootdown drops the entries of the pages a range overlaps", "[sm][tlb]") {
  Tlb tlb(8, 4096);
  for (uint64_t page : {10, 11, 12, 13, 20}) tlb.insert(page);
  // Bytes 11 * 4096 - 1 to 12 * 4096 touch pages 10, 11 and 12.
  CHECK(tlb.invalidate(11 * 4096 - 1, 4096 + 2) == 3);
  CHECK_FALSE(tlb.lookup(10));
  CHECK_FALSE(tlb.lookup(11));
  CHECK_FALSE(tlb.lookup(12));
  CHECK(tlb.lookup(13));
  CHECK(tlb.invalidate(13 * 4096, 0) == 0);
  // A range wider than the TLB (the whole managed window) is checked entry by entry.
  CHECK(tlb.invalidate(0, uint64_t{1} << 40) == 2);
  CHECK(tlb.size() == 0);
  tlb.insert(10);  // a dropped entry can come back
  CHECK(tlb.lookup(10));
}

TEST_CASE("tlb: with no entries every lookup misses", "[sm][tlb]") {
  Tlb tlb(0, 4096);
  tlb.insert(1);
  CHECK_FALSE(tlb.lookup(1));
  CHECK(tlb.invalidate(0, 8192) == 0);
  CHECK_THROWS_AS(Tlb(4, 0), std::invalid_argument);
}
