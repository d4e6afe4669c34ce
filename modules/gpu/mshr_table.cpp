#include "modules/gpu/mshr_table.h"

#include <stdexcept>

namespace ohmvp::gpu {

MshrTable::MshrTable(uint32_t entries, uint32_t max_merges)
    : m_entries(entries), m_max_merges(max_merges) {
  if (entries == 0) throw std::invalid_argument("MshrTable: at least one entry");
  for (Entry& e : m_entries) e.waiters.reserve(size_t(max_merges) + 1);
  m_in_use.reserve(entries);
}

// A line has at most one entry: the first match in the list of entries in use is the one.
uint32_t MshrTable::find(uint64_t line) const {
  for (const InUse& in_use : m_in_use)
    if (in_use.line == line) return in_use.entry;
  return npos;
}

bool MshrTable::can_add(uint64_t line) const {
  const uint32_t entry = find(line);
  if (entry != npos) return m_entries[entry].waiters.size() <= m_max_merges;
  return !full();
}

MshrTable::Result MshrTable::add(uint64_t line, void* request) {
  const uint32_t found = find(line);
  if (found != npos) {
    Entry& e = m_entries[found];
    if (e.waiters.size() > m_max_merges) return {Outcome::merge_limit, npos};
    e.waiters.push_back(request);
    return {Outcome::merged, found};
  }
  for (uint32_t i = 0; i < m_entries.size(); ++i) {
    Entry& e = m_entries[i];
    if (e.used) continue;
    e.used = true;
    e.line = line;
    e.waiters.clear();
    e.waiters.push_back(request);
    m_in_use.push_back({line, i});
    return {Outcome::allocated, i};
  }
  return {Outcome::table_full, npos};
}

void MshrTable::release(uint32_t entry, std::vector<void*>& out) {
  Entry& e = m_entries.at(entry);
  if (!e.used) throw std::logic_error("MshrTable::release: entry not in use");
  out.clear();
  out.swap(e.waiters);
  e.used = false;
  for (InUse& in_use : m_in_use) {
    if (in_use.entry != entry) continue;
    in_use = m_in_use.back();
    m_in_use.pop_back();
    break;
  }
}

}  // namespace ohmvp::gpu
