#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <systemc>
#include <vector>

#include "modules/common/stats.h"
#include "modules/common/timed_actions.h"
#include "modules/common/trace_signal.h"
#include "modules/common/vcd_writer.h"
#include "modules/gpu/gpu.h"
#include "modules/gpu/managed_translation.h"
#include "modules/interconnect/nvlink_fabric.h"
#include "modules/interconnect/pcie_link.h"
#include "modules/uvm/chunk_pool.h"
#include "modules/uvm/managed_advice.h"
#include "modules/uvm/managed_space.h"
#include "modules/uvm/memory_lender.h"
#include "modules/uvm/tree_prefetcher.h"
#include "modules/uvm/uvm_config.h"

namespace ohmvp {

// The unified-memory driver of one GPU, after the NVIDIA UVM driver (PARAMETERS.md). Managed
// pages start in host memory. An SM's request to a page that is not on the GPU is a far fault:
// the request waits in the fault buffer. The first fault opens a batch, which
// `fault_service_ns` later takes up to `fault_batch_size` faults, coalesces them by VA block
// and services the blocks in address order: each gets a chunk of GPU memory (a free one, a new
// one while GPU memory and `gpu_memory_bytes` allow, else the least recently allocated chunk is
// evicted: its pages go back to host memory), and its faulted pages, with those the tree
// prefetcher adds, cross PCIe and are written into the chunk by the copy engine. When the
// batch's last copy is done its pages are mapped and its faults replayed; faults that came
// meanwhile open the next batch. A block that gets no chunk (every chunk has accesses in flight
// or is this batch's) keeps its faults for the next batch. The bytes move with the pages: host
// memory holds a page's bytes while it is there, its frame while it is on the GPU. With
// neighbour GPUs (add_peer, uvm.harvest) evicted chunks go to their memory instead
// (memHarvester, uvm_harvest.cpp); with uvm.reserve_chunks, chunks are evicted ahead of need.
class UvmDriver : public sc_core::sc_module, public gpu::ManagedTranslation {
 public:
  // Where chunks of GPU memory come from: `allocate` gives one's device address, or none when
  // device memory has no room for it; and where one goes back to (its device address).
  using ChunkSource = std::function<std::optional<uint64_t>(uint64_t bytes)>;
  using ChunkSink = std::function<void(uint64_t address)>;

  UvmDriver(sc_core::sc_module_name name, const UvmConfig& config, gpu::Gpu& gpu, PcieLink& pcie,
            ChunkSource chunks, ChunkSink give_back, StatsRegistry& stats, VcdWriter* vcd);
  ~UvmDriver() override;
  SC_HAS_PROCESS(UvmDriver);

  // memHarvester (uvm.harvest): this driver's GPU is at port `port` of `fabric`.
  void join_fabric(NvlinkFabric& fabric, uint32_t port);
  // Neighbour GPU `peer`, at NVLink port `port`, lends up to `limit` bytes of its memory (0: as
  // much as `lender` has room for), chunk by chunk, and takes chunks back when its own
  // allocations need them; its own PCIe link (`pcie`) carries the background write-backs of the
  // chunks it holds. Call join_fabric first.
  void add_peer(gpu::Gpu& peer, uint32_t port, MemoryLender& lender, uint64_t limit,
                PcieLink& pcie);

  // cudaMallocManaged: zero-filled, in host memory. OutOfDeviceMemory when the window is full.
  uint64_t allocate(uint64_t bytes);
  // cudaFree of a managed allocation: its chunks stay with the driver, free. std::invalid_argument
  // for an address that no allocation starts at.
  void free(uint64_t address);
  bool in_window(uint64_t address) const { return m_space.in_window(address); }
  const UvmConfig& config() const { return m_config; }
  bool mapped(uint64_t address, uint64_t bytes) const {
    return m_space.find(address, bytes) != nullptr;
  }

