#pragma once

#include <cstdint>

namespace ohmvp {

class ConfigReader;

// The unified-memory driver of a platform ("uvm" in the platform file). Defaults are the NVIDIA
// UVM driver's figures (PARAMETERS.md) and UVMSmart's far-fault latency.
// When the faults of a batch are replayed (the NVIDIA driver's uvm_perf_fault_replay_policy):
// all after the batch (`batch`, its default, with the buffer flush), or each VA block's as soon as
// its pages are mapped (`block`), which lets the faults served by a fast path (a neighbour over
// NVLink) go on before the slow ones: memHarvester's split of a batch between its paths.
enum class ReplayPolicy { batch, block };

struct UvmConfig {
  // The page a fault migrates: the driver's 4 KiB.
  uint64_t page_bytes = 4096;
  // A root chunk of GPU memory, which backs one VA block of the same size: 2 MiB. Eviction
  // gives up a whole chunk.
  uint64_t chunk_bytes = 2 << 20;
  // GPU memory the driver may hold for managed pages; 0: as much as cudaMalloc leaves free.
  uint64_t gpu_memory_bytes = 0;
  // Faults one batch takes from the fault buffer.
  uint32_t fault_batch_size = 256;
  ReplayPolicy replay_policy = ReplayPolicy::batch;
  // From a batch's first fault to its migrations (interrupt, fetch, sort, page-table walk):
  // UVMSmart's 45 us far-fault latency, charged once per batch.
  double fault_service_ns = 45000.0;
  // The tree prefetcher's density threshold: a region of a VA block whose pages are more than
  // this percentage resident or faulted is migrated whole. 0 turns prefetching off.
  uint32_t prefetch_threshold_percent = 51;
  // memHarvester's pre-eviction: once GPU memory is full, chunks are evicted in the background
  // after each batch so that this many are free for the next (the released code keeps 50 of 2
  // MiB). 0: eviction only on demand, in the fault path, as stock UVM.
  uint32_t reserve_chunks = 0;
  // memHarvester: chunks evicted from a harvesting GPU go to a yielding GPU's spare memory over
  // NVLink (the yielding GPUs in turn), are written back to host memory in the background, and
  // come back over NVLink on a fault. Needs multi_gpu.gpus of at least 2.
  bool harvest = false;
  // With harvest: GPUs 0 to harvesters - 1 harvest, the others yield (lend their spare memory).
  uint32_t harvesters = 1;
  // memHarvester's parallel fault handling (with harvest): a batch's pages from host memory are
  // split between this GPU's PCIe link and the yielding GPUs' (through a chunk of their memory,
  // then NVLink), so that several links carry them at once.
  bool parallel_fetch = false;
  // Spare memory each yielding GPU lends to each harvester at most, taken from its allocator a
  // chunk at a time; 0: as much as it has free.
  uint64_t harvest_bytes = 0;
  // memHarvester's multi-path prefetcher (with harvest): at each batch, the chunks this many
  // ahead in the faults' direction, `multi_path_stride` chunks apart, move in the background
  // (host memory's to a neighbour, a neighbour's to GPU 0). Its released code: 16 chunks of 2 MiB
  // at stride 2. 0: off.
  uint32_t multi_path_chunks = 0;
  uint32_t multi_path_stride = 2;

  uint64_t pages_per_chunk() const { return chunk_bytes / page_bytes; }
};

// ConfigError naming the key for a value out of range or a chunk that is not a power-of-two
// multiple of the page.
void parse(const ConfigReader& reader, UvmConfig& config);

}  // namespace ohmvp
