#include "modules/gpu/sector_cache.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "modules/common/power_of_two.h"
#include "modules/common/stats.h"

namespace ohmvp::gpu {

std::string SectorCacheGeometry::problem(std::string* key) const {
  auto fault = [key](const char* field, const char* message) {
    if (key != nullptr) *key = field;
    return std::string(message);
  };
  if (!is_power_of_two(line_bytes)) return fault("line_bytes", "expected a power of two");
  if (!is_power_of_two(sector_bytes) || sector_bytes > line_bytes) {
    return fault("sector_bytes", "expected a power of two no larger than line_bytes");
  }
  if (sectors() > 32) return fault("sector_bytes", "a line has at most 32 sectors");
  if (ways == 0) return fault("ways", "expected at least 1");
  if (size_bytes == 0 || size_bytes % (uint64_t(ways) * line_bytes) != 0) {
    return fault("size_bytes", "expected a nonzero multiple of ways * line_bytes");
  }
  return {};
}

SectorCache::SectorCache(const SectorCacheGeometry& geometry)
    : m_geometry(geometry),
      m_line_bytes(geometry.line_bytes),
      m_sector_bytes(geometry.sector_bytes),
      m_sets(geometry.sets()),
      m_ways(geometry.ways) {
  std::string key;
  const std::string problem = geometry.problem(&key);
  if (!problem.empty()) throw std::invalid_argument("SectorCache: " + key + ": " + problem);
  const size_t lines = size_t(m_sets) * m_ways;
  m_data = ZeroedBytes(lines * m_line_bytes);
  m_dirty = ZeroedBytes(lines * m_line_bytes);
  m_dirty_count.assign(lines, 0);
  m_valid.assign(lines, 0);
  m_address.assign(lines, 0);
  m_present.assign(lines, 0);
  m_pinned.assign(lines, 0);
  m_lru.assign(lines, 0);
}

uint32_t SectorCache::sector_mask(uint32_t offset, uint32_t length) const {
  if (length == 0) return 0;
  const uint32_t first = offset / m_sector_bytes;
  const uint32_t last = (offset + length - 1) / m_sector_bytes;
  return sector_range(first, last + 1);
}

std::optional<SectorCache::LineIndex> SectorCache::find(uint64_t address) const {
  const uint64_t line_address = this->line_address(address);
  const uint64_t set = (address / m_line_bytes) % m_sets;
  const LineIndex first = LineIndex(set * m_ways);
  for (LineIndex line = first; line < first + m_ways; ++line) {
    if (m_present[line] && m_address[line] == line_address) return line;
  }
  return std::nullopt;
}

std::optional<SectorCache::LineIndex> SectorCache::allocate(uint64_t address, DirtyLine& victim) {
  victim.dirty = false;
  const uint64_t set = (address / m_line_bytes) % m_sets;
  const LineIndex first = LineIndex(set * m_ways);
  std::optional<LineIndex> chosen;
  for (LineIndex line = first; line < first + m_ways; ++line) {
    if (!m_present[line]) {
      chosen = line;
      break;
    }
    if (m_pinned[line]) continue;
    if (!chosen || m_lru[line] < m_lru[*chosen]) chosen = line;
  }
  if (!chosen) return std::nullopt;
  const LineIndex line = *chosen;
  if (m_present[line]) {
    if (m_evictions) m_evictions->inc();
    if (take_dirty(line, victim) && m_dirty_evictions) m_dirty_evictions->inc();
  }
  clear(line);
  m_present[line] = 1;
  m_address[line] = line_address(address);
  touch(line);
  return line;
}

bool SectorCache::take_dirty(LineIndex line, DirtyLine& out) {
  if (m_dirty_count[line] == 0) return false;
  out.dirty = true;
  out.address = m_address[line];
  out.data.assign(data(line), data(line) + m_line_bytes);
  out.enables.assign(dirty_bytes(line), dirty_bytes(line) + m_line_bytes);
  return true;
}

void SectorCache::clear(LineIndex line) {
  std::memset(&m_dirty[size_t(line) * m_line_bytes], 0, m_line_bytes);
  m_dirty_count[line] = 0;
  m_valid[line] = 0;
  m_present[line] = 0;
  m_pinned[line] = 0;
}

void SectorCache::fill(LineIndex line, uint32_t sectors, const uint8_t* line_data) {
  uint8_t* bytes = &m_data[size_t(line) * m_line_bytes];
  const uint8_t* dirty = dirty_bytes(line);
  const bool clean = m_dirty_count[line] == 0;
  for (uint32_t s = 0; s < m_geometry.sectors(); ++s) {
    if ((sectors >> s & 1u) == 0) continue;
    const uint32_t first = s * m_sector_bytes;
    if (clean) {
      std::memcpy(bytes + first, line_data + first, m_sector_bytes);
    } else {
      for (uint32_t i = first; i < first + m_sector_bytes; ++i) {
        if (!dirty[i]) bytes[i] = line_data[i];
      }
    }
    if (m_sector_fills && (m_valid[line] >> s & 1u) == 0) m_sector_fills->inc();
  }
  m_valid[line] |= sectors;
}

void SectorCache::write(LineIndex line, uint32_t offset, uint32_t length, const uint8_t* data,
                        const uint8_t* enables) {
  uint8_t* bytes = &m_data[size_t(line) * m_line_bytes];
  uint8_t* dirty = &m_dirty[size_t(line) * m_line_bytes];
  for (uint32_t i = 0; i < length; ++i) {
    if (enables != nullptr && enables[i] == 0) continue;
    bytes[offset + i] = data[i];
    if (!dirty[offset + i]) {
      dirty[offset + i] = 1;
      ++m_dirty_count[line];
    }
  }
  // A sector written in full is valid without a fetch.
  const uint32_t touched = sector_mask(offset, length);
  for (uint32_t s = 0; s < m_geometry.sectors(); ++s) {
    if ((touched >> s & 1u) == 0 || (m_valid[line] >> s & 1u)) continue;
    const uint8_t* first = dirty + s * m_sector_bytes;
    if (std::all_of(first, first + m_sector_bytes, [](uint8_t d) { return d != 0; })) {
      m_valid[line] |= 1u << s;
    }
  }
}

void SectorCache::read(LineIndex line, uint32_t offset, uint32_t length, uint8_t* out) const {
  std::memcpy(out, data(line) + offset, length);
}

void SectorCache::patch(LineIndex line, uint32_t offset, uint32_t length, const uint8_t* data) {
  std::memcpy(&m_data[size_t(line) * m_line_bytes + offset], data, length);
}

void SectorCache::invalidate_sectors(LineIndex line, uint32_t sectors) {
  uint8_t* dirty = &m_dirty[size_t(line) * m_line_bytes];
  for (uint32_t s = 0; s < m_geometry.sectors(); ++s) {
    if ((sectors >> s & 1u) == 0) continue;
    for (uint32_t i = s * m_sector_bytes; i < (s + 1) * m_sector_bytes; ++i) {
      m_dirty_count[line] -= dirty[i] ? 1 : 0;
      dirty[i] = 0;
    }
  }
  m_valid[line] &= ~sectors;
}

void SectorCache::invalidate_all() {
  for (LineIndex line = 0; line < m_present.size(); ++line) clear(line);
}

void SectorCache::invalidate_unpinned() {
  for (LineIndex line = 0; line < m_present.size(); ++line)
    if (!m_pinned[line]) clear(line);
}

void SectorCache::flush(const std::function<void(const DirtyLine&)>& write_back) {
  DirtyLine line_out;
  for (LineIndex line = 0; line < m_present.size(); ++line) {
    if (!m_present[line] || !take_dirty(line, line_out)) continue;
    write_back(line_out);
    std::memset(&m_dirty[size_t(line) * m_line_bytes], 0, m_line_bytes);
    m_dirty_count[line] = 0;
  }
}

uint64_t SectorCache::dirty_lines() const {
  return uint64_t(
      std::count_if(m_dirty_count.begin(), m_dirty_count.end(), [](uint32_t c) { return c != 0; }));
}

void SectorCache::attach_stats(StatsRegistry& stats, const std::string& group) {
  m_evictions = &stats.counter(group, "evictions", "lines", "valid lines replaced");
  m_dirty_evictions =
      &stats.counter(group, "dirty_evictions", "lines", "replaced lines with dirty bytes");
  m_sector_fills = &stats.counter(group, "sector_fills", "sectors", "sectors filled from below");
}

}  // namespace ohmvp::gpu