  // Calls `done` once no batch is open and no pre-eviction or write-back is in flight (at once if
  // so): what a host access, a free or a reset waits for, since the pages they move are in
  // neither place until they arrive (with replay_policy block a kernel may end before its last
  // batch does).
  void when_settled(std::function<void()> done);
  // Brings the pages of [address, address + bytes) that are on the GPU back to host memory, as a
  // host access does (copy-engine reads, then PCIe), and calls `done` when they are there. Call
  // once settled. Duplicated (read-mostly) pages need no copy: a read leaves them on the GPU, a
  // write (`for_write`) unmaps them there.
  void migrate_to_host(uint64_t address, uint64_t bytes, bool for_write,
                       std::function<void()> done);
  // cudaMemAdvise on the pages of [address, address + bytes) (docs/uvm.md). Read-mostly: a page
  // brought from host memory keeps its host copy (read duplication): evicting it or a host read
  // moves no bytes, and the first write to it from the GPU is a far fault that makes the GPU's
  // copy the only one; unsetting it keeps only the GPU's copies. Accessed-by the GPU: a page in
  // host memory is mapped there for the GPU, which reads and writes it over PCIe without a fault
  // or a migration. Preferred location host memory: a fault on a page in host memory maps it
  // there instead of migrating it. An atomic on a page mapped in host memory migrates it (PCIe
  // carries no atomics here). Unsetting either drops the mappings it made.
  void advise(uint64_t address, uint64_t bytes, ManagedAdvice advice);
  // cudaMemPrefetchAsync to the GPU: moves the pages of [address, address + bytes) that are not
  // on the GPU here, as a batch of no faults (no service time) does; `done` runs when they are in
  // (the batch's end; when_settled says so too, once nothing else is open). Blocks that get no
  // chunk (every chunk in flight or the prefetch's own) stay where they are. Faults that come
  // meanwhile wait for the next batch. Call once settled.
  void prefetch(uint64_t address, uint64_t bytes, std::function<void()> done = nullptr);
  // No batch is open and no pre-eviction or write-back is in flight (when_settled's condition).
  bool settled() const { return m_background == 0 && !m_batch_open; }
  // Faults wait for their batch, or pages or remote accesses cross a link: the kernels that wait
  // on them are not stalled.
  bool working() const { return !settled() || !m_timed.idle(); }
  // Host memory's bytes; call after migrate_to_host of the range.
  void host_read(uint64_t address, void* data, uint64_t bytes) const;
  void host_write(uint64_t address, const void* data, uint64_t bytes);

  // Forgets every allocation and chunk (the runtime's device memory starts afresh); lent chunks go
  // back to their neighbours.
  void reset();

  // What this GPU's cudaMalloc asks when device memory has no room, as the NVIDIA driver's PMA
  // evicts UVM's chunks for other allocations: a free chunk goes back to device memory at once;
  // asked for a removable one, the first chunk in eviction order that nothing uses is evicted
  // (its pages go to host memory, or a neighbour with harvesting) and goes back once they are out.
  MemoryBorrower& memory_for_malloc();

  uint64_t window_base() const override { return ManagedSpace::window_base; }
  uint64_t window_bytes() const override { return ManagedSpace::window_bytes; }
  uint64_t page_bytes() const override { return m_config.page_bytes; }
  Translation translate(uint64_t address, gpu::Sm& sm, gpu::LdstUnit::Outbound& request) override;
  void answered(uint64_t frame) override;
  void read(uint64_t address, void* data, uint64_t bytes) override;

 private:
  struct Fault {
    uint64_t address;
    gpu::Sm* sm;
    gpu::LdstUnit::Outbound* request;
    uint64_t time_ps;
    bool write;   // a store or an atomic
    bool atomic;  // one PCIe cannot carry: the page must come to the GPU
  };
  struct Stats;
  struct Gate;
  struct Peer;
  struct Serving;
  struct ForMalloc;

