#include <catch2/catch.hpp>

#include <vector>

#include "modules/common/lazy_table.h"
#include "modules/common/random.h"
#include "modules/memory/page_mapping_table.h"

using ohmvp::LazyTable;

TEST_CASE("lazy table: entries never written read as the initial value", "[lazy_table]") {
  LazyTable<uint32_t> t(10000, 7);
  CHECK(t.size() == 10000);
  CHECK(t.chunk_entries() == 4096);
  CHECK(t[0] == 7);
  CHECK(t[9999] == 7);
  CHECK(t.find(5000) == nullptr);
  CHECK(t.chunks_in_use() == 0);

  t.at(5000) = 3;
  CHECK(t[5000] == 3);
  CHECK(t[4096] == 7);  // the same chunk, not written
  CHECK(t[4095] == 7);  // the chunk before, never made
  CHECK(t.find(4095) == nullptr);
  CHECK(t.chunks_in_use() == 1);
  t.at(9999) = 4;  // the last chunk, shorter than the others
  CHECK(t[9999] == 4);
  CHECK(t.chunks_in_use() == 2);
  CHECK_THROWS_AS(t.at(10000), std::out_of_range);
}

TEST_CASE("lazy table: the list of chunks stays within 65,536", "[lazy_table]") {
  CHECK(LazyTable<uint8_t>(uint64_t{1} << 28, 0).chunk_entries() == 4096);
  CHECK(LazyTable<uint8_t>((uint64_t{1} << 28) + 1, 0).chunk_entries() == 8192);
  // 4 TiB of 64-byte pages: 2^36 entries in chunks of 2^20, without touching any of it.
  LazyTable<uint32_t> pages(uint64_t{1} << 36, UINT32_MAX);
  CHECK(pages.chunk_entries() == uint64_t{1} << 20);
  pages.at((uint64_t{1} << 36) - 1) = 1;
  CHECK(pages[(uint64_t{1} << 36) - 1] == 1);
  CHECK(pages[0] == UINT32_MAX);
  CHECK(pages.chunks_in_use() == 1);
  CHECK(LazyTable<uint8_t>(0, 0).size() == 0);
  CHECK(LazyTable<uint8_t>(1, 0).chunk_entries() == 1);
  CHECK(LazyTable<uint8_t>(18, 0).chunk_entries() == 32);
}

TEST_CASE("lazy table: random writes read back as a dense table's", "[lazy_table]") {
  const uint64_t size = 50000;
  LazyTable<uint16_t> lazy(size, 9);
  std::vector<uint16_t> dense(size, 9);
  ohmvp::Rng rng(5);
  for (int i = 0; i < 3000; ++i) {
    const uint64_t index = rng.below(size);
    const auto value = static_cast<uint16_t>(rng.below(1000));
    lazy.at(index) = value;
    dense[index] = value;
  }
  for (uint64_t i = 0; i < size; ++i) REQUIRE(lazy[i] == dense[i]);
}

TEST_CASE("lazy table: a chunk made for one write starts at each entry's own initial value",
          "[lazy_table]") {
  LazyTable<uint64_t> t(10000, 0);
  t.at(4100, [](uint64_t i) { return i * 2; }) = 1;
  CHECK(*t.find(4100) == 1);
  CHECK(*t.find(4096) == 8192);
  CHECK(*t.find(8191) == 16382);
  CHECK(t.find(100) == nullptr);
}

TEST_CASE("page mapping table: swaps in a space of a trillion pages touch only their chunks",
          "[lazy_table][planar]") {
  using ohmvp::PageGrouping;
  using ohmvp::PageMappingTable;
  for (const PageGrouping grouping : {PageGrouping::contiguous, PageGrouping::interleaved}) {
    const uint64_t groups = uint64_t{1} << 32;
    PageMappingTable table(groups, 255, grouping);
    const uint64_t hot = table.member(groups - 3, 200);
    const uint64_t resident = table.member(groups - 3, 0);
    CHECK(table.slot_of(hot) == 200);
    CHECK(table.in_dram(resident));
    table.swap_with_dram(hot);
    CHECK(table.in_dram(hot));
    CHECK(table.slot_of(resident) == 200);
    CHECK(table.dram_resident(groups - 3) == hot);
    // The neighbours of both pages kept their first slots.
    CHECK(table.slot_of(table.member(groups - 3, 199)) == 199);
    CHECK(table.slot_of(table.member(groups - 4, 200)) == 200);
  }
}
