#include "modules/host/device_allocator.h"

#include <algorithm>
#include <iterator>
#include <stdexcept>
#include <vector>

#include "modules/common/hex_text.h"
#include "modules/common/power_of_two.h"

namespace ohmvp {

DeviceAllocator::DeviceAllocator(uint64_t base, uint64_t end, uint64_t alignment)
    : m_base(base), m_end(end), m_alignment(alignment) {
  if (!is_power_of_two(alignment))
    throw std::invalid_argument("device allocator alignment must be a power of two");
  m_base = std::max((base + alignment - 1) & ~(alignment - 1), alignment);
  if (m_base >= end) throw std::invalid_argument("device allocator range is empty");
  m_free.emplace(m_base, m_end - m_base);
}

uint64_t DeviceAllocator::units_of(uint64_t bytes) const {
  return bytes == 0 ? 1 : bytes / m_alignment + (bytes % m_alignment != 0);  // never wraps
}

uint64_t DeviceAllocator::allocate(uint64_t bytes) {
  const uint64_t units = units_of(bytes);
  if (units > (m_end - m_base) / m_alignment)
    throw OutOfDeviceMemory("cannot allocate " + std::to_string(bytes) +
                            " bytes: device memory is " + std::to_string(capacity()) + " bytes");
  const uint64_t rounded = units * m_alignment;
  for (auto it = m_free.begin(); it != m_free.end(); ++it) {
    if (it->second < rounded) continue;
    const uint64_t address = it->first;
    const uint64_t left = it->second - rounded;
    m_free.erase(it);
    if (left > 0) m_free.emplace(address + rounded, left);
    m_live.emplace(address, Block{address, bytes});
    m_in_use += rounded;
    return address;
  }
  throw OutOfDeviceMemory("cannot allocate " + std::to_string(bytes) +
                          " bytes: " + std::to_string(capacity() - m_in_use) + " of " +
                          std::to_string(capacity()) + " bytes free, none contiguous enough");
}

void DeviceAllocator::free(uint64_t address) {
  const auto live = m_live.find(address);
  if (live == m_live.end()) {
    const std::optional<Block> inside = find(address, 1);
    throw std::invalid_argument(
        "free of address " + hex_text(address) + ", which is not an allocated block" +
        (inside ? " (it lies " + std::to_string(address - inside->address) +
                      " bytes into the block of " + std::to_string(inside->bytes) + " bytes at " +
                      hex_text(inside->address) + ")"
                : ""));
  }
  const uint64_t bytes = live->second.bytes;
  const uint64_t rounded = units_of(bytes) * m_alignment;
  m_live.erase(live);
  m_in_use -= rounded;

  auto next = m_free.emplace(address, rounded).first;
  if (next != m_free.begin()) {
    auto previous = std::prev(next);
    if (previous->first + previous->second == address) {
      previous->second += rounded;
      m_free.erase(next);
      next = previous;
    }
  }
  auto after = std::next(next);
  if (after != m_free.end() && next->first + next->second == after->first) {
    next->second += after->second;
    m_free.erase(after);
  }
}

std::optional<DeviceAllocator::Block> DeviceAllocator::find(uint64_t address,
                                                            uint64_t bytes) const {
  auto it = m_live.upper_bound(address);
  if (it == m_live.begin()) return std::nullopt;
  const Block& block = std::prev(it)->second;
  // As offsets, which cannot wrap past the top of the address space.
  const uint64_t offset = address - block.address;
  if (offset > block.bytes || bytes > block.bytes - offset) return std::nullopt;
  return block;
}

void DeviceAllocator::free_all_but(const std::set<uint64_t>& keep) {
  std::vector<uint64_t> freed;
  for (const auto& [address, block] : m_live)
    if (keep.count(address) == 0) freed.push_back(address);
  for (uint64_t address : freed) free(address);
}

}  // namespace ohmvp