  void service_batch();  // the open batch's service time is over
  // Serves `block` in the open batch: gets it a chunk, then moves the pages `wanted` names (a
  // prefetch), or else those its `faults` need with the tree prefetcher's, from the neighbour
  // that holds it or host memory; its faults are replayed once they are in. False when it
  // cannot be served now (its bytes are moving, or no chunk can be had).
  bool serve_block(uint64_t block, const std::vector<Fault>& faults,
                   const std::vector<bool>* wanted, const std::vector<uint64_t>& batch_blocks,
                   std::vector<uint64_t>& path_load);
  // With replay_policy block: finishes the batch's blocks that had nothing to move.
  void finish_unmoved_blocks();
  // A free chunk for `block`, or a new one while GPU memory and gpu_memory_bytes allow; none
  // else.
  std::optional<uint32_t> free_chunk(uint64_t block);
  // A chunk for `block`, or none when none can be had now; `keep`: the batch's blocks. An
  // evicted chunk's frames are written only after `gate` opens (their old pages are read out).
  std::optional<uint32_t> obtain_chunk(uint64_t block, const std::vector<uint64_t>& keep,
                                       const std::shared_ptr<Gate>& gate);
  // Unmaps the block on `chunk` and sends its resident pages to a neighbour (harvest; not into a
  // chunk holding one of `keep`'s blocks) or to host memory: `gate` opens once they are read out
  // of the chunk's frames, `done` runs when they have arrived. The caller frees the chunk.
  void evict(uint32_t chunk, const std::vector<uint64_t>& keep, const std::shared_ptr<Gate>& gate,
             std::function<void()> done);
  // memHarvester's pre-eviction: once GPU memory is full, evicts least recently allocated chunks
  // (not `keep`'s blocks, which the batch just mapped) in the background until
  // uvm.reserve_chunks are free or on their way to being so.
  void keep_reserve(const std::vector<uint64_t>& keep);
  // One background operation ended.
  void background_done();
  // Runs the waiters of when_settled if nothing is open or in flight.
  void check_settled();
  // Whether gpu_memory_bytes allows one chunk more.
  bool within_limit() const;
  // The first chunk in eviction order with nothing in flight whose block is neither moving nor
  // one of `keep`.
  std::optional<uint32_t> victim(const std::vector<uint64_t>& keep);
  // Opens the next batch fault_service_ns from now.
  void schedule_batch();
  // The three ways bytes move, a run of pages at a time. Frames of `engine`'s GPU to host memory
  // over `link`: `read` runs once the frames are read, `then` once the bytes have arrived, which
  // land in the block's host memory only if `lands` says so then.
  void frames_to_host(gpu::CopyEngine& engine, PcieLink& link, uint64_t frame, uint64_t block,
                      uint64_t first, uint64_t bytes, std::function<void()> read,
                      std::function<bool()> lands, std::function<void()> then);
  // The block's host memory to frames of `engine`'s GPU over `link`, written once `gate` is open.
  void host_to_frames(gpu::CopyEngine& engine, PcieLink& link, uint64_t block, uint64_t first,
                      uint64_t bytes, uint64_t frame, const std::shared_ptr<Gate>& gate,
                      std::function<void()> then);
  // Frames of one GPU to another's over NVLink: `read` runs once the source frames are read; the
  // bytes are written once `gate` is open.
  void frames_over_nvlink(gpu::CopyEngine& from, uint32_t from_port, uint64_t from_frame,
                          gpu::CopyEngine& to, uint32_t to_port, uint64_t to_frame, uint64_t bytes,
                          std::function<void()> read, const std::shared_ptr<Gate>& gate,
                          std::function<void()> then);
  // Moves pages [first, first + count) of `block` to the GPU, written into its chunk once
  // `gate` is open; `then` runs when they are written.
  void migrate_in(uint64_t block, uint64_t first, uint64_t count, const std::shared_ptr<Gate>& gate,
                  std::function<void()> then);
  // memHarvester's parallel fetch: the path for `bytes` more of a batch's host pages, the one with
  // the fewest bytes so far in `load` (0: this GPU's PCIe link; p + 1: yielding GPU p's, through
  // a chunk of its memory for `block`, which `staging` gets); counts them in `load`.
  uint32_t fetch_path(uint64_t block, uint64_t bytes, std::vector<uint64_t>& load,
                      std::vector<std::optional<uint32_t>>& staging);
  // Pages [first, first + count) of `block` from host memory over yielding GPU `peer`'s PCIe
  // link into its chunk `staging`, then over NVLink into the block's chunk here, written once
  // `gate` is open; `then` runs when they are written.
  void relay_in(uint64_t block, uint64_t first, uint64_t count, uint32_t peer, uint32_t staging,
                const std::shared_ptr<Gate>& gate, std::function<void()> then);
  // Moves pages [first, first + count) of `block` (on chunk `chunk`) to host memory; `read`
  // runs when the frames have been read, `then` when the bytes are in host memory.
  void migrate_out(uint64_t block, uint32_t chunk, uint64_t first, uint64_t count,
                   std::function<void()> read, std::function<void()> then);
  // memHarvester: a neighbour and a chunk of its memory for evicted `block` (a free chunk, or one
  // whose block is written back, reclaimed without a copy), the neighbours in turn; none when
  // every neighbour's lent memory holds blocks not yet written back.
  // `keep`: blocks whose neighbour chunks are spared (the batch is about to fetch them).
  std::optional<std::pair<uint32_t, uint32_t>> harvest_chunk(uint64_t block,
                                                             const std::vector<uint64_t>& keep);
  // Moves the resident pages of `block` from GPU 0's `chunk` to the neighbour's chunk over
  // NVLink; `gate` opens as GPU 0's frames are read; a background write-back to host follows.
  void harvest(uint64_t block, uint32_t chunk, uint32_t peer, uint32_t peer_chunk,
               const std::shared_ptr<Gate>& gate, std::function<void()> done);
  // The background write-back of a harvested block to host memory; it becomes removable.
  void write_back(uint64_t block);
  // Pages [first, first + count) of `harvested` from the neighbour to host memory (copy-engine
  // reads there, its PCIe link); with `only_if_held`, the bytes land only if the block still lies
  // there when they arrive. `then` runs when they have arrived.
  void peer_to_host(uint64_t block, const ManagedSpace::Harvested& harvested, uint64_t first,
                    uint64_t count, bool only_if_held, std::function<void()> then);
  // Brings pages [first, first + count) of `block` from the neighbour's chunk to GPU 0.
  void fetch_from_peer(uint64_t block, uint64_t first, uint64_t count, uint32_t peer,
                       uint32_t peer_chunk, const std::shared_ptr<Gate>& gate,
                       std::function<void()> then);
  // memHarvester's multi-path prefetcher, at a batch whose faults span blocks `first` to
  // `last`: along the faults' direction (against the previous batch's), the blocks
  // multi_path_stride apart up to multi_path_chunks of them ahead move in the background, those in
  // host memory to a neighbour (to this GPU when harvesting GPUs outnumber yielding ones), those
  // on a neighbour to this GPU; a move to this GPU takes a free chunk only.
  void multi_path_prefetch(uint64_t first, uint64_t last);
  void prefetch_to_peer(uint64_t block);
  void prefetch_from_peer(uint64_t block);
  // Host memory to a free chunk of this GPU (the prefetcher's path when harvesting GPUs
  // outnumber yielding ones).
  void prefetch_from_host(uint64_t block);
  // Starts a background move of `block`'s `pages` into this GPU's `chunk`, in `runs` runs: returns
  // what each run calls as it arrives; after the last, the pages are mapped and the move ends.
  std::function<void()> move_here(uint64_t block, uint32_t chunk, std::vector<bool> pages,
                                  size_t runs);
  // Read-mostly pages among `from_host`, about to come from host memory, keep their host copy.
  void duplicate_read_mostly(ManagedSpace::Block& block, const std::vector<bool>& from_host);
  // A GPU store landed in host memory on `page` of `block`: a neighbour's copy of it is stale.
  void host_page_written(uint64_t block, uint64_t page);
  // A chunk of neighbour `peer` freed of a block written back to host memory (removable: freed
  // without a copy), least recently allocated first; none when it holds no such chunk.
  // `keep`'s blocks are spared.
  std::optional<uint32_t> free_removable(uint32_t peer, const std::vector<uint64_t>& keep);
  // Neighbour `peer` takes a lent chunk back (MemoryBorrower::reclaim).
  MemoryBorrower::Reclaim reclaim(uint32_t peer, bool removable);
  // This GPU's cudaMalloc takes a chunk back (memory_for_malloc).
  MemoryBorrower::Reclaim give_to_malloc(bool evict);
  // Gives `chunk`, free, back to device memory for cudaMalloc.
  void withdraw_for_malloc(uint32_t chunk);
  // The blocks the open batch serves or has mapped: no eviction may take their chunks.
  std::vector<uint64_t> batch_blocks() const;
  // Whether page `page` of `block` (number `number`) is reached in host memory now: not resident,
  // mapped there (accessed-by, or a host-preferred page's fault), its bytes there, and no batch
  // moving its block.
  Translation translate_unpinned(uint64_t address, gpu::Sm& sm, gpu::LdstUnit::Outbound& request);
  bool mapped_in_host(const ManagedSpace::Block& block, uint64_t number, uint64_t page) const;
  // Reads or writes `request`'s sectors in host memory over PCIe and answers it through the SM.
  void serve_remote(uint64_t address, gpu::Sm& sm, gpu::LdstUnit::Outbound& request, bool write);
  // Tells the neighbours waiting to take memory back to ask again.
  void notify_reclaimable();
  // Whether `block` still lies in the neighbour's chunk.
  bool holds(uint64_t block, uint32_t peer, uint32_t peer_chunk) const;
  // Whether the block's copy on a neighbour is still the one numbered `serial` (not one made
  // there since).
  bool holds_copy(uint64_t block, uint64_t serial) const;
  // Frees the neighbour's chunk once no block lies there and nothing reads it.
  void release_if_unused(uint32_t peer, uint32_t peer_chunk);
  // Forgets where `block` was harvested (host memory has, or will get, its bytes).
  void drop_harvest(uint64_t block);
  // Maps the block's pages and replays its faults.
  void finish_block(Serving& serving);
  void end_access(uint32_t chunk);
  void end_batch();
  void trace_faults();

