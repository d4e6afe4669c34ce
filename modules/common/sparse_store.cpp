#include "modules/common/sparse_store.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "modules/common/power_of_two.h"

namespace ohmvp {

namespace {

constexpr uint32_t k_chunk_shift_bytes = 16;  // 64 KiB of block storage per allocation
constexpr size_t k_initial_slots = 64;

}  // namespace

SparseStore::SparseStore(uint32_t block_bytes) : m_block_bytes(block_bytes) {
  if (block_bytes < min_block_bytes || !is_power_of_two(block_bytes))
    throw std::invalid_argument("SparseStore: block size " + std::to_string(block_bytes) +
                                " is not a power of two of at least " +
                                std::to_string(min_block_bytes));
  m_block_shift = 0;
  while ((uint32_t{1} << m_block_shift) < block_bytes) ++m_block_shift;
  m_chunk_shift = m_block_shift < k_chunk_shift_bytes ? k_chunk_shift_bytes - m_block_shift : 0;
}

const uint8_t* SparseStore::find(uint64_t block) const {
  if (m_slots.empty()) return nullptr;
  const size_t mask = m_slots.size() - 1;
  for (size_t i = mix(block) & mask;; i = (i + 1) & mask) {
    const Slot& slot = m_slots[i];
    if (slot.block == block) return storage(slot.data);
    if (slot.block == k_empty) return nullptr;
  }
}

uint8_t* SparseStore::find_or_insert(uint64_t block) {
  // Grow at 70% load; the +1 accounts for the block about to be inserted.
  if ((m_size + 1) * 10 > m_slots.size() * 7) grow();
  const size_t mask = m_slots.size() - 1;
  size_t i = mix(block) & mask;
  for (;; i = (i + 1) & mask) {
    if (m_slots[i].block == block) return storage(m_slots[i].data);
    if (m_slots[i].block == k_empty) break;
  }
  const uint64_t data = m_size;
  if ((data >> m_chunk_shift) == m_chunks.size())
    m_chunks.emplace_back(new uint8_t[size_t{m_block_bytes} << m_chunk_shift]());
  m_slots[i] = {block, data};
  ++m_size;
  return storage(data);
}

void SparseStore::grow() {
  std::vector<Slot> old(std::max(k_initial_slots, m_slots.size() * 2), Slot{k_empty, 0});
  old.swap(m_slots);
  const size_t mask = m_slots.size() - 1;
  for (const Slot& slot : old) {
    if (slot.block == k_empty) continue;
    size_t i = mix(slot.block) & mask;
    while (m_slots[i].block != k_empty) i = (i + 1) & mask;
    m_slots[i] = slot;
  }
}

void SparseStore::write(uint64_t address, const uint8_t* data, uint32_t length,
                        const uint8_t* byte_enable, uint32_t byte_enable_length) {
  if (byte_enable && byte_enable_length == 0) byte_enable_length = length;
  const uint64_t offset_mask = m_block_bytes - 1;
  uint32_t done = 0;
  while (done < length) {
    const uint64_t at = address + done;
    const uint32_t offset = static_cast<uint32_t>(at & offset_mask);
    const uint32_t count = std::min(length - done, m_block_bytes - offset);
    if (!byte_enable) {
      std::memcpy(find_or_insert(at >> m_block_shift) + offset, data + done, count);
    } else {
      uint8_t* block = nullptr;  // allocated only if some byte of this segment is enabled
      for (uint32_t i = 0; i < count; ++i) {
        const uint32_t k = done + i;
        if (byte_enable[k % byte_enable_length] != 0xff) continue;
        if (!block) block = find_or_insert(at >> m_block_shift);
        block[offset + i] = data[k];
      }
    }
    done += count;
  }
}

void SparseStore::read(uint64_t address, uint8_t* data, uint32_t length) const {
  const uint64_t offset_mask = m_block_bytes - 1;
  const uint32_t first_offset = static_cast<uint32_t>(address & offset_mask);
  if (first_offset + length <= m_block_bytes) {  // the common case: within one block
    if (const uint8_t* block = find(address >> m_block_shift))
      std::memcpy(data, block + first_offset, length);
    else
      std::memset(data, 0, length);
    return;
  }
  uint32_t done = 0;
  while (done < length) {
    const uint64_t at = address + done;
    const uint32_t offset = static_cast<uint32_t>(at & offset_mask);
    const uint32_t count = std::min(length - done, m_block_bytes - offset);
    if (const uint8_t* block = find(at >> m_block_shift))
      std::memcpy(data + done, block + offset, count);
    else
      std::memset(data + done, 0, count);
    done += count;
  }
}

}  // namespace ohmvp
