#pragma once

#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

namespace ohmvp {

// A table of `size` entries indexed 0..size-1 that takes host memory only for the chunks
// written so far: an entry never written reads as its initial value. The memories' per-page and
// per-line tables use it, so that a capacity of terabytes costs only what a run touches, and a
// run starts without filling gigabytes. A chunk is 4096 entries (a smaller table's size rounded
// up to a power of two), or more in a table of more than 2^28, so that the list of chunks stays
// within 65,536.
template <typename T>
class LazyTable {
 public:
  LazyTable(uint64_t size, T initial)
      : m_size(size),
        m_initial(std::move(initial)),
        m_chunk_bits(chunk_bits_for(size)),
        m_chunk_mask((uint64_t{1} << m_chunk_bits) - 1),
        m_chunks((size >> m_chunk_bits) + ((size & m_chunk_mask) != 0 ? 1 : 0)) {}

  uint64_t size() const { return m_size; }
  uint64_t chunk_entries() const { return m_chunk_mask + 1; }
  uint64_t chunks_in_use() const { return m_in_use; }

  // The entry, or nullptr if it was never written (it holds the initial value). `index` must be
  // below size(), as a vector's would.
  const T* find(uint64_t index) const {
    const std::vector<T>& chunk = m_chunks[index >> m_chunk_bits];
    return chunk.empty() ? nullptr : chunk.data() + (index & m_chunk_mask);
  }
  const T& operator[](uint64_t index) const {
    const T* entry = find(index);
    return entry == nullptr ? m_initial : *entry;
  }
  // The entry, to write; its chunk is made, every entry at the initial value, on first use.
  T& at(uint64_t index) {
    return at(index, [this](uint64_t) { return m_initial; });
  }
  // As at(index), for a table whose initial value depends on the index: a new chunk's entry i
  // starts at initial_of(i). Reads of entries never written must then use find().
  template <typename InitialOf>
  T& at(uint64_t index, InitialOf initial_of) {
    if (index >= m_size) throw std::out_of_range("LazyTable: index past the end");
    std::vector<T>& chunk = m_chunks[index >> m_chunk_bits];
    if (chunk.empty()) {
      // Built aside, so that an exception leaves the chunk unmade rather than half made.
      std::vector<T> made;
      made.reserve(chunk_entries());
      const uint64_t first = index & ~m_chunk_mask;
      for (uint64_t i = 0; i <= m_chunk_mask; ++i) made.push_back(initial_of(first + i));
      chunk = std::move(made);
      ++m_in_use;
    }
    return chunk[index & m_chunk_mask];
  }

 private:
  static unsigned chunk_bits_for(uint64_t size) {
    unsigned bits = 0;  // a small table is one chunk of its size, rounded up to a power of two
    while (bits < 12 && (uint64_t{1} << bits) < size) ++bits;
    while (size > 0 && (size - 1) >> bits >= (uint64_t{1} << 16)) ++bits;
    return bits;
  }

  uint64_t m_size;
  T m_initial;
  unsigned m_chunk_bits;
  uint64_t m_chunk_mask;
  std::vector<std::vector<T>> m_chunks;  // empty: never written
  uint64_t m_in_use = 0;
};

}  // namespace ohmvp
