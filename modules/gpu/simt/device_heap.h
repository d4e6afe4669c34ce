#pragma once

#include <cstdint>
#include <map>
#include <optional>

namespace ohmvp::gpu {

// CUDA's device heap, what malloc/free and new/delete in kernels use: a region of device memory
// the host sets aside (8 MiB, CUDA's default cudaLimitMallocHeapSize), handed out first-fit in
// blocks of a multiple of 16 bytes (malloc's alignment on the device). A free block merges
// with the free blocks beside it. The allocator's bookkeeping is the host's, not device memory.
class DeviceHeap {
 public:
  static constexpr uint64_t alignment = 16;

  DeviceHeap(uint64_t base, uint64_t bytes);

  // The address of a new block of at least `bytes` (a 0-byte request gets the smallest block);
  // none when no free block is large enough (malloc returns NULL).
  std::optional<uint64_t> allocate(uint64_t bytes);
  // Frees the block starting at `address`; false when no block starts there.
  bool release(uint64_t address);

  uint64_t base() const { return m_base; }
  uint64_t bytes() const { return m_bytes; }
  uint64_t allocated_bytes() const { return m_allocated; }

 private:
  uint64_t m_base;
  uint64_t m_bytes;
  uint64_t m_allocated = 0;
  std::map<uint64_t, uint64_t> m_free;  // address -> bytes
  std::map<uint64_t, uint64_t> m_used;  // address -> bytes
};

}  // namespace ohmvp::gpu
