// memHarvester (ATC 2022) in the UVM driver: chunks evicted from GPU 0 go to the neighbour GPUs'
// lent memory over NVLink, are written back to host memory in the background, and come back over
// NVLink on a fault; its multi-path prefetcher moves chunks ahead of the faults (docs/uvm.md).
#include <algorithm>
#include <cstring>
#include <memory>

#include "modules/common/sim_time.h"
#include "modules/uvm/uvm_driver.h"
#include "modules/uvm/uvm_driver_internal.h"

namespace ohmvp {

void UvmDriver::join_fabric(NvlinkFabric& fabric, uint32_t port) {
  m_fabric = &fabric;
  m_port = port;
}

void UvmDriver::add_peer(gpu::Gpu& peer, uint32_t port, MemoryLender& lender, uint64_t limit,
                         PcieLink& pcie) {
  m_peers.push_back(std::make_unique<Peer>(*this, uint32_t(m_peers.size()), peer, port, lender,
                                           limit, m_config.chunk_bytes, pcie));
  lender.lend_to(*m_peers.back());
}

std::optional<uint32_t> UvmDriver::free_removable(uint32_t p, const std::vector<uint64_t>& keep) {
  ChunkPool& pool = m_peers[p]->pool;
  const auto removable = pool.victim([this, p, &keep](uint64_t b) {
    const ManagedSpace::Block* state = m_space.find_block(b);
    return (state != nullptr && state->harvested && state->harvested->peer == p &&
            (!state->harvested->written_back || state->moving)) ||
           std::find(keep.begin(), keep.end(), b) != keep.end();
  });
  if (!removable) return std::nullopt;
  const uint64_t owner = *pool.chunk(*removable).block;
  if (holds(owner, p, *removable)) m_space.block(owner).harvested.reset();
  pool.release(*removable);
  return removable;
}

MemoryBorrower::Reclaim UvmDriver::reclaim(uint32_t p, bool removable) {
  Peer& peer = *m_peers[p];
  std::optional<uint32_t> chunk;
  if (peer.pool.free_count() > 0)
    chunk = peer.pool.free_chunks().back();
  else if (removable)
    chunk = free_removable(p, {});
  if (!chunk)
    return peer.pool.held() == 0 ? MemoryBorrower::Reclaim::holds_none
                                 : MemoryBorrower::Reclaim::wait;
  const uint64_t address = peer.pool.chunk(*chunk).address;
  peer.pool.withdraw(*chunk);
  peer.lender.give_back(address);
  m_stats->chunks_reclaimed.inc();
  return MemoryBorrower::Reclaim::gave_back;
}

void UvmDriver::notify_reclaimable() {
  std::vector<std::function<void()>> waiting;
  waiting.swap(m_reclaimable_waiters);
  for (auto& then : waiting) then();
}

std::optional<std::pair<uint32_t, uint32_t>> UvmDriver::harvest_chunk(
    uint64_t block, const std::vector<uint64_t>& keep) {
  for (size_t tried = 0; tried < m_peers.size(); ++tried) {
    const uint32_t p = uint32_t((m_next_peer + tried) % m_peers.size());
    ChunkPool& pool = m_peers[p]->pool;
    std::optional<uint32_t> chunk = m_peers[p]->take_free(block);
    if (!chunk) {
      // A block written back is removable: its chunk is reclaimed without a copy.
      if (!free_removable(p, keep)) continue;
      chunk = pool.take_free(block);
    }
    m_next_peer = uint32_t((p + 1) % m_peers.size());
    return std::make_pair(p, *chunk);
  }
  return std::nullopt;
}

void UvmDriver::harvest(uint64_t block, uint32_t chunk, uint32_t peer, uint32_t peer_chunk,
                        const std::shared_ptr<Gate>& gate, std::function<void()> done) {
  ManagedSpace::Block& state = m_space.block(block);
  ManagedSpace::Harvested harvested;
  harvested.peer = peer;
  harvested.chunk = peer_chunk;
  harvested.serial = ++m_harvests;
  m_gpu.invalidate_translations(m_space.block_address(block), m_space.block_bytes());
  harvested.pages = state.unmap();
  state.harvested = harvested;
  m_stats->chunks_harvested.inc();
  Peer& target = *m_peers[peer];
  const auto runs = runs_of(harvested.pages);
  const auto landed = after_all(runs.size(), [this, block, done = std::move(done)] {
    write_back(block);
    done();
  });
  const auto open = std::make_shared<Gate>();  // the neighbour's chunk is free
  for (const auto& [first, count] : runs) {
    const uint64_t offset = first * m_config.page_bytes;
    ++gate->closed_by;
    frames_over_nvlink(
        m_gpu.copy_engine(), m_port, m_pool.chunk(chunk).address + offset,
        target.gpu->copy_engine(), target.port, target.pool.chunk(peer_chunk).address + offset,
        count * m_config.page_bytes, [gate] { gate->open_one(); }, open, landed);
  }
}

void UvmDriver::write_back(uint64_t block) {
  const ManagedSpace::Harvested harvested = *m_space.block(block).harvested;
  const auto runs = runs_of(harvested.pages);
  ++m_background;
  const auto arrived = after_all(runs.size(), [this, block, harvested] {
    if (holds_copy(block, harvested.serial)) {
      m_space.block(block).harvested->written_back = true;
      m_stats->harvest_write_backs.inc();
    }
    background_done();
  });
  // A block fetched back or brought to the host meanwhile has newer bytes elsewhere.
  for (const auto& [first, count] : runs)
    peer_to_host(block, harvested, first, count, true, arrived);
}

void UvmDriver::peer_to_host(uint64_t block, const ManagedSpace::Harvested& harvested,
                             uint64_t first, uint64_t count, bool only_if_held,
                             std::function<void()> then) {
  Peer& peer = *m_peers[harvested.peer];
  const uint32_t p = harvested.peer, chunk = harvested.chunk;
  peer.pool.begin_access(chunk);
  frames_to_host(
      peer.gpu->copy_engine(), peer.pcie,
      peer.pool.chunk(chunk).address + first * m_config.page_bytes, block, first,
      count * m_config.page_bytes,
      [this, &peer, p, chunk] {
        peer.pool.end_access(chunk);
        release_if_unused(p, chunk);
      },
      [this, block, serial = harvested.serial, only_if_held] {
        return !only_if_held || holds_copy(block, serial);
      },
      std::move(then));
}

void UvmDriver::fetch_from_peer(uint64_t block, uint64_t first, uint64_t count, uint32_t peer,
                                uint32_t peer_chunk, const std::shared_ptr<Gate>& gate,
                                std::function<void()> then) {
  Peer& source = *m_peers[peer];
  const uint64_t offset = first * m_config.page_bytes;
  m_stats->pages_to_gpu.inc(count);
  m_stats->pages_from_peer.inc(count);
  source.pool.begin_access(peer_chunk);
  frames_over_nvlink(
      source.gpu->copy_engine(), source.port, source.pool.chunk(peer_chunk).address + offset,
      m_gpu.copy_engine(), m_port, m_pool.chunk(*m_space.block(block).chunk).address + offset,
      count * m_config.page_bytes,
      [this, &source, peer, peer_chunk] {
        source.pool.end_access(peer_chunk);
        release_if_unused(peer, peer_chunk);
      },
      gate, std::move(then));
}

uint32_t UvmDriver::fetch_path(uint64_t block, uint64_t bytes, std::vector<uint64_t>& load,
                               std::vector<std::optional<uint32_t>>& staging) {
  uint32_t best = 0;
  for (uint32_t path = 1; path < load.size(); ++path) {
    if (load[path] >= load[best]) continue;
    std::optional<uint32_t>& chunk = staging[path - 1];
    if (!chunk) chunk = m_peers[path - 1]->take_free(block);
    if (chunk) best = path;  // a yielding GPU without a free chunk is no path
  }
  load[best] += bytes;
  return best;
}

void UvmDriver::relay_in(uint64_t block, uint64_t first, uint64_t count, uint32_t p,
                         uint32_t staging, const std::shared_ptr<Gate>& gate,
                         std::function<void()> then) {
  Peer& peer = *m_peers[p];
  const uint64_t offset = first * m_config.page_bytes;
  const uint64_t bytes = count * m_config.page_bytes;
  m_stats->pages_to_gpu.inc(count);
  m_stats->pages_relayed.inc(count);
  m_stats->bytes_to_gpu.inc(bytes);
  peer.pool.begin_access(staging);  // no victim while the pages pass through
  const uint64_t frame = peer.pool.chunk(staging).address + offset;
  host_to_frames(
      peer.gpu->copy_engine(), peer.pcie, block, first, bytes, frame, std::make_shared<Gate>(),
      [this, &peer, p, staging, block, frame, offset, bytes, gate, then = std::move(then)] {
        frames_over_nvlink(
            peer.gpu->copy_engine(), peer.port, frame, m_gpu.copy_engine(), m_port,
            m_pool.chunk(*m_space.block(block).chunk).address + offset, bytes,
            [this, &peer, p, staging] {
              peer.pool.end_access(staging);
              release_if_unused(p, staging);
            },
            gate, then);
      });
}

void UvmDriver::multi_path_prefetch(uint64_t first, uint64_t last) {
  if (m_config.multi_path_chunks == 0 || m_peers.empty()) return;
  const bool forward = first >= m_previous_first;
  m_previous_first = first;
  for (uint64_t i = 1; i <= m_config.multi_path_chunks; ++i) {
    const uint64_t step = i * m_config.multi_path_stride;
    if (!forward && step > first) break;
    const uint64_t block = forward ? last + step : first - step;
    if (m_space.find(m_space.block_address(block)) == nullptr) continue;
    const ManagedSpace::Block& state = m_space.block(block);
    // A GPU request on its way to the block's pages in host memory would land behind the copy.
    if (state.chunk || state.moving || state.remote_in_flight > 0) continue;
    if (state.harvested)
      prefetch_from_peer(block);
    else if (m_config.harvesters <= m_peers.size())
      prefetch_to_peer(block);
    else  // the yielding GPUs' PCIe links would be contended: memHarvester prefetches locally
      prefetch_from_host(block);
  }
}

void UvmDriver::prefetch_to_peer(uint64_t block) {
  const auto target = harvest_chunk(block, {});
  if (!target) return;
  ManagedSpace::Block& state = m_space.block(block);
  ManagedSpace::Harvested harvested;
  harvested.peer = target->first;
  harvested.chunk = target->second;
  harvested.serial = ++m_harvests;
  harvested.pages = m_space.allocated_pages(block);
  harvested.written_back = true;  // host memory keeps them: the chunk is removable
  state.harvested = harvested;
  state.moving = true;
  ++m_background;
  m_stats->chunks_prefetched_to_peer.inc();
  Peer& peer = *m_peers[harvested.peer];
  const auto runs = runs_of(harvested.pages);
  const auto arrived = after_all(runs.size(), [this, block] {
    m_space.block(block).moving = false;
    background_done();
  });
  const auto open = std::make_shared<Gate>();
  for (const auto& [first, count] : runs)
    host_to_frames(peer.gpu->copy_engine(), peer.pcie, block, first, count * m_config.page_bytes,
                   peer.pool.chunk(harvested.chunk).address + first * m_config.page_bytes, open,
                   arrived);
}

void UvmDriver::prefetch_from_host(uint64_t block) {
  ManagedSpace::Block& state = m_space.block(block);
  std::vector<bool> pages = m_space.allocated_pages(block);
  for (size_t p = 0; p < pages.size(); ++p) pages[p] = pages[p] && !state.prefer_host[p];
  const auto runs = runs_of(pages);
  if (runs.empty()) return;  // every page stays in host memory, as preferred
  const std::optional<uint32_t> chunk = free_chunk(block);
  if (!chunk) return;
  duplicate_read_mostly(state, pages);
  m_stats->chunks_prefetched_from_host.inc();
  const auto arrived = move_here(block, *chunk, pages, runs.size());
  const auto open = std::make_shared<Gate>();
  for (const auto& [first, count] : runs) migrate_in(block, first, count, open, arrived);
}

std::function<void()> UvmDriver::move_here(uint64_t block, uint32_t chunk, std::vector<bool> pages,
                                           size_t runs) {
  ManagedSpace::Block& state = m_space.block(block);
  state.chunk = chunk;
  state.moving = true;
  ++m_background;
  return after_all(runs, [this, block, pages = std::move(pages)] {
    ManagedSpace::Block& state = m_space.block(block);
    state.map(pages);
    state.moving = false;
    background_done();
  });
}

void UvmDriver::prefetch_from_peer(uint64_t block) {
  const std::optional<uint32_t> chunk = free_chunk(block);
  if (!chunk) return;
  ManagedSpace::Block& state = m_space.block(block);
  const ManagedSpace::Harvested harvested = *state.harvested;
  state.harvested.reset();
  m_stats->chunks_prefetched_from_peer.inc();
  const auto runs = runs_of(harvested.pages);
  const auto arrived = move_here(block, *chunk, harvested.pages, runs.size());
  const auto open = std::make_shared<Gate>();
  for (const auto& [first, count] : runs)
    fetch_from_peer(block, first, count, harvested.peer, harvested.chunk, open, arrived);
  release_if_unused(harvested.peer, harvested.chunk);
}

bool UvmDriver::holds(uint64_t block, uint32_t peer, uint32_t peer_chunk) const {
  const ManagedSpace::Block* state = m_space.find_block(block);
  return state != nullptr && state->harvested && state->harvested->peer == peer &&
         state->harvested->chunk == peer_chunk;
}

bool UvmDriver::holds_copy(uint64_t block, uint64_t serial) const {
  const ManagedSpace::Block* state = m_space.find_block(block);
  return state != nullptr && state->harvested && state->harvested->serial == serial;
}

void UvmDriver::release_if_unused(uint32_t peer, uint32_t peer_chunk) {
  ChunkPool& pool = m_peers[peer]->pool;
  const ChunkPool::Chunk& chunk = pool.chunk(peer_chunk);
  if (!chunk.block || chunk.in_flight > 0 || holds(*chunk.block, peer, peer_chunk)) return;
  pool.release(peer_chunk);
  notify_reclaimable();
}

void UvmDriver::host_page_written(uint64_t block, uint64_t page) {
  ManagedSpace::Block& state = m_space.block(block);
  if (!state.harvested || !state.harvested->pages[page]) return;
  // The neighbour's copy of the page is older than host memory's now: a fault takes it from there.
  state.harvested->pages[page] = false;
  if (std::none_of(state.harvested->pages.begin(), state.harvested->pages.end(),
                   [](bool held) { return held; }))
    drop_harvest(block);
}

void UvmDriver::drop_harvest(uint64_t block) {
  ManagedSpace::Block& state = m_space.block(block);
  const ManagedSpace::Harvested harvested = *state.harvested;
  state.harvested.reset();
  release_if_unused(harvested.peer, harvested.chunk);
}

}  // namespace ohmvp
