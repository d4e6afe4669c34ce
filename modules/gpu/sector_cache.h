#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "modules/common/zeroed_bytes.h"

namespace ohmvp {
class Counter;
class StatsRegistry;
}  // namespace ohmvp

namespace ohmvp::gpu {

// Sectors [first, end) of a line of up to 32 (a shift by 32 would be undefined).
inline uint32_t sector_range(uint32_t first, uint32_t end) {
  const auto below = [](uint32_t n) { return n >= 32 ? ~0u : (1u << n) - 1; };
  return below(end) & ~below(first);
}

struct SectorCacheGeometry {
  uint64_t size_bytes = 48 * 1024;
  uint32_t ways = 6;
  uint32_t line_bytes = 128;
  uint32_t sector_bytes = 32;

  uint32_t sectors() const { return line_bytes / sector_bytes; }
  uint64_t sets() const { return size_bytes / (uint64_t(ways) * line_bytes); }
  // Empty when consistent, else what is wrong (for the owner's config error); `key` receives
  // the name of the field at fault.
  std::string problem(std::string* key = nullptr) const;
};

// A line's bytes leaving the cache: its (line-aligned) address, data and which bytes are dirty
// (one entry per byte, 0 or 1). Owned by the caller and reused, so evictions do not allocate.
struct DirtyLine {
  bool dirty = false;  // false: nothing to write back (the victim was absent or clean)
  uint64_t address = 0;
  std::vector<uint8_t> data;
  std::vector<uint8_t> enables;
};

// A sectored set-associative cache that holds the bytes. Each line has a valid bit per sector
// and a dirty bit per byte, so a partial write needs no fetch: the bytes it wrote are dirty and
// a later fill of the sector keeps them. A sector whose every byte is dirty counts as valid.
// Replacement is LRU over the unpinned lines of a set (a pinned line has a miss outstanding and
// must stay). Addresses are byte addresses; the set is (address / line) mod sets, so sets need
// not be a power of two. Deterministic: ties go to the lowest way.
class SectorCache {
 public:
  using LineIndex = uint32_t;

  explicit SectorCache(const SectorCacheGeometry& geometry);

  const SectorCacheGeometry& geometry() const { return m_geometry; }
  uint64_t line_address(uint64_t address) const { return address - address % m_line_bytes; }
  // The sectors that bytes [offset, offset + length) of a line touch.
  uint32_t sector_mask(uint32_t offset, uint32_t length) const;

  // The line holding `address`, without touching LRU.
  std::optional<LineIndex> find(uint64_t address) const;
  // Marks the line most recently used.
  void touch(LineIndex line) { m_lru[line] = ++m_clock; }
  // Installs `address`'s line (no sector valid, nothing dirty) in a free way, else in the LRU
  // unpinned way, whose dirty bytes go to `victim`. Empty when every way of the set is pinned.
  std::optional<LineIndex> allocate(uint64_t address, DirtyLine& victim);

  uint32_t valid_sectors(LineIndex line) const { return m_valid[line]; }
  bool has_sectors(LineIndex line, uint32_t mask) const { return (m_valid[line] & mask) == mask; }
  // Writes the bytes of `sectors` from `line_data` (a whole line) except bytes already dirty,
  // and marks those sectors valid.
  void fill(LineIndex line, uint32_t sectors, const uint8_t* line_data);
  // Writes bytes [offset, offset + length) where `enables` (one per byte, nullptr = all) is
  // nonzero, marking them dirty.
  void write(LineIndex line, uint32_t offset, uint32_t length, const uint8_t* data,
             const uint8_t* enables);
  void read(LineIndex line, uint32_t offset, uint32_t length, uint8_t* out) const;
  // Overwrites bytes keeping their dirty state (a debug write that memory received as well).
  void patch(LineIndex line, uint32_t offset, uint32_t length, const uint8_t* data);
  const uint8_t* data(LineIndex line) const { return &m_data[size_t(line) * m_line_bytes]; }
  const uint8_t* dirty_bytes(LineIndex line) const { return &m_dirty[size_t(line) * m_line_bytes]; }
  bool is_dirty(LineIndex line) const { return m_dirty_count[line] != 0; }
  uint64_t address_of(LineIndex line) const { return m_address[line]; }

  void pin(LineIndex line) { m_pinned[line] = 1; }
  void unpin(LineIndex line) { m_pinned[line] = 0; }
  bool is_pinned(LineIndex line) const { return m_pinned[line] != 0; }

  // Kernel boundary of a write-through cache: every line goes, dirty bytes included.
  void invalidate_all();
  // The same for every line but the pinned ones (a miss outstanding keeps its line).
  void invalidate_unpinned();
  // The mask of every sector of a line.
  uint32_t all_sectors() const { return sector_mask(0, m_line_bytes); }
  // A write-through cache's copy of `sectors` of `line` is stale: they turn invalid and their
  // bytes, dirty ones included, no longer count (a later fill writes them all).
  void invalidate_sectors(LineIndex line, uint32_t sectors);
  // Hands every dirty line to `write_back` in index order and marks it clean; lines stay valid.
  void flush(const std::function<void(const DirtyLine&)>& write_back);
  uint64_t dirty_lines() const;

  // Counts evictions, dirty evictions and sector fills under `group` (optional).
  void attach_stats(StatsRegistry& stats, const std::string& group);

 private:
  bool take_dirty(LineIndex line, DirtyLine& out);
  void clear(LineIndex line);

  SectorCacheGeometry m_geometry;
  uint32_t m_line_bytes;
  uint32_t m_sector_bytes;
  uint64_t m_sets;
  uint32_t m_ways;
  uint64_t m_clock = 0;
  ZeroedBytes m_data;
  ZeroedBytes m_dirty;
  std::vector<uint32_t> m_dirty_count;  // dirty bytes per line
  std::vector<uint32_t> m_valid;        // sector mask
  std::vector<uint64_t> m_address;
  std::vector<uint8_t> m_present;  // bytes, not bits: looked at on every access
  std::vector<uint8_t> m_pinned;
  std::vector<uint64_t> m_lru;
  Counter* m_evictions = nullptr;
  Counter* m_dirty_evictions = nullptr;
  Counter* m_sector_fills = nullptr;
};

}  // namespace ohmvp::gpu
