#pragma once

// What the UVM driver's two source files share: uvm_driver.cpp (faults, batches, migrations,
// host accesses) and uvm_harvest.cpp (memHarvester).

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "modules/uvm/uvm_driver.h"

namespace ohmvp {

// Holds back the copy-engine writes into an evicted chunk until its old pages are read out.
struct UvmDriver::Gate {
  uint32_t closed_by = 0;  // reads not yet done
  std::vector<std::function<void()>> waiting;

  void pass(std::function<void()> action) {
    if (closed_by == 0)
      action();
    else
      waiting.push_back(std::move(action));
  }
  void open_one() {
    if (--closed_by > 0) return;
    for (auto& action : waiting) action();
    waiting.clear();
  }
};

// A neighbour GPU lending memory (memHarvester): the chunks it lent so far, and its own PCIe
// link, which the background write-backs share with its host's copies.
struct UvmDriver::Peer : MemoryBorrower {
  Peer(UvmDriver& d, uint32_t i, gpu::Gpu& g, uint32_t p, MemoryLender& l, uint64_t limit_bytes,
       uint64_t chunk_bytes, PcieLink& link)
      : driver(d),
        index(i),
        gpu(&g),
        port(p),
        lender(l),
        limit(limit_bytes),
        pool(chunk_bytes),
        pcie(link) {}
  // A free chunk for `block`: a free one, else a new one while the lender has room and the lent
  // memory stays within `limit` (0: no limit).
  std::optional<uint32_t> take_free(uint64_t block) {
    if (pool.free_count() == 0 && (limit == 0 || (pool.held() + 1) * pool.chunk_bytes() <= limit))
      if (const std::optional<uint64_t> address = lender.lend(pool.chunk_bytes()))
        pool.add(*address);
    return pool.take_free(block);
  }
  Reclaim reclaim(bool removable) override { return driver.reclaim(index, removable); }
  void when_reclaimable(std::function<void()> then) override {
    driver.m_reclaimable_waiters.push_back(std::move(then));
  }

