#include "modules/uvm/managed_space.h"

#include <stdexcept>
#include <string>
#include <utility>

#include "modules/common/hex_text.h"
#include "modules/host/device_allocator.h"

namespace ohmvp {

namespace {

uint64_t round_up(uint64_t value, uint64_t unit) {
  return (value + unit - 1) / unit * unit;
}

}  // namespace

ManagedSpace::ManagedSpace(uint64_t page_bytes, uint64_t block_bytes)
    : m_page_bytes(page_bytes), m_block_bytes(block_bytes) {}

void ManagedSpace::Block::map(const std::vector<bool>& pages) {
  for (size_t p = 0; p < pages.size(); ++p) {
    if (!pages[p] || resident[p]) continue;
    resident[p] = true;
    remote_mapped[p] = false;
    ++resident_pages;
  }
}

std::vector<bool> ManagedSpace::Block::unmap() {
  std::vector<bool> only_here(resident.size(), false);
  for (size_t p = 0; p < resident.size(); ++p) only_here[p] = resident[p] && !duplicated[p];
  resident.assign(resident.size(), false);
  duplicated.assign(duplicated.size(), false);
  prefetched_untouched.assign(prefetched_untouched.size(), false);
  resident_pages = 0;
  chunk.reset();
  return only_here;
}

void ManagedSpace::Block::unmap_page(uint64_t page) {
  if (!resident[page]) return;
  resident[page] = false;
  duplicated[page] = false;
  prefetched_untouched[page] = false;
  --resident_pages;
}

uint32_t ManagedSpace::Block::gpu_only_pages() const {
  uint32_t count = 0;
  for (size_t p = 0; p < resident.size(); ++p) count += resident[p] && !duplicated[p];
  return count;
}

uint64_t ManagedSpace::allocate(uint64_t bytes) {
  const uint64_t left = window_base + window_bytes - m_next;
  const auto no_room = [&] {
    return OutOfDeviceMemory("cudaMallocManaged of " + std::to_string(bytes) +
                             " bytes: the managed address window (" + std::to_string(window_bytes) +
                             " bytes) has " + std::to_string(left) + " left");
  };
  if (bytes > left) throw no_room();  // before rounding, which could wrap
  const uint64_t pages_bytes = round_up(bytes == 0 ? 1 : bytes, m_page_bytes);
  const uint64_t span = round_up(pages_bytes, m_block_bytes);
  if (span > left) throw no_room();
  Allocation allocation;
  allocation.address = m_next;
  allocation.bytes = bytes;
  allocation.host = ZeroedBytes(pages_bytes);
  m_next += span;
  const uint64_t address = allocation.address;
  m_allocations.emplace(address, std::move(allocation));
  return address;
}

void ManagedSpace::free(uint64_t address) {
  const auto found = m_allocations.find(address);
  if (found == m_allocations.end())
    throw std::invalid_argument("cudaFree: " + hex_text(address) +
                                " is not the start of a managed allocation");
  const Allocation& allocation = found->second;
  for (uint64_t block : blocks_of(allocation.address, allocation.host.size()))
    m_blocks.erase(block);
  m_allocations.erase(found);
}

const ManagedSpace::Allocation* ManagedSpace::find(uint64_t address, uint64_t bytes) const {
  auto after = m_allocations.upper_bound(address);
  if (after == m_allocations.begin()) return nullptr;
  const Allocation& allocation = std::prev(after)->second;
  const uint64_t offset = address - allocation.address;
  const uint64_t length = allocation.bytes == 0 ? 1 : allocation.bytes;
  if (offset >= length || bytes > length - offset) return nullptr;
  return &allocation;
}

ManagedSpace::Allocation* ManagedSpace::find(uint64_t address, uint64_t bytes) {
  return const_cast<Allocation*>(std::as_const(*this).find(address, bytes));
}

ManagedSpace::Block& ManagedSpace::block(uint64_t block) {
  Block& state = m_blocks[block];
  if (state.resident.empty()) {
    state.resident.assign(pages_per_block(), false);
    state.read_mostly.assign(pages_per_block(), false);
    state.duplicated.assign(pages_per_block(), false);
    state.prefer_host.assign(pages_per_block(), false);
    state.accessed_by.assign(pages_per_block(), false);
    state.remote_mapped.assign(pages_per_block(), false);
    state.prefetched_untouched.assign(pages_per_block(), false);
  }
  return state;
}

const ManagedSpace::Block* ManagedSpace::find_block(uint64_t block) const {
  const auto found = m_blocks.find(block);
  return found == m_blocks.end() ? nullptr : &found->second;
}

std::vector<uint64_t> ManagedSpace::blocks_of(uint64_t address, uint64_t bytes) const {
  std::vector<uint64_t> blocks;
  if (bytes == 0) return blocks;
  for (uint64_t b = block_number(address); b <= block_number(address + bytes - 1); ++b)
    blocks.push_back(b);
  return blocks;
}

std::vector<bool> ManagedSpace::allocated_pages(uint64_t block) const {
  std::vector<bool> pages(pages_per_block(), false);
  const uint64_t start = block_address(block);
  const Allocation* allocation = find(start);
  if (allocation == nullptr) return pages;
  const uint64_t end = allocation->address + allocation->host.size();
  for (uint64_t p = 0; p < pages.size(); ++p) pages[p] = start + p * m_page_bytes < end;
  return pages;
}

std::vector<bool> ManagedSpace::pages_overlapping(uint64_t block, uint64_t address,
                                                  uint64_t bytes) const {
  std::vector<bool> pages(pages_per_block(), false);
  const uint64_t start = block_address(block);
  for (uint64_t p = 0; p < pages.size(); ++p) {
    const uint64_t page_start = start + p * m_page_bytes;
    pages[p] = page_start < address + bytes && address < page_start + m_page_bytes;
  }
  return pages;
}

uint8_t* ManagedSpace::host_pages(uint64_t block, uint64_t first_page) {
  const uint64_t address = block_address(block) + first_page * m_page_bytes;
  Allocation* allocation = find(address);
  if (allocation == nullptr)
    throw std::logic_error("ManagedSpace: page " + std::to_string(address) +
                           " belongs to no allocation");
  return allocation->host.data() + (address - allocation->address);
}

}  // namespace ohmvp
