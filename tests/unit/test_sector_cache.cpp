#include <catch2/catch.hpp>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <vector>

#include "modules/common/stats.h"
#include "modules/gpu/mshr_table.h"
#include "modules/gpu/sector_cache.h"

using namespace ohmvp;
using namespace ohmvp::gpu;

TEST_CASE("sector ranges: bits [first, end) of up to 32 sectors", "[cache]") {
  CHECK(sector_range(0, 0) == 0);
  CHECK(sector_range(3, 5) == 0b11000);
  CHECK(sector_range(0, 32) == 0xffffffffu);
  CHECK(sector_range(31, 32) == 0x80000000u);
  CHECK(sector_range(32, 32) == 0);
  SectorCacheGeometry g;
  g.line_bytes = 128;
  g.sector_bytes = 4;
  g.size_bytes = 128 * g.ways;
  const SectorCache cache(g);
  CHECK(cache.all_sectors() == 0xffffffffu);
  CHECK(cache.sector_mask(124, 4) == 0x80000000u);
  CHECK(cache.sector_mask(8, 120) == 0xfffffffcu);
}

namespace {

// 2 sets x 2 ways of 128-byte lines in 32-byte sectors.
SectorCacheGeometry tiny() {
  SectorCacheGeometry g;
  g.size_bytes = 512;
  g.ways = 2;
  g.line_bytes = 128;
  g.sector_bytes = 32;
  return g;
}

std::vector<uint8_t> pattern(uint32_t n, uint8_t seed) {
  std::vector<uint8_t> v(n);
  for (uint32_t i = 0; i < n; ++i) v[i] = uint8_t(seed + i * 7);
  return v;
}

}  // namespace

TEST_CASE("geometry problems are named", "[cache]") {
  SectorCacheGeometry g = tiny();
  CHECK(g.problem().empty());
  std::string key;
  g.sector_bytes = 48;
  CHECK_FALSE(g.problem(&key).empty());
  CHECK(key == "sector_bytes");
  g = tiny();
  g.size_bytes = 500;
  CHECK(g.problem(&key).find("multiple") != std::string::npos);
  CHECK(key == "size_bytes");
  CHECK_THROWS_AS(SectorCache(g), std::invalid_argument);
}

TEST_CASE("sector masks cover the touched sectors", "[cache]") {
  SectorCache cache(tiny());
  CHECK(cache.sector_mask(0, 4) == 0b0001);
  CHECK(cache.sector_mask(30, 4) == 0b0011);
  CHECK(cache.sector_mask(64, 64) == 0b1100);
  CHECK(cache.sector_mask(0, 128) == 0b1111);
  CHECK(cache.sector_mask(5, 0) == 0);
}

TEST_CASE("LRU picks the least recently used unpinned way", "[cache]") {
  SectorCache cache(tiny());
  DirtyLine victim;
  // Lines 0, 256, 512 map to set 0 (line number even).
  const auto a = cache.allocate(0, victim);
  const auto b = cache.allocate(256, victim);
  REQUIRE(a);
  REQUIRE(b);
  CHECK(*a != *b);
  CHECK(cache.find(0) == a);
  CHECK(cache.find(128) == std::nullopt);
  cache.touch(*a);  // now b is LRU
  const auto c = cache.allocate(512, victim);
  REQUIRE(c);
  CHECK(*c == *b);
  CHECK(cache.find(256) == std::nullopt);
  CHECK(cache.find(0) == a);
  CHECK_FALSE(victim.dirty);
  // Pinning the LRU line sends the next victim to the other way.
  cache.pin(*a);  // a is LRU now (c was allocated later)
  const auto d = cache.allocate(768, victim);
  REQUIRE(d);
  CHECK(*d == *c);
  CHECK(cache.find(0) == a);
  cache.pin(*d);
  CHECK_FALSE(cache.allocate(1024, victim));  // every way pinned
  cache.unpin(*a);
  CHECK(cache.allocate(1024, victim) == a);
}

