#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace ohmvp {

// Byte-addressable sparse memory contents: written bytes are kept in fixed-size blocks,
// allocated on first write; bytes never written read as 0. Accesses may span blocks.
class SparseStore {
 public:
  static constexpr uint32_t min_block_bytes = 8;

  // `block_bytes` must be a power of two, at least min_block_bytes (std::invalid_argument
  // otherwise).
  explicit SparseStore(uint32_t block_bytes = 64);

  // TLM byte-enable semantics: byte i is written iff byte_enable[i % byte_enable_length] is
  // 0xff. A byte_enable with length 0 is taken to be `length` long.
  void write(uint64_t address, const uint8_t* data, uint32_t length,
             const uint8_t* byte_enable = nullptr, uint32_t byte_enable_length = 0);
  // Never allocates.
  void read(uint64_t address, uint8_t* data, uint32_t length) const;

  size_t blocks() const { return m_size; }
  // Bytes of the allocated blocks (blocks() * block_bytes), not counting the index.
  uint64_t bytes_allocated() const { return static_cast<uint64_t>(m_size) * m_block_bytes; }
  uint32_t block_bytes() const { return m_block_bytes; }

 private:
  // Open addressing with linear probing; an empty slot holds k_empty, which no block index can
  // equal since block_bytes >= 8.
  struct Slot {
    uint64_t block;
    uint64_t data;  // index of the block's storage
  };
  static constexpr uint64_t k_empty = ~uint64_t{0};

  static uint64_t mix(uint64_t block) {
    block ^= block >> 33;
    block *= 0xff51afd7ed558ccdULL;
    block ^= block >> 33;
    block *= 0xc4ceb9fe1a85ec53ULL;
    block ^= block >> 33;
    return block;
  }

  const uint8_t* find(uint64_t block) const;
  uint8_t* find_or_insert(uint64_t block);
  void grow();
  uint8_t* storage(uint64_t data) const {
    return m_chunks[data >> m_chunk_shift].get() +
           ((data & ((uint64_t{1} << m_chunk_shift) - 1)) << m_block_shift);
  }

  uint32_t m_block_bytes;
  uint32_t m_block_shift;
  uint32_t m_chunk_shift;  // log2 of blocks per chunk
  size_t m_size = 0;
  std::vector<Slot> m_slots;  // capacity is zero or a power of two
  // Fixed-size chunks, so block storage never moves when more is added.
  std::vector<std::unique_ptr<uint8_t[]>> m_chunks;
};

}  // namespace ohmvp
