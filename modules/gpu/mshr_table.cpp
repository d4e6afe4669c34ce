#include "modules/gpu/mshr_table.h"

#include <stdexcept>

namespace ohmvp::gpu {

MshrTable::MshrTable(uint32_t entries, uint32_t max_merges)
    : m_entries(entries), m_max_merges(max_merges) {
  if (entries == 0) throw std::invalid_argument("MshrTable: at least one entry");
  for (Entry& e : m_entries) e.waiters.reserve(size_t(max_merges) + 1);
  for (uint32_t i = 0; i < entries; ++i) m_free.push(i);
  size_t slots = 1;
  while (slots < size_t(entries) * 2) slots *= 2;
  m_index.assign(slots, npos);
  m_index_mask = slots - 1;
}

uint64_t MshrTable::home_of(uint64_t line) const {
  // Fibonacci hashing: line addresses share their low bits (a line's offset is zero).
  return (line * 0x9E3779B97F4A7C15ull >> 32) & m_index_mask;
}

uint32_t MshrTable::slot_of(uint64_t line) const {
  uint64_t slot = home_of(line);
  while (m_index[slot] != npos && m_entries[m_index[slot]].line != line) {
    slot = (slot + 1) & m_index_mask;
  }
  return static_cast<uint32_t>(slot);
}

uint32_t MshrTable::find(uint64_t line) const {
  return m_index[slot_of(line)];
}

bool MshrTable::can_add(uint64_t line) const {
  const uint32_t entry = find(line);
  if (entry != npos) return m_entries[entry].waiters.size() <= m_max_merges;
  return !full();
}

MshrTable::Result MshrTable::add(uint64_t line, void* request, uint32_t sectors) {
  const uint32_t slot = slot_of(line);
  const uint32_t found = m_index[slot];
  if (found != npos) {
    Entry& e = m_entries[found];
    if (e.waiters.size() > m_max_merges) return {Outcome::merge_limit, npos};
    e.waiters.push_back(Waiter{request, sectors});
    return {Outcome::merged, found};
  }
  if (m_free.empty()) return {Outcome::table_full, npos};
  const uint32_t i = m_free.top();
  m_free.pop();
  Entry& e = m_entries[i];
  e.used = true;
  e.line = line;
  e.waiters.clear();
  e.waiters.push_back(Waiter{request, sectors});
  e.pending = 0;
  e.arrived = 0;
  e.fetches = 0;
  m_index[slot] = i;
  ++m_used;
  return {Outcome::allocated, i};
}

void MshrTable::unindex(uint64_t line) {
  uint64_t hole = slot_of(line);
  m_index[hole] = npos;
  // Backward-shift deletion: move up every later entry of the run that may sit in the hole.
  for (uint64_t next = (hole + 1) & m_index_mask; m_index[next] != npos;
       next = (next + 1) & m_index_mask) {
    const uint64_t home = home_of(m_entries[m_index[next]].line);
    // The entry stays if its home lies cyclically in (hole, next].
    const bool stays = hole <= next ? (hole < home && home <= next) : (hole < home || home <= next);
    if (stays) continue;
    m_index[hole] = m_index[next];
    m_index[next] = npos;
    hole = next;
  }
}

void MshrTable::release(uint32_t entry, std::vector<void*>& out) {
  Entry& e = m_entries.at(entry);
  if (!e.used) throw std::logic_error("MshrTable::release: entry not in use");
  out.clear();
  for (const Waiter& w : e.waiters) out.push_back(w.request);
  free_entry(entry);
}

void MshrTable::add_fetch(uint32_t entry, uint32_t sectors) {
  Entry& e = m_entries.at(entry);
  if (!e.used) throw std::logic_error("MshrTable::add_fetch: entry not in use");
  e.pending |= sectors;
  ++e.fetches;
}

bool MshrTable::fill(uint32_t entry, uint32_t sectors, std::vector<void*>& out) {
  Entry& e = m_entries.at(entry);
  if (!e.used || e.fetches == 0) throw std::logic_error("MshrTable::fill: no fetch in flight");
  e.pending &= ~sectors;
  e.arrived |= sectors;
  --e.fetches;
  out.clear();
  size_t kept = 0;
  for (const Waiter& w : e.waiters) {
    if ((w.sectors & ~e.arrived) == 0) {
      out.push_back(w.request);
    } else {
      e.waiters[kept++] = w;
    }
  }
  e.waiters.resize(kept);
  if (e.fetches > 0) return false;
  if (kept != 0) throw std::logic_error("MshrTable::fill: waiters left after the last fetch");
  free_entry(entry);
  return true;
}

void MshrTable::free_entry(uint32_t entry) {
  Entry& e = m_entries[entry];
  e.waiters.clear();
  unindex(e.line);
  e.used = false;
  m_free.push(entry);
  --m_used;
}

}  // namespace ohmvp::gpu