TEST_CASE("partial writes leave byte-granular dirty masks and fills keep them", "[cache]") {
  SectorCache cache(tiny());
  DirtyLine victim;
  const auto line = *cache.allocate(128, victim);
  const std::vector<uint8_t> data = pattern(8, 1);
  const std::vector<uint8_t> enables{1, 0, 1, 1, 0, 0, 1, 1};
  cache.write(line, 36, 8, data.data(), enables.data());
  CHECK(cache.valid_sectors(line) == 0);  // a partial sector stays invalid
  CHECK(cache.is_dirty(line));
  for (uint32_t i = 0; i < 8; ++i) CHECK(cache.dirty_bytes(line)[36 + i] == enables[i]);
  CHECK(cache.dirty_bytes(line)[35] == 0);

  const std::vector<uint8_t> memory = pattern(128, 100);
  cache.fill(line, 0b0011, memory.data());
  CHECK(cache.valid_sectors(line) == 0b0011);
  std::vector<uint8_t> read(128);
  cache.read(line, 0, 128, read.data());
  for (uint32_t i = 0; i < 64; ++i) {
    const bool written = i >= 36 && i < 44 && enables[i - 36];
    CHECK(read[i] == (written ? data[i - 36] : memory[i]));
  }
  // A whole-sector write makes the sector valid without a fill.
  const std::vector<uint8_t> sector = pattern(32, 9);
  cache.write(line, 96, 32, sector.data(), nullptr);
  CHECK(cache.valid_sectors(line) == 0b1011);

  // Evicting the line hands over exactly the dirty bytes.
  cache.touch(line);
  const auto other = *cache.allocate(384, victim);  // set 1, the free way
  CHECK_FALSE(victim.dirty);
  cache.touch(other);  // now `line` is LRU
  REQUIRE(cache.allocate(640, victim) == line);
  REQUIRE(victim.dirty);
  CHECK(victim.address == 128);
  for (uint32_t i = 0; i < 128; ++i) {
    const bool dirty = (i >= 36 && i < 44 && enables[i - 36]) || i >= 96;
    CHECK(victim.enables[i] == (dirty ? 1 : 0));
    if (dirty) CHECK(victim.data[i] == (i >= 96 ? sector[i - 96] : data[i - 36]));
  }
  CHECK(cache.valid_sectors(line) == 0);
  CHECK_FALSE(cache.is_dirty(line));
}

TEST_CASE("flush writes back dirty lines and keeps them valid; invalidate drops all", "[cache]") {
  StatsRegistry stats;
  SectorCache cache(tiny());
  cache.attach_stats(stats, "l1");
  DirtyLine victim;
  const auto a = *cache.allocate(0, victim);
  const auto b = *cache.allocate(128, victim);
  const std::vector<uint8_t> memory = pattern(128, 3);
  cache.fill(a, 0b1111, memory.data());
  cache.fill(b, 0b0001, memory.data());
  const uint8_t byte = 0xab;
  cache.write(b, 5, 1, &byte, nullptr);
  CHECK(cache.dirty_lines() == 1);
  std::vector<uint64_t> written;
  cache.flush([&](const DirtyLine& line) {
    written.push_back(line.address);
    CHECK(std::accumulate(line.enables.begin(), line.enables.end(), 0) == 1);
    CHECK(line.data[5] == 0xab);
  });
  CHECK(written == std::vector<uint64_t>{128});
  CHECK(cache.dirty_lines() == 0);
  CHECK(cache.valid_sectors(b) == 0b0001);
  CHECK(stats.find_counter("l1", "sector_fills")->value() == 5);
  cache.invalidate_all();
  CHECK_FALSE(cache.find(0));
  CHECK_FALSE(cache.find(128));
}

TEST_CASE("invalidate_sectors drops those sectors and their dirty bytes only", "[cache]") {
  SectorCache cache(tiny());
  DirtyLine victim;
  const auto a = *cache.allocate(0, victim);
  const std::vector<uint8_t> memory = pattern(128, 3);
  cache.fill(a, 0b1111, memory.data());
  const uint8_t stale = 0xab, kept = 0xcd;
  cache.write(a, 5, 1, &stale, nullptr);  // sector 0
  cache.write(a, 70, 1, &kept, nullptr);  // sector 2
  cache.invalidate_sectors(a, 0b0011);
  CHECK(cache.find(0) == a);
  CHECK(cache.valid_sectors(a) == 0b1100);
  CHECK(cache.dirty_bytes(a)[5] == 0);
  CHECK(cache.dirty_bytes(a)[70] == 1);
  CHECK(cache.is_dirty(a));
  // A later fill writes the invalidated bytes again, the formerly dirty one included.
  const std::vector<uint8_t> fresh = pattern(128, 90);
  cache.fill(a, 0b0001, fresh.data());
  uint8_t byte = 0;
  cache.read(a, 5, 1, &byte);
  CHECK(byte == fresh[5]);
  cache.read(a, 70, 1, &byte);
  CHECK(byte == kept);
  cache.invalidate_sectors(a, 0b0100);
  CHECK_FALSE(cache.is_dirty(a));
}

