#include "modules/uvm/chunk_pool.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ohmvp {

uint32_t ChunkPool::add(uint64_t address) {
  const uint32_t index = static_cast<uint32_t>(m_chunks.size());
  m_chunks.push_back({address, std::nullopt, 0});
  m_by_address.emplace(address, index);
  m_free.insert(m_free.begin(), index);
  return index;
}

std::optional<uint32_t> ChunkPool::take_free(uint64_t block) {
  if (m_free.empty()) return std::nullopt;
  const uint32_t index = m_free.back();
  m_free.pop_back();
  m_chunks[index].block = block;
  m_order.push_back(index);
  return index;
}

std::optional<uint32_t> ChunkPool::victim(const std::function<bool(uint64_t block)>& keep) const {
  for (uint32_t index : m_order) {
    const Chunk& chunk = m_chunks[index];
    if (chunk.in_flight == 0 && !keep(*chunk.block)) return index;
  }
  return std::nullopt;
}

void ChunkPool::release(uint32_t chunk) {
  m_order.remove(chunk);
  m_chunks[chunk].block.reset();
  m_free.push_back(chunk);
}

void ChunkPool::withdraw(uint32_t chunk) {
  const auto found = std::find(m_free.begin(), m_free.end(), chunk);
  if (found == m_free.end())
    throw std::logic_error("ChunkPool: chunk " + std::to_string(chunk) + " is not free");
  m_free.erase(found);
  m_by_address.erase(m_chunks[chunk].address);
  m_chunks[chunk].withdrawn = true;
  ++m_withdrawn;
}

uint32_t ChunkPool::chunk_at(uint64_t address) const {
  auto after = m_by_address.upper_bound(address);
  if (after != m_by_address.begin()) {
    const uint32_t index = std::prev(after)->second;
    if (address - m_chunks[index].address < m_chunk_bytes) return index;
  }
  throw std::logic_error("ChunkPool: no chunk holds frame " + std::to_string(address));
}

}  // namespace ohmvp