  UvmConfig m_config;
  gpu::Gpu& m_gpu;
  PcieLink& m_pcie;
  ChunkSource m_chunks;
  ChunkSink m_give_back;
  ManagedSpace m_space;
  ChunkPool m_pool;
  TreePrefetcher m_prefetcher;
  std::deque<Fault> m_buffer;  // faults not yet taken by a batch, in arrival order
  std::vector<std::shared_ptr<Serving>> m_serving;  // the blocks the batch serves
  std::vector<uint64_t> m_batch_mapped;             // blocks the batch has mapped
  size_t m_faults_in_service = 0;
  bool m_batch_open = false;
  uint32_t m_batch_moves = 0;  // the serving batch's copies not yet done
  std::function<void()> m_batch_done;  // a prefetch's: runs at its batch's end
  std::vector<std::function<void()>> m_when_settled;
  TimedActions m_timed;  // arrivals over PCIe and NVLink
  sc_core::sc_event m_batch_event;
  std::vector<std::unique_ptr<Peer>> m_peers;
  std::vector<std::function<void()>> m_reclaimable_waiters;
  // A replayed fault's chunk, held from the replay until the request is translated again, so that
  // no batch evicts the page it waited for before it gets there (progress however short the
  // service time).
  std::map<const gpu::LdstUnit::Outbound*, uint32_t> m_replay_pins;
  NvlinkFabric* m_fabric = nullptr;
  uint32_t m_port = 0;            // this GPU's NVLink port
  uint32_t m_next_peer = 0;       // the neighbour the next harvest tries first
  uint64_t m_previous_first = 0;  // the first block of the previous batch's faults
  uint64_t m_harvests = 0;        // copies made on neighbours so far (Harvested::serial)
  uint32_t m_leaving = 0;         // chunks being pre-evicted
  uint32_t m_background = 0;      // pre-evictions, write-backs and evictions for cudaMalloc
  bool m_evicting_for_malloc = false;
  bool m_memory_full = false;     // device memory refused a chunk
  std::unique_ptr<Stats> m_stats;
  std::unique_ptr<ForMalloc> m_for_malloc;
  TraceSignal m_trace_faults;
};

}  // namespace ohmvp