TEST_CASE("MSHRs merge secondary misses up to the limit and stall when full", "[cache]") {
  MshrTable table(2, 2);
  int r[8];
  CHECK(table.add(0x100, &r[0]).outcome == MshrTable::Outcome::allocated);
  CHECK(table.add(0x100, &r[1]).outcome == MshrTable::Outcome::merged);
  CHECK(table.add(0x100, &r[2]).outcome == MshrTable::Outcome::merged);
  CHECK_FALSE(table.can_add(0x100));
  CHECK(table.add(0x100, &r[3]).outcome == MshrTable::Outcome::merge_limit);
  const auto second = table.add(0x200, &r[4]);
  CHECK(second.outcome == MshrTable::Outcome::allocated);
  CHECK(second.entry == 1);
  CHECK(table.full());
  CHECK(table.add(0x300, &r[5]).outcome == MshrTable::Outcome::table_full);
  CHECK(table.occupancy() == 2);

  std::vector<void*> waiters;
  table.release(table.find(0x100), waiters);
  CHECK(waiters == std::vector<void*>{&r[0], &r[1], &r[2]});
  CHECK_FALSE(table.has(0x100));
  const auto third = table.add(0x300, &r[5]);
  CHECK(third.outcome == MshrTable::Outcome::allocated);
  CHECK(third.entry == 0);  // the lowest free entry
  CHECK(table.line_of(0) == 0x300);
  table.release(0, waiters);
  CHECK(waiters == std::vector<void*>{&r[5]});
  CHECK_THROWS_WITH(table.release(0, waiters), "MshrTable::release: entry not in use");
}

TEST_CASE("MSHR waiters leave at the fill that completes their sectors, in arrival order",
          "[cache]") {
  MshrTable table(2, 3);
  int r[5];
  const uint32_t entry = table.add(0x100, &r[0], 0b0001).entry;
  table.add_fetch(entry, 0b0001);
  table.add(0x100, &r[1], 0b0010);  // lacks sector 1: a second fetch
  table.add_fetch(entry, 0b0010);
  table.add(0x100, &r[2], 0b0001);  // merges into the first
  table.add(0x100, &r[3], 0b0011);  // needs both
  CHECK(table.pending_sectors(entry) == 0b0011);
  CHECK(table.fetches(entry) == 2);
  CHECK_FALSE(table.can_add(0x100));  // three merges behind the first miss

  std::vector<void*> out;
  CHECK_FALSE(table.fill(entry, 0b0001, out));
  CHECK(out == std::vector<void*>{&r[0], &r[2]});
  CHECK(table.pending_sectors(entry) == 0b0010);
  CHECK(table.has(0x100));
  CHECK(table.can_add(0x100));  // the entry has room again
  table.add(0x100, &r[4], 0b0010);
  CHECK(table.fill(entry, 0b0010, out));
  CHECK(out == std::vector<void*>{&r[1], &r[3], &r[4]});
  CHECK_FALSE(table.has(0x100));
  CHECK(table.occupancy() == 0);
  CHECK_THROWS_WITH(table.fill(entry, 0b0010, out), "MshrTable::fill: no fetch in flight");
}

TEST_CASE("an MSHR's last fill with waiters still lacking sectors is a logic error", "[cache]") {
  MshrTable table(1, 1);
  int r;
  const uint32_t entry = table.add(0x100, &r, 0b0100).entry;
  table.add_fetch(entry, 0b0001);
  std::vector<void*> out;
  CHECK_THROWS_AS(table.fill(entry, 0b0001, out), std::logic_error);
}

TEST_CASE("MSHRs find every line in use and no other under random churn", "[cache]") {
  // Many lines share their hash neighbourhood (128-byte steps, and copies 2^40 apart), so
  // probing runs and backward-shift deletion are exercised.
  constexpr uint32_t entries = 48;
  MshrTable table(entries, 1);
  std::map<uint64_t, uint32_t> expected;  // line -> entry
  std::set<uint32_t> free_entries;
  for (uint32_t i = 0; i < entries; ++i) free_entries.insert(i);
  std::mt19937_64 rng(7);
  int request = 0;
  std::vector<void*> waiters;
  for (int step = 0; step < 20000; ++step) {
    const uint64_t line = (rng() % 40) * 128 + (rng() % 3) * (uint64_t{1} << 40);
    const auto it = expected.find(line);
    if (it != expected.end() && rng() % 2 == 0) {
      table.release(it->second, waiters);
      free_entries.insert(it->second);
      expected.erase(it);
    } else if (it == expected.end()) {
      const auto added = table.add(line, &request);
      if (free_entries.empty()) {
        REQUIRE(added.outcome == MshrTable::Outcome::table_full);
      } else {
        REQUIRE(added.outcome == MshrTable::Outcome::allocated);
        REQUIRE(added.entry == *free_entries.begin());
        free_entries.erase(free_entries.begin());
        expected[line] = added.entry;
      }
    }
    REQUIRE(table.occupancy() == expected.size());
    for (uint64_t probe = 0; probe < 40 * 128; probe += 128) {
      for (uint64_t copy = 0; copy < 3; ++copy) {
        const uint64_t l = probe + copy * (uint64_t{1} << 40);
        const auto e = expected.find(l);
        REQUIRE(table.find(l) == (e == expected.end() ? MshrTable::npos : e->second));
      }
    }
  }
}