  UvmDriver& driver;
  uint32_t index;
  gpu::Gpu* gpu;
  uint32_t port;
  MemoryLender& lender;
  uint64_t limit;
  ChunkPool pool;  // a chunk's in_flight counts its reads in progress
  PcieLink& pcie;
};

struct UvmDriver::Stats {
  Stats(StatsRegistry& r, const std::string& g)
      : faults(r.counter(g, "far_faults", "faults",
                         "requests to managed pages not on the GPU (each waits for a batch)")),
        batches(r.counter(g, "fault_batches", "batches", "fault batches serviced")),
        pages_to_gpu(r.counter(g, "pages_to_gpu", "pages", "pages migrated to the GPU")),
        pages_prefetched(
            r.counter(g, "pages_prefetched", "pages",
                      "of pages_to_gpu, those the tree prefetcher brought, not a fault")),
        pages_prefetched_used(
            r.counter(g, "pages_prefetched_used", "pages",
                      "of pages_prefetched, those a request reached before they left the GPU")),
        pages_to_host(r.counter(g, "pages_to_host", "pages",
                                "pages migrated back to host memory (evictions, host accesses)")),
        chunks_evicted(r.counter(g, "chunks_evicted", "chunks",
                                 "chunks given up to make room for another VA block")),
        chunks(r.counter(g, "chunks_allocated", "chunks", "chunks of GPU memory the driver took")),
        bytes_to_gpu(
            r.counter(g, "bytes_to_gpu", "bytes", "managed bytes moved over PCIe to the GPU")),
        bytes_to_host(
            r.counter(g, "bytes_to_host", "bytes", "managed bytes moved over PCIe to host memory")),
        fault_latency(r.histogram(g, "fault_latency", "ps", "from a far fault to its replay")),
        chunks_harvested(r.counter(g, "chunks_harvested", "chunks",
                                   "of the chunks evicted, those that went to a neighbour GPU")),
        pages_from_peer(r.counter(g, "pages_from_peer", "pages",
                                  "of the pages migrated to the GPU, those from a neighbour")),
        harvest_write_backs(r.counter(g, "harvest_write_backs", "chunks",
                                      "harvested chunks written back to host memory")),
        bytes_over_nvlink(r.counter(g, "bytes_over_nvlink", "bytes",
                                    "managed bytes moved between GPU 0 and its neighbours")),
        chunks_pre_evicted(r.counter(g, "chunks_pre_evicted", "chunks",
                                     "of the chunks evicted, those evicted ahead of need to keep "
                                     "uvm.reserve_chunks free")),
        chunks_prefetched_to_peer(
            r.counter(g, "chunks_prefetched_to_peer", "chunks",
                      "chunks the multi-path prefetcher moved from host memory to a neighbour")),
        chunks_prefetched_from_peer(
            r.counter(g, "chunks_prefetched_from_peer", "chunks",
                      "chunks the multi-path prefetcher moved from a neighbour to the GPU")),
        chunks_prefetched_from_host(
            r.counter(g, "chunks_prefetched_from_host", "chunks",
                      "chunks the multi-path prefetcher moved from host memory to the GPU "
                      "(harvesting GPUs outnumber yielding ones)")),
        host_prefetch_pages(r.counter(g, "host_prefetch_pages", "pages",
                                      "pages cudaMemPrefetchAsync moved to the GPU (in "
                                      "pages_to_gpu too)")),
        pages_relayed(r.counter(g, "pages_relayed", "pages",
                                "of the pages migrated to the GPU from host memory, those "
                                "fetched through a yielding GPU (uvm.parallel_fetch)")),
        chunks_reclaimed(r.counter(g, "chunks_reclaimed", "chunks",
                                   "lent chunks the neighbours took back for their own "
                                   "allocations")),
        chunks_to_malloc(r.counter(g, "chunks_to_malloc", "chunks",
                                   "chunks this GPU's cudaMalloc took back from managed memory "
                                   "(free ones, or evicted for it)")),
        pages_duplicated(r.counter(g, "pages_duplicated", "pages",
                                   "read-mostly pages brought to the GPU with their host copy "
                                   "kept (in pages_to_gpu too)")),
        duplicates_collapsed(r.counter(g, "duplicates_collapsed", "pages",
                                       "duplicated pages a GPU write made the GPU's only copy")),
        pages_dropped(r.counter(g, "pages_dropped", "pages",
                                "duplicated pages unmapped from the GPU without a copy (evicted, "
                                "or written by the host)")),
        pages_mapped_in_host(r.counter(g, "pages_mapped_in_host", "pages",
                                       "host-preferred pages a fault mapped in host memory "
                                       "instead of migrating them")),
        remote_accesses(r.counter(g, "remote_accesses", "requests",
                                  "GPU requests served in host memory over PCIe (accessed-by "
                                  "and host-mapped pages)")),
        remote_bytes(r.counter(g, "remote_bytes", "bytes",
                               "bytes those requests moved over PCIe (whole sectors)")) {}
  Counter &faults, &batches, &pages_to_gpu, &pages_prefetched, &pages_prefetched_used,
      &pages_to_host, &chunks_evicted, &chunks, &bytes_to_gpu, &bytes_to_host;
  Histogram& fault_latency;
  Counter &chunks_harvested, &pages_from_peer, &harvest_write_backs, &bytes_over_nvlink,
      &chunks_pre_evicted, &chunks_prefetched_to_peer, &chunks_prefetched_from_peer,
      &chunks_prefetched_from_host, &host_prefetch_pages, &pages_relayed, &chunks_reclaimed,
      &chunks_to_malloc, &pages_duplicated, &duplicates_collapsed, &pages_dropped,
      &pages_mapped_in_host, &remote_accesses, &remote_bytes;
};

// This GPU's cudaMalloc, taking the driver's chunks back (UvmDriver::memory_for_malloc).
struct UvmDriver::ForMalloc : MemoryBorrower {
  explicit ForMalloc(UvmDriver& d) : driver(d) {}
  Reclaim reclaim(bool removable) override { return driver.give_to_malloc(removable); }
  void when_reclaimable(std::function<void()> then) override {
    driver.m_reclaimable_waiters.push_back(std::move(then));
  }
  UvmDriver& driver;
};

// Runs of consecutive set entries: (first, count).
std::vector<std::pair<uint64_t, uint64_t>> runs_of(const std::vector<bool>& pages);

// A callback that runs `then` at its `count`-th call (count > 0): the join of a move's runs.
std::function<void()> after_all(size_t count, std::function<void()> then);

}  // namespace ohmvp
