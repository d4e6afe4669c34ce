#include "modules/uvm/uvm_driver.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "modules/common/errors.h"
#include "modules/common/sim_time.h"
#include "modules/uvm/uvm_driver_internal.h"

namespace ohmvp {

struct UvmDriver::Serving {
  uint64_t block = 0;
  std::vector<bool> pages;  // to map
  std::vector<Fault> faults;
  uint32_t moves_left = 0;  // copies into the block not yet done
  bool finished = false;
};

std::vector<std::pair<uint64_t, uint64_t>> runs_of(const std::vector<bool>& pages) {
  std::vector<std::pair<uint64_t, uint64_t>> runs;
  for (uint64_t p = 0; p < pages.size();) {
    if (!pages[p]) {
      ++p;
      continue;
    }
    uint64_t end = p;
    while (end < pages.size() && pages[end]) ++end;
    runs.emplace_back(p, end - p);
    p = end;
  }
  return runs;
}

std::function<void()> after_all(size_t count, std::function<void()> then) {
  auto left = std::make_shared<size_t>(count);
  return [left, then = std::move(then)] {
    if (--*left == 0) then();
  };
}

UvmDriver::UvmDriver(sc_core::sc_module_name name, const UvmConfig& config, gpu::Gpu& gpu,
                     PcieLink& pcie, ChunkSource chunks, ChunkSink give_back, StatsRegistry& stats,
                     VcdWriter* vcd)
    : sc_module(name),
      m_config(config),
      m_gpu(gpu),
      m_pcie(pcie),
      m_chunks(std::move(chunks)),
      m_give_back(std::move(give_back)),
      m_space(config.page_bytes, config.chunk_bytes),
      m_pool(config.chunk_bytes),
      m_prefetcher(config.prefetch_threshold_percent),
      m_timed("timed"),
      m_stats(std::make_unique<Stats>(stats, this->name())),
      m_for_malloc(std::make_unique<ForMalloc>(*this)) {
  const uint32_t line = gpu.config().l2.line_bytes;
  if (config.page_bytes % line != 0)
    throw ConfigError("uvm.page_bytes: is " + std::to_string(config.page_bytes) +
                      "; expected a multiple of the L2 line (" + std::to_string(line) +
                      " bytes, gpu.l2.line_bytes)");
  m_trace_faults.attach(vcd, this->name(), "faults_pending", 16);
  gpu.set_translation(this);
  SC_METHOD(service_batch);
  sensitive << m_batch_event;
  dont_initialize();
}

UvmDriver::~UvmDriver() = default;

uint64_t UvmDriver::allocate(uint64_t bytes) {
  return m_space.allocate(bytes);
}

void UvmDriver::advise(uint64_t address, uint64_t bytes, ManagedAdvice advice) {
  for (uint64_t block : m_space.blocks_of(address, bytes)) {
    ManagedSpace::Block& state = m_space.block(block);
    const std::vector<bool> pages = m_space.pages_overlapping(block, address, bytes);
    for (size_t p = 0; p < pages.size(); ++p) {
      if (!pages[p]) continue;
      switch (advice) {
        case ManagedAdvice::set_read_mostly:
        case ManagedAdvice::unset_read_mostly:
          state.read_mostly[p] = advice == ManagedAdvice::set_read_mostly;
          if (!state.read_mostly[p]) state.duplicated[p] = false;  // the GPU's copy is kept
          break;
        case ManagedAdvice::set_preferred_location_host:
        case ManagedAdvice::unset_preferred_location:
          state.prefer_host[p] = advice == ManagedAdvice::set_preferred_location_host;
          if (!state.prefer_host[p]) state.remote_mapped[p] = false;
          break;
        case ManagedAdvice::set_accessed_by:
        case ManagedAdvice::unset_accessed_by:
          state.accessed_by[p] = advice == ManagedAdvice::set_accessed_by;
          break;
      }
    }
  }
}

bool UvmDriver::mapped_in_host(const ManagedSpace::Block& block, uint64_t number,
                               uint64_t page) const {
  if (block.resident[page] || !(block.accessed_by[page] || block.remote_mapped[page]) ||
      block.moving || block.wanted_here)
    return false;
  if (block.harvested && block.harvested->pages[page] && !block.harvested->written_back)
    return false;  // its bytes are on a neighbour: a fault brings them
  for (const auto& serving : m_serving)
    if (serving->block == number) return false;  // the batch may be moving it
  return true;
}

void UvmDriver::serve_remote(uint64_t address, gpu::Sm& sm, gpu::LdstUnit::Outbound& request,
                             bool write) {
  const uint32_t sector = m_gpu.config().l2.sector_bytes;
  const uint32_t sectors = m_gpu.config().l2.line_bytes / sector;
  const uint32_t mask = request.extension.sector_mask;
  uint64_t bytes = 0;
  uint32_t runs = 0;  // contiguous runs of sectors: one PCIe request each
  for (uint32_t s = 0; s < sectors; ++s) {
    bytes += (mask >> s & 1u) * sector;
    runs += (mask >> s & 1u) != 0 && (s == 0 || (mask >> (s - 1) & 1u) == 0);
  }
  const uint64_t done = write ? m_pcie.store(kernel_now_ps(), bytes, runs)
                              : m_pcie.load(kernel_now_ps(), bytes, runs);
  m_stats->remote_accesses.inc();
  m_stats->remote_bytes.inc(bytes);
  ++m_space.block(m_space.block_number(address)).remote_in_flight;
  m_timed.at(done, [this, address, &sm, &request, write, sector, sectors, mask] {
    --m_space.block(m_space.block_number(address)).remote_in_flight;
    uint8_t* host =
        m_space.host_pages(m_space.block_number(address), m_space.page_in_block(address)) +
        address % m_config.page_bytes;
    uint8_t* data = request.get_data_ptr();
    const uint8_t* enables = request.get_byte_enable_ptr();
    for (uint32_t s = 0; s < sectors; ++s) {
      if ((mask >> s & 1u) == 0) continue;
      for (uint32_t i = s * sector; i < (s + 1) * sector; ++i) {
        if (!write)
          data[i] = host[i];
        else if (enables == nullptr || enables[i] != 0)
          host[i] = data[i];
      }
    }
    if (write) host_page_written(m_space.block_number(address), m_space.page_in_block(address));
    request.set_response_status(tlm::TLM_OK_RESPONSE);
    sm.remote_response(request);
  });
}

void UvmDriver::free(uint64_t address) {
  const ManagedSpace::Allocation* allocation = m_space.find(address);
  if (allocation != nullptr && allocation->address == address) {
    m_gpu.invalidate_translations(address, allocation->host.size());
    for (uint64_t block : m_space.blocks_of(address, allocation->host.size())) {
      const ManagedSpace::Block* state = m_space.find_block(block);
      if (state != nullptr && state->chunk) m_pool.release(*state->chunk);
      if (state != nullptr && state->harvested) drop_harvest(block);
    }
  }
  m_space.free(address);
}

void UvmDriver::reset() {
  m_gpu.invalidate_translations(window_base(), window_bytes());
  m_space = ManagedSpace(m_config.page_bytes, m_config.chunk_bytes);
  m_pool = ChunkPool(m_config.chunk_bytes);
  m_replay_pins.clear();
  m_memory_full = false;
  m_previous_first = 0;
  for (auto& peer : m_peers) {
    for (uint32_t chunk = 0; chunk < peer->pool.size(); ++chunk)
      if (!peer->pool.chunk(chunk).withdrawn)
        peer->lender.give_back(peer->pool.chunk(chunk).address);
    peer->pool = ChunkPool(m_config.chunk_bytes);
  }
}

UvmDriver::Translation UvmDriver::translate(uint64_t address, gpu::Sm& sm,
                                            gpu::LdstUnit::Outbound& request) {
  const auto pin = m_replay_pins.find(&request);
  if (pin == m_replay_pins.end()) return translate_unpinned(address, sm, request);
  const uint32_t chunk = pin->second;
  m_replay_pins.erase(pin);
  const Translation translation = translate_unpinned(address, sm, request);
  end_access(chunk);  // after the request's own access, if it has one, holds the chunk
  return translation;
}

UvmDriver::Translation UvmDriver::translate_unpinned(uint64_t address, gpu::Sm& sm,
                                                     gpu::LdstUnit::Outbound& request) {
  const uint64_t number = m_space.block_number(address);
  const ManagedSpace::Block* block = m_space.find_block(number);
  const uint64_t page = m_space.page_in_block(address);
  const GpuRequestKind kind = request.extension.kind;
  const bool write = kind != GpuRequestKind::load, atomic = kind == GpuRequestKind::atomic;
  // A duplicated page is mapped read-only: a write to it faults.
  if (block != nullptr && block->chunk && block->resident[page] &&
      !(write && block->duplicated[page])) {
    if (block->prefetched_untouched[page]) {
      m_space.block(number).prefetched_untouched[page] = false;
      m_stats->pages_prefetched_used.inc();
    }
    m_pool.begin_access(*block->chunk);
    return {Translation::Outcome::frame,
            m_pool.chunk(*block->chunk).address + address % m_space.block_bytes()};
  }
  if (block != nullptr && !atomic && mapped_in_host(*block, number, page)) {
    serve_remote(address, sm, request, write);
    return {Translation::Outcome::remote, 0};
  }
  // An atomic on a page mapped in host memory brings it here: until then no new request of its
  // block goes to host memory, so none lands there after the page has left.
  if (atomic && block != nullptr && (block->accessed_by[page] || block->remote_mapped[page]))
    m_space.block(number).wanted_here = true;
  m_buffer.push_back({address, &sm, &request, kernel_now_ps(), write, atomic});
  m_stats->faults.inc();
  trace_faults();
  if (!m_batch_open) {
    m_batch_open = true;
    schedule_batch();
  }
  return {Translation::Outcome::fault, 0};
}

void UvmDriver::answered(uint64_t frame) {
  end_access(m_pool.chunk_at(frame));
}

void UvmDriver::end_access(uint32_t chunk) {
  m_pool.end_access(chunk);
  if (m_pool.chunk(chunk).in_flight == 0 && !m_reclaimable_waiters.empty()) notify_reclaimable();
}

void UvmDriver::read(uint64_t address, void* data, uint64_t bytes) {
  auto* out = static_cast<uint8_t*>(data);
  while (bytes > 0) {
    const uint64_t page_end = (address / m_config.page_bytes + 1) * m_config.page_bytes;
    const uint64_t piece = std::min(bytes, page_end - address);
    const uint64_t block = m_space.block_number(address);
    const uint64_t page = m_space.page_in_block(address);
    const uint64_t offset = address % m_space.block_bytes();
    const ManagedSpace::Block* state = m_space.find_block(block);
    if (state != nullptr && state->chunk && state->resident[page]) {
      m_gpu.read(m_pool.chunk(*state->chunk).address + offset, out, piece);
    } else if (state != nullptr && state->harvested && state->harvested->pages[page]) {
      const Peer& peer = *m_peers[state->harvested->peer];
      peer.gpu->read(peer.pool.chunk(state->harvested->chunk).address + offset, out, piece);
    } else {
      host_read(address, out, piece);
    }
    address += piece;
    out += piece;
    bytes -= piece;
  }
}

void UvmDriver::service_batch() {
  m_stats->batches.inc();
  const size_t taken = std::min<size_t>(m_buffer.size(), m_config.fault_batch_size);
  std::map<uint64_t, std::vector<Fault>> by_block;
  for (size_t i = 0; i < taken; ++i) {
    by_block[m_space.block_number(m_buffer.front().address)].push_back(m_buffer.front());
    m_buffer.pop_front();
  }
  // No block of the batch is a victim: its pages would be read back while still on their way
  // out.
  std::vector<uint64_t> batch_blocks;
  for (const auto& entry : by_block) batch_blocks.push_back(entry.first);
  std::vector<Fault> deferred;
  std::vector<uint64_t> path_load(m_peers.size() + 1, 0);  // parallel fetch: bytes per path
  ++m_batch_moves;  // the batch ends no sooner than this loop
  for (auto& [block, faults] : by_block)
    if (!serve_block(block, faults, nullptr, batch_blocks, path_load))
      deferred.insert(deferred.end(), faults.begin(), faults.end());
  finish_unmoved_blocks();
  m_buffer.insert(m_buffer.begin(), deferred.begin(), deferred.end());
  multi_path_prefetch(by_block.begin()->first, by_block.rbegin()->first);
  if (--m_batch_moves == 0) end_batch();
}

void UvmDriver::prefetch(uint64_t address, uint64_t bytes, std::function<void()> done) {
  if (!settled())
    throw SimulationError(std::string(name()) + ": a prefetch while the driver is not settled");
  const std::vector<uint64_t> blocks = m_space.blocks_of(address, bytes);
  m_batch_open = true;  // a batch of no faults: the pages are its prefetch
  m_batch_done = std::move(done);
  std::vector<uint64_t> path_load(m_peers.size() + 1, 0);
  ++m_batch_moves;
  for (uint64_t block : blocks) {
    std::vector<bool> pages = m_space.pages_overlapping(block, address, bytes);
    const std::vector<bool> allocated = m_space.allocated_pages(block);
    for (size_t p = 0; p < pages.size(); ++p) pages[p] = pages[p] && allocated[p];
    serve_block(block, {}, &pages, blocks, path_load);
  }
  finish_unmoved_blocks();
  if (--m_batch_moves == 0) end_batch();
}

void UvmDriver::finish_unmoved_blocks() {
  if (m_config.replay_policy == ReplayPolicy::block)
    for (const auto& serving : m_serving)
      if (serving->moves_left == 0 && !serving->finished) finish_block(*serving);
}

bool UvmDriver::serve_block(uint64_t block, const std::vector<Fault>& faults,
                            const std::vector<bool>* wanted,
                            const std::vector<uint64_t>& batch_blocks,
                            std::vector<uint64_t>& path_load) {
  auto gate = std::make_shared<Gate>();
  ManagedSpace::Block& state = m_space.block(block);
  if (state.moving) return false;  // its bytes are on their way: the next batch finds them arrived
  // A fault on a host-preferred page whose bytes are in host memory maps it there, unless an
  // atomic needs the page on the GPU; the other faults bring their pages.
  std::vector<Fault> here, in_host;
  for (const Fault& fault : faults) {
    const uint64_t page = m_space.page_in_block(fault.address);
    const bool on_neighbour = state.harvested && state.harvested->pages[page];
    if (!fault.atomic && state.prefer_host[page] && !state.resident[page] && !on_neighbour) {
      if (!state.remote_mapped[page]) m_stats->pages_mapped_in_host.inc();
      state.remote_mapped[page] = true;
      in_host.push_back(fault);
    } else {
      here.push_back(fault);
    }
  }
  // Requests still on their way to or from this block's pages in host memory finish first (a
  // prefetch leaves the block where it is).
  if ((!here.empty() || wanted != nullptr) && state.remote_in_flight > 0) return false;
  state.wanted_here = false;
  auto serving = std::make_shared<Serving>();
  serving->block = block;
  serving->faults = in_host;
  if (wanted == nullptr && here.empty()) {  // nothing to move: the faults replay with the batch
    serving->pages.assign(m_space.pages_per_block(), false);
    m_faults_in_service += faults.size();
    m_serving.push_back(serving);
    return true;
  }
  if (!state.chunk) {
    state.chunk = obtain_chunk(block, batch_blocks, gate);
    if (!state.chunk) return false;
  }
  std::vector<bool> pages;
  if (wanted != nullptr) {
    pages = *wanted;
    for (size_t p = 0; p < pages.size(); ++p) {
      pages[p] = pages[p] && !state.resident[p];
      if (pages[p]) m_stats->host_prefetch_pages.inc();
    }
  } else {
    std::vector<bool> faulted(m_space.pages_per_block(), false);
    for (const Fault& fault : here) {
      const uint64_t page = m_space.page_in_block(fault.address);
      faulted[page] = true;
      // A write to a duplicated page: the GPU's copy becomes the only current one.
      if (fault.write && state.resident[page] && state.duplicated[page]) {
        state.duplicated[page] = false;
        m_stats->duplicates_collapsed.inc();
      }
    }
    // The prefetcher leaves host-preferred pages where they are (an atomic's own page comes).
    std::vector<bool> candidates = m_space.allocated_pages(block);
    for (size_t p = 0; p < candidates.size(); ++p)
      candidates[p] = candidates[p] && (!state.prefer_host[p] || faulted[p]);
    pages = m_prefetcher.pages_to_migrate(state.resident, faulted, candidates);
    for (size_t p = 0; p < pages.size(); ++p) {
      if (!pages[p] || faulted[p]) continue;
      state.prefetched_untouched[p] = true;
      m_stats->pages_prefetched.inc();
    }
  }
  serving->faults.insert(serving->faults.end(), here.begin(), here.end());
  const auto moved = [this, serving] {
    if (--serving->moves_left == 0 && m_config.replay_policy == ReplayPolicy::block)
      finish_block(*serving);
    if (--m_batch_moves == 0) end_batch();
  };
  // A harvested block comes back whole, as memHarvester moves chunks; the pages the
  // neighbour lacks come from host memory.
  std::vector<bool> from_peer(pages.size(), false);
  if (state.harvested) {
    const ManagedSpace::Harvested harvested = *state.harvested;
    state.harvested.reset();
    for (size_t p = 0; p < pages.size(); ++p) {
      from_peer[p] = harvested.pages[p];
      pages[p] = pages[p] || from_peer[p];
    }
    for (const auto& [first, count] : runs_of(from_peer)) {
      ++m_batch_moves;
      ++serving->moves_left;
      fetch_from_peer(block, first, count, harvested.peer, harvested.chunk, gate, moved);
    }
    release_if_unused(harvested.peer, harvested.chunk);
  }
  std::vector<bool> from_host(pages.size());
  for (size_t p = 0; p < pages.size(); ++p) from_host[p] = pages[p] && !from_peer[p];
  duplicate_read_mostly(state, from_host);
  std::vector<std::optional<uint32_t>> staging(m_peers.size());  // per yielding GPU
  for (const auto& [first, count] : runs_of(from_host)) {
    ++m_batch_moves;
    ++serving->moves_left;
    const uint32_t path = m_config.parallel_fetch
                              ? fetch_path(block, count * m_config.page_bytes, path_load, staging)
                              : 0;
    if (path == 0)
      migrate_in(block, first, count, gate, moved);
    else
      relay_in(block, first, count, path - 1, *staging[path - 1], gate, moved);
  }
  for (uint32_t p = 0; p < staging.size(); ++p)  // a chunk taken for a path not chosen
    if (staging[p]) release_if_unused(p, *staging[p]);
  serving->pages = std::move(pages);
  m_faults_in_service += faults.size();
  m_serving.push_back(serving);
  return true;
}

void UvmDriver::duplicate_read_mostly(ManagedSpace::Block& block,
                                      const std::vector<bool>& from_host) {
  for (size_t p = 0; p < from_host.size(); ++p) {
    if (!from_host[p] || !block.read_mostly[p]) continue;
    block.duplicated[p] = true;
    m_stats->pages_duplicated.inc();
  }
}

bool UvmDriver::within_limit() const {
  return m_config.gpu_memory_bytes == 0 ||
         (m_pool.held() + 1) * m_config.chunk_bytes <= m_config.gpu_memory_bytes;
}

MemoryBorrower& UvmDriver::memory_for_malloc() {
  return *m_for_malloc;
}

void UvmDriver::withdraw_for_malloc(uint32_t chunk) {
  const uint64_t address = m_pool.chunk(chunk).address;
  m_pool.withdraw(chunk);
  m_give_back(address);
  m_stats->chunks_to_malloc.inc();
}

MemoryBorrower::Reclaim UvmDriver::give_to_malloc(bool evict_one) {
  if (m_pool.free_count() > 0) {
    withdraw_for_malloc(m_pool.free_chunks().back());
    return MemoryBorrower::Reclaim::gave_back;
  }
  if (m_pool.held() == 0) return MemoryBorrower::Reclaim::holds_none;
  if (!evict_one || m_evicting_for_malloc) return MemoryBorrower::Reclaim::wait;
  // Nothing to evict now (every chunk in use, moving or the batch's): the end of the batch or of
  // an access may change that, and asks again.
  const std::vector<uint64_t> keep = batch_blocks();
  const auto given_up = victim(keep);
  if (!given_up) return MemoryBorrower::Reclaim::wait;
  const uint64_t block = *m_pool.chunk(*given_up).block;
  m_space.block(block).moving = true;
  m_evicting_for_malloc = true;
  ++m_background;
  // The chunk goes back to device memory once its pages are out, before a batch could take it
  // as a free chunk; the cudaMalloc waiting finds the room when it asks again.
  evict(*given_up, keep, std::make_shared<Gate>(), [this, chunk = *given_up, block] {
    m_pool.release(chunk);
    withdraw_for_malloc(chunk);
    m_space.block(block).moving = false;
    m_evicting_for_malloc = false;
    background_done();
  });
  return MemoryBorrower::Reclaim::wait;
}

std::vector<uint64_t> UvmDriver::batch_blocks() const {
  std::vector<uint64_t> blocks = m_batch_mapped;
  for (const auto& serving : m_serving) blocks.push_back(serving->block);
  return blocks;
}

std::optional<uint32_t> UvmDriver::victim(const std::vector<uint64_t>& keep) {
  return m_pool.victim([this, &keep](uint64_t b) {
    return m_space.block(b).moving || std::find(keep.begin(), keep.end(), b) != keep.end();
  });
}

std::optional<uint32_t> UvmDriver::free_chunk(uint64_t block) {
  if (const auto chunk = m_pool.take_free(block)) return chunk;
  if (within_limit()) {
    if (const std::optional<uint64_t> address = m_chunks(m_config.chunk_bytes)) {
      m_pool.add(*address);
      m_stats->chunks.inc();
      return m_pool.take_free(block);
    }
    m_memory_full = true;
  }
  return std::nullopt;
}

std::optional<uint32_t> UvmDriver::obtain_chunk(uint64_t block, const std::vector<uint64_t>& keep,
                                                const std::shared_ptr<Gate>& gate) {
  if (const auto chunk = free_chunk(block)) return chunk;
  if (const auto given_up = victim(keep)) {
    ++m_batch_moves;
    evict(*given_up, keep, gate, [this] {
      if (--m_batch_moves == 0) end_batch();
    });
    m_pool.release(*given_up);
    return m_pool.take_free(block);
  }
  if (m_pool.held() == 0)
    throw SimulationError(std::string(name()) + ": no GPU memory for managed pages: a chunk of " +
                          std::to_string(m_config.chunk_bytes) +
                          " bytes (uvm.chunk_bytes) does not fit in what cudaMalloc left free");
  return std::nullopt;
}

void UvmDriver::evict(uint32_t chunk, const std::vector<uint64_t>& keep,
                      const std::shared_ptr<Gate>& gate, std::function<void()> done) {
  const uint64_t block = *m_pool.chunk(chunk).block;
  m_stats->chunks_evicted.inc();
  ManagedSpace::Block& state = m_space.block(block);
  m_stats->pages_dropped.inc(state.resident_pages - state.gpu_only_pages());
  if (m_config.harvest && state.gpu_only_pages() > 0) {
    if (const auto target = harvest_chunk(block, keep)) {
      harvest(block, chunk, target->first, target->second, gate, std::move(done));
      return;
    }
  }
  m_gpu.invalidate_translations(m_space.block_address(block), m_space.block_bytes());
  const auto runs = runs_of(state.unmap());
  if (runs.empty()) return done();
  const auto arrived = after_all(runs.size(), std::move(done));
  for (const auto& [first, count] : runs) {
    ++gate->closed_by;
    migrate_out(
        block, chunk, first, count, [gate] { gate->open_one(); }, arrived);
  }
}

void UvmDriver::frames_to_host(gpu::CopyEngine& engine, PcieLink& link, uint64_t frame,
                               uint64_t block, uint64_t first, uint64_t bytes,
                               std::function<void()> read, std::function<bool()> lands,
                               std::function<void()> then) {
  m_stats->pages_to_host.inc(bytes / m_config.page_bytes);
  m_stats->bytes_to_host.inc(bytes);
  engine.read(frame, bytes,
              [this, &link, block, first, read = std::move(read), lands = std::move(lands),
               then = std::move(then)](std::vector<uint8_t>& data) {
                read();
                const uint64_t arrival = link.transfer(PcieLink::Direction::device_to_host,
                                                       kernel_now_ps(), data.size());
                auto kept = std::make_shared<std::vector<uint8_t>>(std::move(data));
                m_timed.at(arrival, [this, block, first, kept, lands, then] {
                  if (lands())
                    std::memcpy(m_space.host_pages(block, first), kept->data(), kept->size());
                  then();
                });
              });
}

void UvmDriver::host_to_frames(gpu::CopyEngine& engine, PcieLink& link, uint64_t block,
                               uint64_t first, uint64_t bytes, uint64_t frame,
                               const std::shared_ptr<Gate>& gate, std::function<void()> then) {
  const uint64_t arrival =
      link.transfer(PcieLink::Direction::host_to_device, kernel_now_ps(), bytes);
  m_timed.at(arrival, [this, &engine, block, first, bytes, frame, gate, then = std::move(then)] {
    gate->pass([this, &engine, block, first, bytes, frame, then] {
      const uint8_t* host = m_space.host_pages(block, first);
      engine.write(frame, std::vector<uint8_t>(host, host + bytes), then);
    });
  });
}

void UvmDriver::frames_over_nvlink(gpu::CopyEngine& from, uint32_t from_port, uint64_t from_frame,
                                   gpu::CopyEngine& to, uint32_t to_port, uint64_t to_frame,
                                   uint64_t bytes, std::function<void()> read,
                                   const std::shared_ptr<Gate>& gate, std::function<void()> then) {
  m_stats->bytes_over_nvlink.inc(bytes);
  from.read(
      from_frame, bytes,
      [this, from_port, &to, to_port, to_frame, read = std::move(read), gate,
       then = std::move(then)](std::vector<uint8_t>& data) {
        read();
        const uint64_t arrival =
            m_fabric->transfer(from_port, to_port, kernel_now_ps(), data.size());
        auto kept = std::make_shared<std::vector<uint8_t>>(std::move(data));
        m_timed.at(arrival, [&to, to_frame, gate, kept, then] {
          gate->pass([&to, to_frame, kept, then] { to.write(to_frame, std::move(*kept), then); });
        });
      });
}

void UvmDriver::migrate_in(uint64_t block, uint64_t first, uint64_t count,
                           const std::shared_ptr<Gate>& gate, std::function<void()> then) {
  const uint64_t bytes = count * m_config.page_bytes;
  m_stats->pages_to_gpu.inc(count);
  m_stats->bytes_to_gpu.inc(bytes);
  host_to_frames(m_gpu.copy_engine(), m_pcie, block, first, bytes,
                 m_pool.chunk(*m_space.block(block).chunk).address + first * m_config.page_bytes,
                 gate, std::move(then));
}

void UvmDriver::migrate_out(uint64_t block, uint32_t chunk, uint64_t first, uint64_t count,
                            std::function<void()> read, std::function<void()> then) {
  frames_to_host(
      m_gpu.copy_engine(), m_pcie, m_pool.chunk(chunk).address + first * m_config.page_bytes, block,
      first, count * m_config.page_bytes, std::move(read), [] { return true; }, std::move(then));
}

void UvmDriver::keep_reserve(const std::vector<uint64_t>& keep) {
  while (m_pool.free_count() + m_leaving < m_config.reserve_chunks) {
    // Only full GPU memory is pre-evicted: a pool that may grow takes new chunks at the fault.
    if (within_limit() && !m_memory_full) return;
    const auto given_up = victim(keep);
    if (!given_up) return;
    const uint64_t block = *m_pool.chunk(*given_up).block;
    m_space.block(block).moving = true;
    ++m_leaving;
    ++m_background;
    m_stats->chunks_pre_evicted.inc();
    evict(*given_up, keep, std::make_shared<Gate>(), [this, chunk = *given_up, block] {
      m_pool.release(chunk);
      m_space.block(block).moving = false;
      --m_leaving;
      background_done();
    });
  }
}

void UvmDriver::finish_block(Serving& serving) {
  ManagedSpace::Block& block = m_space.block(serving.block);
  block.map(serving.pages);
  const uint64_t now = kernel_now_ps();
  for (const Fault& fault : serving.faults) {
    m_stats->fault_latency.sample(now - fault.time_ps);
    if (block.chunk) {
      m_pool.begin_access(*block.chunk);
      m_replay_pins.emplace(fault.request, *block.chunk);
    }
    fault.sm->replay(*fault.request);
  }
  m_faults_in_service -= serving.faults.size();
  serving.finished = true;
  m_batch_mapped.push_back(serving.block);
  trace_faults();
}

void UvmDriver::end_batch() {
  std::vector<std::shared_ptr<Serving>> serving;
  serving.swap(m_serving);
  for (const auto& block : serving)
    if (!block->finished) finish_block(*block);
  std::vector<uint64_t> mapped;
  mapped.swap(m_batch_mapped);
  keep_reserve(mapped);
  notify_reclaimable();
  std::function<void()> done;
  done.swap(m_batch_done);
  if (done) done();
  if (m_buffer.empty()) {
    m_batch_open = false;
    check_settled();
    return;
  }
  schedule_batch();
}

void UvmDriver::schedule_batch() {
  m_batch_event.notify(
      kernel_delay_of_ps(static_cast<uint64_t>(std::llround(m_config.fault_service_ns * 1000.0))));
}

void UvmDriver::when_settled(std::function<void()> done) {
  m_when_settled.push_back(std::move(done));
  check_settled();
}

void UvmDriver::background_done() {
  --m_background;
  notify_reclaimable();
  check_settled();
}

void UvmDriver::check_settled() {
  if (m_background > 0 || m_batch_open) return;
  std::vector<std::function<void()>> waiting;
  waiting.swap(m_when_settled);
  for (auto& action : waiting) action();
}

void UvmDriver::migrate_to_host(uint64_t address, uint64_t bytes, bool for_write,
                                std::function<void()> done) {
  if (m_batch_open)
    throw SimulationError(std::string(name()) +
                          ": a host access to managed memory while faults are in service");
  auto left = std::make_shared<uint32_t>(1);  // one for this call, dropped at its end
  auto finish = [left, done] {
    if (--*left == 0) done();
  };
  for (uint64_t block : m_space.blocks_of(address, bytes)) {
    ManagedSpace::Block& state = m_space.block(block);
    if (state.harvested) {
      // The whole block comes back from the neighbour unless host memory has it already.
      const ManagedSpace::Harvested harvested = *state.harvested;
      if (!harvested.written_back) {
        for (const auto& [first, count] : runs_of(harvested.pages)) {
          ++*left;
          peer_to_host(block, harvested, first, count, false, finish);
        }
      }
      drop_harvest(block);
    }
    if (!state.chunk) continue;
    std::vector<bool> pages = m_space.pages_overlapping(block, address, bytes);
    std::vector<bool> unmapped(pages.size(), false);
    for (uint64_t p = 0; p < pages.size(); ++p) {
      const bool copy_out = pages[p] && state.resident[p] && !state.duplicated[p];
      // A duplicated page's host copy is current: a read leaves it mapped, a write drops it.
      unmapped[p] = copy_out || (pages[p] && state.resident[p] && for_write);
      if (unmapped[p] && !copy_out) m_stats->pages_dropped.inc();
      pages[p] = copy_out;
    }
    for (const auto& [first, count] : runs_of(unmapped)) {
      m_gpu.invalidate_translations(m_space.block_address(block) + first * m_config.page_bytes,
                                    count * m_config.page_bytes);
      for (uint64_t p = first; p < first + count; ++p) state.unmap_page(p);
    }
    const uint32_t chunk = *state.chunk;
    for (const auto& [first, count] : runs_of(pages)) {
      ++*left;
      migrate_out(
          block, chunk, first, count, [] {}, finish);
    }
    if (state.resident_pages == 0) {
      state.chunk.reset();
      m_pool.release(chunk);
    }
  }
  finish();
}

void UvmDriver::host_read(uint64_t address, void* data, uint64_t bytes) const {
  const ManagedSpace::Allocation* allocation = m_space.find(address, bytes);
  std::memcpy(data, allocation->host.data() + (address - allocation->address), bytes);
}

void UvmDriver::host_write(uint64_t address, const void* data, uint64_t bytes) {
  ManagedSpace::Allocation* allocation = m_space.find(address, bytes);
  std::memcpy(allocation->host.data() + (address - allocation->address), data, bytes);
}

void UvmDriver::trace_faults() {
  m_trace_faults.set(m_buffer.size() + m_faults_in_service, kernel_now_ps());
}

}  // namespace ohmvp
