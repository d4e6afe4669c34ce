#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "modules/common/zeroed_bytes.h"

namespace ohmvp {

// The managed allocations of a context (cudaMallocManaged) and where their pages are. Every
// allocation starts on a VA block boundary of its own, so a block belongs to one allocation (a
// modelling choice: the driver packs small allocations into shared blocks). A page lives in host
// memory, which holds the allocation's bytes, until the driver migrates it to the GPU: its block
// then has a chunk of GPU memory, and the page's frame is at the same offset in the chunk.
// Addresses lie in their own window of the GPU's address space, apart from cudaMalloc's device
// addresses and the generic windows (memory_windows.h).
class ManagedSpace {
 public:
  static constexpr uint64_t window_base = 0x0000'7c00'0000'0000ULL;
  static constexpr uint64_t window_bytes = 0x0000'0100'0000'0000ULL;  // 1 TiB

  struct Allocation {
    uint64_t address = 0;
    uint64_t bytes = 0;         // as requested
    // The bytes while in host memory, whole pages; zero pages from the system until written, so
    // a large allocation costs host memory only where it is used.
    ZeroedBytes host;
  };
  // Where a block evicted from GPU 0 lies in a neighbour's memory (memHarvester).
  struct Harvested {
    uint32_t peer = 0;          // the neighbour, 0-based among the neighbours
    uint32_t chunk = 0;         // the chunk of its memory
    std::vector<bool> pages;    // per page: its bytes are there
    bool written_back = false;  // host memory has them too: the chunk may be reclaimed
    // Which copy this is: a write-back of an earlier copy in the same chunk lands for none.
    uint64_t serial = 0;
  };
  struct Block {
    std::optional<uint32_t> chunk;  // the chunk of GPU memory backing it, if any
    std::vector<bool> resident;     // per page: on the GPU (in the chunk) and mapped
    uint32_t resident_pages = 0;
    std::optional<Harvested> harvested;  // never together with `chunk`
    bool moving = false;  // pre-evicted or prefetched in the background, its bytes not yet there
    // Per page: cudaMemAdviseSetReadMostly. A read-mostly page brought from host memory is
    // duplicated: resident, and host memory's copy is as current as the GPU's.
    std::vector<bool> read_mostly;
    std::vector<bool> duplicated;
    // Per page: cudaMemAdviseSetPreferredLocation to host memory, cudaMemAdviseSetAccessedBy the
    // GPU, and mapped in host memory for the GPU after a fault on a host-preferred page. A page
    // not resident that is accessed-by or so mapped is reached over PCIe (UvmDriver).
    std::vector<bool> prefer_host;
    std::vector<bool> accessed_by;
    std::vector<bool> remote_mapped;
    // Per page: the tree prefetcher brought it and no request has reached it since.
    std::vector<bool> prefetched_untouched;
    uint32_t remote_in_flight = 0;  // requests being served in host memory
    bool wanted_here = false;       // an atomic faulted on a page mapped in host memory

    // Maps `pages` (those set) in the block's chunk.
    void map(const std::vector<bool>& pages);
    // Unmaps every page and gives up the chunk; returns the pages whose only current copy was the
    // GPU's (mapped and not duplicated): those that must be copied out.
    std::vector<bool> unmap();
    // Unmaps page `page` alone (the chunk stays).
    void unmap_page(uint64_t page);
    // Resident pages that are not duplicated.
    uint32_t gpu_only_pages() const;
  };

  // `block_bytes` is a power-of-two multiple of `page_bytes` (UvmConfig checks both).
  ManagedSpace(uint64_t page_bytes, uint64_t block_bytes);

  // Zero-filled host memory; `bytes` of 0 gets one page. OutOfDeviceMemory when the window is
  // full.
  uint64_t allocate(uint64_t bytes);
  // std::invalid_argument unless `address` starts a live allocation. The caller gives its
  // blocks' chunks back first (blocks_of).
  void free(uint64_t address);
  // The live allocation holding [address, address + bytes), or null.
  const Allocation* find(uint64_t address, uint64_t bytes = 1) const;
  Allocation* find(uint64_t address, uint64_t bytes = 1);
  bool in_window(uint64_t address) const { return address - window_base < window_bytes; }
  bool empty() const { return m_allocations.empty(); }

  uint64_t page_bytes() const { return m_page_bytes; }
  uint64_t block_bytes() const { return m_block_bytes; }
  uint64_t pages_per_block() const { return m_block_bytes / m_page_bytes; }
  // A block by its number (address / block_bytes).
  uint64_t block_number(uint64_t address) const { return address / m_block_bytes; }
  uint64_t page_in_block(uint64_t address) const { return address % m_block_bytes / m_page_bytes; }
  uint64_t block_address(uint64_t block) const { return block * m_block_bytes; }
  // The block's state, made (not resident, no chunk) on first use.
  Block& block(uint64_t block);
  const Block* find_block(uint64_t block) const;
  // Blocks overlapping [address, address + bytes), in address order.
  std::vector<uint64_t> blocks_of(uint64_t address, uint64_t bytes) const;
  // Per page of the block: whether its allocation covers it.
  std::vector<bool> allocated_pages(uint64_t block) const;
  // Per page of the block: whether it overlaps [address, address + bytes).
  std::vector<bool> pages_overlapping(uint64_t block, uint64_t address, uint64_t bytes) const;
  // The host bytes of the pages of a block from `first_page`, `pages` long.
  uint8_t* host_pages(uint64_t block, uint64_t first_page);

 private:
  uint64_t m_page_bytes, m_block_bytes;
  uint64_t m_next = window_base;
  std::map<uint64_t, Allocation> m_allocations;  // by address
  std::map<uint64_t, Block> m_blocks;            // by block number
};

}  // namespace ohmvp
