#include "modules/gpu/simt/device_heap.h"

#include <iterator>

namespace ohmvp::gpu {

DeviceHeap::DeviceHeap(uint64_t base, uint64_t bytes) : m_base(base), m_bytes(bytes) {
  if (bytes >= alignment) m_free.emplace(base, bytes / alignment * alignment);
}

std::optional<uint64_t> DeviceHeap::allocate(uint64_t bytes) {
  if (bytes > m_bytes) return std::nullopt;
  const uint64_t size = bytes == 0 ? alignment : (bytes + alignment - 1) / alignment * alignment;
  for (auto block = m_free.begin(); block != m_free.end(); ++block) {
    if (block->second < size) continue;
    const uint64_t address = block->first;
    const uint64_t left = block->second - size;
    m_free.erase(block);
    if (left != 0) m_free.emplace(address + size, left);
    m_used.emplace(address, size);
    m_allocated += size;
    return address;
  }
  return std::nullopt;
}

bool DeviceHeap::release(uint64_t address) {
  const auto used = m_used.find(address);
  if (used == m_used.end()) return false;
  uint64_t start = address, size = used->second;
  m_allocated -= size;
  m_used.erase(used);
  const auto after = m_free.find(start + size);
  if (after != m_free.end()) {
    size += after->second;
    m_free.erase(after);
  }
  const auto before = m_free.lower_bound(start);
  if (before != m_free.begin()) {
    const auto previous = std::prev(before);
    if (previous->first + previous->second == start) {
      start = previous->first;
      size += previous->second;
      m_free.erase(previous);
    }
  }
  m_free.emplace(start, size);
  return true;
}

}  // namespace ohmvp::gpu
