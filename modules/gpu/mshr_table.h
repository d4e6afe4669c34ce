#pragma once

#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

namespace ohmvp::gpu {

// Miss status holding registers: one entry per line with a miss outstanding, keyed by the line
// address, holding the requests that wait for it (the first miss and up to `max_merges`
// secondary misses merged into it), in arrival order. Requests are the caller's opaque
// handles. When no entry is free, or the line's entry has merged its limit, the caller stalls.
// A sectored cache may keep several fetches of one line in flight on its entry (`add_fetch`):
// each request then names the sectors it waits for and leaves at the fill that completes them
// (`fill`); the entry is freed at its last fill.
// A new miss takes the free entry of lowest index, so every result is deterministic; lines are
// found through an open-addressing index (a table scan per lookup cost more than the rest of
// the L1's work with hundreds of misses outstanding).
class MshrTable {
 public:
  enum class Outcome { allocated, merged, table_full, merge_limit };
  struct Result {
    Outcome outcome;
    uint32_t entry;  // valid for allocated and merged
  };

  MshrTable(uint32_t entries, uint32_t max_merges);

  // Records `request` as waiting for `line`; with fetches tracked, for its `sectors`.
  Result add(uint64_t line, void* request, uint32_t sectors = 0);
  // The entry of `line`, or npos.
  uint32_t find(uint64_t line) const;
  bool has(uint64_t line) const { return find(line) != npos; }
  // Whether `line` could take one more request now (merge or new entry).
  bool can_add(uint64_t line) const;
  uint64_t line_of(uint32_t entry) const { return m_entries[entry].line; }
  bool in_use(uint32_t entry) const { return m_entries[entry].used; }
  // Frees the entry; its waiters, in arrival order, are put into `out` (reused storage).
  void release(uint32_t entry, std::vector<void*>& out);

  // A fetch of `sectors` of the entry's line has left.
  void add_fetch(uint32_t entry, uint32_t sectors);
  // Sectors fetched for the entry and not yet filled, and the fetches that bring them.
  uint32_t pending_sectors(uint32_t entry) const { return m_entries[entry].pending; }
  uint32_t fetches(uint32_t entry) const { return m_entries[entry].fetches; }
  // A fetch of `sectors` has filled: the waiters whose sectors have all arrived go into `out`,
  // in arrival order. After the entry's last fetch every waiter has gone and the entry is
  // freed (returns true).
  bool fill(uint32_t entry, uint32_t sectors, std::vector<void*>& out);

  uint32_t occupancy() const { return m_used; }
  uint32_t capacity() const { return uint32_t(m_entries.size()); }
  bool full() const { return m_used == m_entries.size(); }
  uint32_t max_merges() const { return m_max_merges; }

  static constexpr uint32_t npos = UINT32_MAX;

 private:
  struct Waiter {
    void* request;
    uint32_t sectors;
  };
  struct Entry {
    bool used = false;
    uint64_t line = 0;
    std::vector<Waiter> waiters;
    uint32_t pending = 0;  // fetched, not yet filled
    uint32_t arrived = 0;  // filled since the entry was allocated
    uint32_t fetches = 0;
  };
  uint64_t home_of(uint64_t line) const;
  // The index's slot of `line`: where it is, or the empty slot where it would go.
  uint32_t slot_of(uint64_t line) const;
  void unindex(uint64_t line);
  void free_entry(uint32_t entry);

  std::vector<Entry> m_entries;
  std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<uint32_t>> m_free;
  uint32_t m_used = 0;
  // Linear probing over a power-of-two table at most half full: entry indices, npos if empty.
  std::vector<uint32_t> m_index;
  uint64_t m_index_mask;
  uint32_t m_max_merges;
};

}  // namespace ohmvp::gpu
