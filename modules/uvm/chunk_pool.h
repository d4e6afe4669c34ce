#pragma once

#include <cstdint>
#include <functional>
#include <list>
#include <map>
#include <optional>
#include <vector>

namespace ohmvp {

// The GPU memory the UVM driver holds for managed pages, in root chunks, and the order it gives
// them up in: the NVIDIA driver's eviction list, least recently allocated first, reordered when
// a chunk is allocated to a block and not when its pages are accessed (PARAMETERS.md). A chunk
// with accesses in flight (translated and not yet answered) is never a victim: its frames must
// not change owner under them.
class ChunkPool {
 public:
  struct Chunk {
    uint64_t address = 0;           // the first frame's device address
    std::optional<uint64_t> block;  // the VA block it backs, if any
    uint32_t in_flight = 0;
    bool withdrawn = false;  // given back to the memory it came from: no longer the pool's
  };

  explicit ChunkPool(uint64_t chunk_bytes) : m_chunk_bytes(chunk_bytes) {}

  // A chunk of GPU memory the driver got, at `address`; free.
  uint32_t add(uint64_t address);
  // A free chunk given to `block`, last in the eviction order; none when none is free.
  std::optional<uint32_t> take_free(uint64_t block);
  // The first chunk in eviction order with nothing in flight whose block `keep` does not name.
  std::optional<uint32_t> victim(const std::function<bool(uint64_t block)>& keep) const;
  // The chunk's block gives it up: it is free again.
  void release(uint32_t chunk);
  // A free chunk leaves the pool (its memory goes back to its owner); std::logic_error when it is
  // not free.
  void withdraw(uint32_t chunk);
  // The chunk holding frame `address`; std::logic_error when none does.
  uint32_t chunk_at(uint64_t address) const;

  void begin_access(uint32_t chunk) { ++m_chunks[chunk].in_flight; }
  void end_access(uint32_t chunk) { --m_chunks[chunk].in_flight; }

  const Chunk& chunk(uint32_t index) const { return m_chunks[index]; }
  size_t size() const { return m_chunks.size(); }  // withdrawn chunks included
  size_t held() const { return m_chunks.size() - m_withdrawn; }
  size_t free_count() const { return m_free.size(); }
  uint64_t chunk_bytes() const { return m_chunk_bytes; }
  // Chunks in eviction order, first victim first.
  const std::list<uint32_t>& eviction_order() const { return m_order; }
  // Free chunks, the next taken last.
  const std::vector<uint32_t>& free_chunks() const { return m_free; }

 private:
  uint64_t m_chunk_bytes;
  std::vector<Chunk> m_chunks;
  std::vector<uint32_t> m_free;  // taken from the back: the lowest index first
  std::list<uint32_t> m_order;   // chunks backing a block
  std::map<uint64_t, uint32_t> m_by_address;
  size_t m_withdrawn = 0;
};

}  // namespace ohmvp
