#include "modules/gpu/l2_slice.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "modules/common/errors.h"
#include "modules/common/power_of_two.h"
#include "modules/gpu/ptx/atomic_alu.h"
#include "tlm_protocols/payload_pieces.h"

namespace ohmvp::gpu {

struct L2Slice::Stats {
  Counter& loads;
  Counter& stores;
  Counter& atomic_requests;
  Counter& atomic_lanes;
  Counter& hits;
  Counter& misses;
  Counter& sector_misses;
  Counter& mshr_merges;
  Counter& stalls;
  Counter& write_backs;
  Counter& write_back_bytes;
  Counter& fill_reads;
  Histogram& miss_latency;
  Histogram& latency;

  Stats(StatsRegistry& r, const std::string& g)
      : loads(r.counter(g, "loads", "requests", "load requests")),
        stores(r.counter(g, "stores", "requests", "store requests")),
        atomic_requests(r.counter(g, "atomic_requests", "requests", "atomic requests")),
        atomic_lanes(r.counter(g, "atomics", "lanes", "atomic read-modify-writes executed")),
        hits(r.counter(g, "hits", "requests", "requests that found every sector they need")),
        misses(r.counter(g, "misses", "requests",
                         "requests that missed the line or a needed sector (first try)")),
        sector_misses(r.counter(g, "sector_misses", "sectors", "sectors fetched from memory")),
        mshr_merges(r.counter(g, "mshr_merges", "requests",
                              "requests merged into an outstanding miss to their line")),
        stalls(r.counter(g, "stalls", "requests",
                         "requests that waited for an MSHR, a merge slot or an unpinned way")),
        write_backs(r.counter(g, "write_backs", "lines", "dirty lines written to memory")),
        write_back_bytes(r.counter(g, "write_back_bytes", "bytes", "dirty bytes written back")),
        fill_reads(r.counter(g, "fill_reads", "requests", "read requests sent to memory")),
        miss_latency(r.histogram(g, "miss_latency", "ps", "MSHR allocation to its fill")),
        latency(r.histogram(g, "latency", "ps", "request accepted (END_REQ) to its response")) {}
};

L2Slice::L2Slice(sc_core::sc_module_name name, const L2SliceConfig& config,
                 sc_core::sc_time clock_period, const InterleaveMap& map, uint32_t channel,
                 uint32_t memory_burst_bytes, StatsRegistry& stats, VcdWriter* vcd)
    : sc_module(name),
      in("in"),
      out("out"),
      m_config(config),
      m_period_ps(clock_period.value()),
      m_map(map),
      m_channel(channel),
      m_chunk_bytes(std::min(memory_burst_bytes, config.cache.line_bytes)),
      m_cache(config.cache),
      m_mshrs(config.mshr_entries, config.max_merges),
      m_misses(config.mshr_entries),
      m_accepted_ps(config.mshr_entries),
      m_line_buffer(config.cache.line_bytes),
      m_stats(std::make_unique<Stats>(stats, this->name())) {
  const std::string where = std::string(this->name()) + ": ";
  if (m_period_ps == 0) throw ConfigError(where + "clock period must be positive");
  if (map.interleave_bytes % config.cache.line_bytes != 0) {
    throw ConfigError(where + "the memory interleave (" + std::to_string(map.interleave_bytes) +
                      " bytes) must be a multiple of the L2 line (" +
                      std::to_string(config.cache.line_bytes) + " bytes)");
  }
  if (!is_power_of_two(memory_burst_bytes)) {
    throw ConfigError(where + "memory burst must be a power of two, got " +
                      std::to_string(memory_burst_bytes));
  }
  if (config.cache.sector_bytes > m_chunk_bytes) {
    throw ConfigError(where + "an L2 sector (" + std::to_string(config.cache.sector_bytes) +
                      " bytes) must not be larger than the memory burst (" +
                      std::to_string(memory_burst_bytes) + " bytes)");
  }
  if (channel >= map.channels) throw ConfigError(where + "channel outside the interleave");
  in.bind(*this);
  out.bind(*this);
  m_cache.attach_stats(stats, this->name());
  m_trace_mshrs.attach(vcd, this->name(), "mshr_occupancy", 16);
  SC_METHOD(run);
  sensitive << m_wake;
  dont_initialize();
}

L2Slice::~L2Slice() = default;

void L2Slice::wake_at(uint64_t time_ps) {
  if (time_ps >= m_wake_ps) return;
  m_wake_ps = time_ps;
  const uint64_t now = now_ps();
  m_wake.notify(kernel_delay_of_ps(time_ps > now ? time_ps - now : 0));
}

uint64_t L2Slice::hits() const {
  return m_stats->hits.value();
}

uint64_t L2Slice::misses() const {
  return m_stats->misses.value();
}

bool L2Slice::idle() const {
  return m_mshrs.occupancy() == 0 && m_pending == nullptr && m_responses.empty() &&
         !m_waiting_end_resp && m_to_send.empty() && m_unaccepted == nullptr &&
         m_writes_in_flight == 0 && m_reads_in_flight == 0 && m_filled.empty();
}

void L2Slice::run() {
  m_wake_ps = UINT64_MAX;
  const uint64_t now = now_ps();
  send_due_responses(now);
  send_transfers();
  const uint64_t edge = edge_at_or_after(now);
  if (!m_filled.empty() || m_pending != nullptr || m_flush_requested) {
    if (edge != now) {
      wake_at(edge);
    } else {
      complete_fills(now);
      accept_pending(now);
      check_flush();
      send_transfers();
    }
  }
  check_flush();
  if (!m_responses.empty() && !m_waiting_end_resp) wake_at(m_responses.top().time_ps);
}

// ---- Front side ------------------------------------------------------------------------------

void L2Slice::validate(const tlm::tlm_generic_payload& p, const GpuMemoryExtension& e) const {
  const uint32_t line_bytes = m_config.cache.line_bytes;
  auto fail = [&](const std::string& problem) {
    throw SimulationError(std::string(name()) + ": " + to_string(e.kind) + " at address " +
                          std::to_string(p.get_address()) + " from SM " + std::to_string(e.sm) +
                          ": " + problem);
  };
  if (p.get_address() % line_bytes != 0) fail("address not aligned to the line");
  if (p.get_data_length() != line_bytes) fail("data length is not one line");
  if (m_map.channel_of(p.get_address()) != m_channel) fail("line belongs to another slice");
  if (e.sector_mask == 0 || (e.sector_mask & ~sector_range(0, m_config.cache.sectors())) != 0) {
    fail("sector mask empty or beyond the line");
  }
  if (e.kind == GpuRequestKind::store && p.get_byte_enable_ptr() != nullptr &&
      p.get_byte_enable_length() != line_bytes) {
    fail("byte enables must cover the whole line");
  }
  if (e.kind == GpuRequestKind::atomic) {
    if (e.lanes.empty()) fail("atomic without lanes");
    for (const AtomicLane& lane : e.lanes) {
      const uint32_t size = uint32_t(type_bytes(lane.type));
      if (size == 0 || lane.offset % size != 0 || lane.offset + size > line_bytes) {
        fail("atomic lane at offset " + std::to_string(lane.offset) + " misaligned or outside");
      }
      if ((m_cache.sector_mask(lane.offset, size) & ~e.sector_mask) != 0) {
        fail("atomic lane outside the sector mask");
      }
      if (!atomic_supported(lane.op, lane.type)) fail("atomic operation not defined for type");
    }
  }
}

tlm::tlm_sync_enum L2Slice::nb_transport_fw(tlm::tlm_generic_payload& payload,
                                            tlm::tlm_phase& phase, sc_core::sc_time& delay) {
  const uint64_t now = now_ps();
  if (phase == tlm::END_RESP) {
    m_waiting_end_resp = false;
    wake_at(now);
    return tlm::TLM_COMPLETED;
  }
  if (phase != tlm::BEGIN_REQ || delay != sc_core::SC_ZERO_TIME) {
    throw SimulationError(std::string(name()) + ": expected BEGIN_REQ without delay or END_RESP");
  }
  if (m_pending != nullptr) {
    throw SimulationError(std::string(name()) + ": BEGIN_REQ while another awaits END_REQ");
  }
  GpuMemoryExtension& extension = gpu_extension(payload);
  validate(payload, extension);
  // One request enters the tag pipeline per cycle, at a clock edge.
  if (now == edge_at_or_after(now) && now >= m_next_accept_ps &&
      process(payload, now, false, now)) {
    m_next_accept_ps = now + m_period_ps;
    phase = tlm::END_REQ;
    return tlm::TLM_UPDATED;
  }
  if (now == edge_at_or_after(now) && now >= m_next_accept_ps) m_stats->stalls.inc();
  m_pending = &payload;
  if (m_next_accept_ps > now || now != edge_at_or_after(now)) {
    wake_at(std::max(m_next_accept_ps, edge_at_or_after(now)));
  }
  // Otherwise it waits for an MSHR or a way: complete_fills() wakes it.
  return tlm::TLM_ACCEPTED;
}

void L2Slice::accept_pending(uint64_t now) {
  if (m_pending == nullptr || now < m_next_accept_ps) {
    if (m_pending != nullptr) wake_at(m_next_accept_ps);
    return;
  }
  tlm::tlm_generic_payload& payload = *m_pending;
  if (!process(payload, now, false, now)) return;
  m_pending = nullptr;
  m_next_accept_ps = now + m_period_ps;
  tlm::tlm_phase phase = tlm::END_REQ;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  in->nb_transport_bw(payload, phase, delay);
}

uint32_t L2Slice::needed_sectors(const GpuMemoryExtension& e) const {
  switch (e.kind) {
    case GpuRequestKind::load:
      return e.sector_mask;
    case GpuRequestKind::store:
      return 0;  // write-allocate without fetch
    case GpuRequestKind::atomic: {
      uint32_t mask = 0;
      for (const AtomicLane& lane : e.lanes) {
        mask |= m_cache.sector_mask(lane.offset, uint32_t(type_bytes(lane.type)));
      }
      return mask;
    }
  }
  return e.sector_mask;
}

// Runs one request through the tag pipeline at `now`. False: it must wait (no MSHR, no merge
// slot or no unpinned way) and nothing changed. A replay is a request that waited on a miss
// and now executes at the fill instant.
bool L2Slice::process(tlm::tlm_generic_payload& payload, uint64_t now, bool replay,
                      uint64_t accepted_ps) {
  GpuMemoryExtension& e = gpu_extension(payload);
  const uint64_t line_address = m_map.local_address(payload.get_address());
  const uint32_t mshr = m_mshrs.find(line_address);
  if (mshr != MshrTable::npos) {
    if (m_mshrs.add(line_address, &payload).outcome != MshrTable::Outcome::merged) return false;
    m_accepted_ps[mshr].push_back(accepted_ps);
    m_stats->mshr_merges.inc();
    e.l2_hit = false;
    if (!replay) {
      count_kind(e.kind);
      m_stats->misses.inc();
    }
    return true;
  }
  const uint32_t needed = needed_sectors(e);
  auto line = m_cache.find(line_address);
  if (!line || !m_cache.has_sectors(*line, needed)) {
    if (needed != 0 && m_mshrs.full()) return false;
    if (!line) {
      line = m_cache.allocate(line_address, m_victim);
      if (!line) return false;
      if (m_victim.dirty) write_back(m_victim);
    }
  }
  if (!replay) count_kind(e.kind);
  const uint32_t missing = needed & ~m_cache.valid_sectors(*line);
  if (missing == 0) {
    if (!replay) {
      m_stats->hits.inc();
      e.l2_hit = true;
    }
    execute(payload, e, *line);
    // A replay's data comes through the same slice pipeline as a hit's: a miss is never
    // answered sooner than a hit.
    const uint64_t answer_ps = now + m_config.hit_latency * m_period_ps;
    m_stats->latency.sample(answer_ps - accepted_ps);
    respond_at(answer_ps, payload);
    return true;
  }
  const MshrTable::Result added = m_mshrs.add(line_address, &payload);
  if (!replay) m_stats->misses.inc();
  e.l2_hit = false;
  m_cache.pin(*line);
  m_misses[added.entry] = Miss{*line, 0, now};
  m_accepted_ps[added.entry].clear();
  m_accepted_ps[added.entry].push_back(accepted_ps);
  m_trace_mshrs.set(m_mshrs.occupancy(), now);
  fetch(added.entry, line_address, missing);
  return true;
}

void L2Slice::count_kind(GpuRequestKind kind) {
  switch (kind) {
    case GpuRequestKind::load:
      m_stats->loads.inc();
      break;
    case GpuRequestKind::store:
      m_stats->stores.inc();
      break;
    case GpuRequestKind::atomic:
      m_stats->atomic_requests.inc();
      break;
  }
}

void L2Slice::execute(tlm::tlm_generic_payload& payload, GpuMemoryExtension& e,
                      SectorCache::LineIndex line) {
  const uint32_t sector_bytes = m_config.cache.sector_bytes;
  uint8_t* data = payload.get_data_ptr();
  m_cache.touch(line);
  switch (e.kind) {
    case GpuRequestKind::load:
      for (uint32_t s = 0; s < m_config.cache.sectors(); ++s) {
        if (e.sector_mask >> s & 1u) {
          m_cache.read(line, s * sector_bytes, sector_bytes, data + s * sector_bytes);
        }
      }
      break;
    case GpuRequestKind::store: {
      const uint8_t* enables = payload.get_byte_enable_ptr();
      for (uint32_t s = 0; s < m_config.cache.sectors(); ++s) {
        if ((e.sector_mask >> s & 1u) == 0) continue;
        const uint32_t offset = s * sector_bytes;
        m_cache.write(line, offset, sector_bytes, data + offset,
                      enables ? enables + offset : nullptr);
      }
      break;
    }
    case GpuRequestKind::atomic:
      execute_atomics(e, line);
      break;
  }
  payload.set_response_status(tlm::TLM_OK_RESPONSE);
}

void L2Slice::execute_atomics(GpuMemoryExtension& e, SectorCache::LineIndex line) {
  for (AtomicLane& lane : e.lanes) {
    const uint32_t size = uint32_t(type_bytes(lane.type));
    uint8_t bytes[8] = {};
    m_cache.read(line, lane.offset, size, bytes);
    uint64_t old_value = 0;
    for (uint32_t i = 0; i < size; ++i) old_value |= uint64_t(bytes[i]) << (8 * i);
    const uint64_t result =
        atomic_result(lane.op, lane.type, old_value, lane.b, lane.c, AtomicMemory::global);
    for (uint32_t i = 0; i < size; ++i) bytes[i] = uint8_t(result >> (8 * i));
    m_cache.write(line, lane.offset, size, bytes, nullptr);
    lane.old_value = old_value;
    m_stats->atomic_lanes.inc();
  }
}

void L2Slice::b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time&) {
  payload.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
  SC_REPORT_ERROR(name(),
                  "the GPU memory protocol is approximately-timed only; use "
                  "nb_transport or transport_dbg");
}

unsigned int L2Slice::transport_dbg(tlm::tlm_generic_payload& payload) {
  // One interleave block at a time: consecutive blocks of this slice need not be adjacent.
  return for_each_block(payload, m_map.interleave_bytes,
                        [this](tlm::tlm_generic_payload& part, uint64_t global) {
                          if (m_map.channel_of(global) != m_channel) return 0u;
                          const uint64_t local = m_map.local_address(global);
                          part.set_address(local);
                          const unsigned moved = out->transport_dbg(part);
                          debug_overlay(part.is_read(), local, part.get_data_ptr(), moved,
                                        part.get_byte_enable_ptr());
                          return moved;
                        });
}

// The cache's current bytes (valid sectors and dirty bytes) win over memory's for a debug read;
// a debug write, already in memory, also updates them.
void L2Slice::debug_overlay(bool read, uint64_t local, uint8_t* data, uint32_t length,
                            const uint8_t* enables) {
  const uint32_t line_bytes = m_config.cache.line_bytes;
  const uint32_t sector_bytes = m_config.cache.sector_bytes;
  // One lookup per line, then sector by sector inside it: the bytes of a valid sector are all
  // current, those of another only where they are dirty.
  for (uint32_t start = 0; start < length;) {
    const uint32_t first = uint32_t((local + start) % line_bytes);
    const uint32_t end = start + std::min(length - start, line_bytes - first);
    const auto line = m_cache.find(local + start);
    for (uint32_t i = start; line && i < end;) {
      const uint32_t offset = first + (i - start);
      const uint32_t run = std::min(end - i, sector_bytes - offset % sector_bytes);
      const bool valid = (m_cache.valid_sectors(*line) >> (offset / sector_bytes)) & 1u;
      if (valid && read) {
        m_cache.read(*line, offset, run, data + i);
      } else if (valid && enables == nullptr) {
        m_cache.patch(*line, offset, run, data + i);
      } else {
        for (uint32_t k = 0; k < run; ++k) {
          if (!valid && !m_cache.dirty_bytes(*line)[offset + k]) continue;
          if (read) {
            m_cache.read(*line, offset + k, 1, data + i + k);
          } else if (enables == nullptr || enables[i + k] != 0) {
            m_cache.patch(*line, offset + k, 1, data + i + k);
          }
        }
      }
      i += run;
    }
    start = end;
  }
}

// ---- Memory side -----------------------------------------------------------------------------

L2Slice::Transfer* L2Slice::new_transfer(tlm::tlm_command command, uint64_t address,
                                         uint32_t length) {
  Transfer* t;
  if (m_free_transfers.empty()) {
    m_transfers.push_back(std::make_unique<Transfer>(this));
    t = m_transfers.back().get();
    t->data.resize(m_chunk_bytes);
    t->enables.resize(m_chunk_bytes);
  } else {
    t = m_free_transfers.back();
    m_free_transfers.pop_back();
  }
  t->acquire();
  t->set_command(command);
  t->set_address(address);
  t->set_data_ptr(t->data.data());
  t->set_data_length(length);
  t->set_streaming_width(length);
  t->set_byte_enable_ptr(nullptr);
  t->set_byte_enable_length(0);
  t->set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  m_to_send.push_back(t);
  wake_at(now_ps());
  return t;
}

void L2Slice::free(tlm::tlm_generic_payload* payload) {
  payload->reset();
  m_free_transfers.push_back(static_cast<Transfer*>(payload));
}

// One read per memory burst of the line that holds missing sectors, spanning them (the
// controller moves whole bursts; a read of part of one costs the same command).
void L2Slice::fetch(uint32_t mshr, uint64_t line_address, uint32_t sectors) {
  const uint32_t sector_bytes = m_config.cache.sector_bytes;
  for (uint32_t chunk = 0; chunk < m_config.cache.line_bytes; chunk += m_chunk_bytes) {
    const uint32_t in_chunk = sectors & m_cache.sector_mask(chunk, m_chunk_bytes);
    if (in_chunk == 0) continue;
    const uint32_t first_sector = uint32_t(__builtin_ctz(in_chunk));
    const uint32_t last_sector = 31u - uint32_t(__builtin_clz(in_chunk));
    const uint32_t begin = std::max(chunk, first_sector * sector_bytes);
    const uint32_t end = std::min(chunk + m_chunk_bytes, (last_sector + 1) * sector_bytes);
    Transfer* t = new_transfer(tlm::TLM_READ_COMMAND, line_address + begin, end - begin);
    t->mshr = mshr;
    t->line_offset = begin;
    t->sectors = in_chunk;
    ++m_misses[mshr].reads_outstanding;
    ++m_reads_in_flight;
    m_stats->fill_reads.inc();
  }
  m_stats->sector_misses.inc(uint64_t(__builtin_popcount(sectors)));
}

void L2Slice::write_back(const DirtyLine& line) {
  m_stats->write_backs.inc();
  for (uint32_t chunk = 0; chunk < m_config.cache.line_bytes; chunk += m_chunk_bytes) {
    const uint8_t* dirty = line.enables.data() + chunk;
    uint32_t first = m_chunk_bytes, last = 0, count = 0;
    for (uint32_t i = 0; i < m_chunk_bytes; ++i) {
      if (!dirty[i]) continue;
      first = std::min(first, i);
      last = i;
      ++count;
    }
    if (count == 0) continue;
    const uint32_t length = last - first + 1;
    Transfer* t = new_transfer(tlm::TLM_WRITE_COMMAND, line.address + chunk + first, length);
    std::memcpy(t->data.data(), line.data.data() + chunk + first, length);
    if (count != length) {
      for (uint32_t i = 0; i < length; ++i) {
        t->enables[i] = dirty[first + i] ? TLM_BYTE_ENABLED : TLM_BYTE_DISABLED;
      }
      t->set_byte_enable_ptr(t->enables.data());
      t->set_byte_enable_length(length);
    }
    ++m_writes_in_flight;
    m_stats->write_back_bytes.inc(count);
  }
}

void L2Slice::send_transfers() {
  while (m_unaccepted == nullptr && !m_to_send.empty()) {
    Transfer* t = m_to_send.front();
    m_to_send.pop_front();
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    const tlm::tlm_sync_enum status = out->nb_transport_fw(*t, phase, delay);
    if (status == tlm::TLM_COMPLETED && !t->is_response_ok()) {
      throw SimulationError(std::string(name()) + ": memory rejected the " +
                            (t->is_read() ? "read" : "write") + " of channel address " +
                            std::to_string(t->get_address()) + ": " + t->get_response_string());
    }
    if (status == tlm::TLM_ACCEPTED) {
      m_unaccepted = t;
    } else if (status == tlm::TLM_COMPLETED && t->is_write()) {
      --m_writes_in_flight;  // posted
      t->release();
    }
  }
}

tlm::tlm_sync_enum L2Slice::nb_transport_bw(tlm::tlm_generic_payload& payload,
                                            tlm::tlm_phase& phase, sc_core::sc_time&) {
  Transfer& t = static_cast<Transfer&>(payload);
  if (&t == m_unaccepted) m_unaccepted = nullptr;  // END_REQ, or BEGIN_RESP implying it
  if (phase == tlm::BEGIN_RESP) {
    if (!t.is_response_ok()) {
      throw SimulationError(std::string(name()) + ": memory failed channel address " +
                            std::to_string(t.get_address()) + ": " + t.get_response_string());
    }
    if (t.is_read()) {
      --m_reads_in_flight;
      fill_arrived(t);
    } else {
      --m_writes_in_flight;
    }
    t.release();
    wake_at(now_ps());
    return tlm::TLM_COMPLETED;
  }
  wake_at(now_ps());
  return tlm::TLM_ACCEPTED;
}

void L2Slice::fill_arrived(Transfer& t) {
  Miss& miss = m_misses[t.mshr];
  std::memcpy(m_line_buffer.data() + t.line_offset, t.data.data(), t.get_data_length());
  m_cache.fill(miss.line, t.sectors, m_line_buffer.data());
  if (--miss.reads_outstanding == 0) m_filled.push_back(t.mshr);
}

void L2Slice::complete_fills(uint64_t now) {
  for (size_t i = 0; i < m_filled.size(); ++i) {
    const uint32_t entry = m_filled[i];
    const Miss& miss = m_misses[entry];
    m_stats->miss_latency.sample(now - miss.start_ps);
    m_cache.unpin(miss.line);
    m_mshrs.release(entry, m_waiters);
    m_waiters_accepted_ps.swap(m_accepted_ps[entry]);
    m_accepted_ps[entry].clear();
    m_trace_mshrs.set(m_mshrs.occupancy(), now);
    // In arrival order; none can stall: the line is present and an MSHR has just been freed.
    for (size_t k = 0; k < m_waiters.size(); ++k) {
      auto& waiter = *static_cast<tlm::tlm_generic_payload*>(m_waiters[k]);
      if (!process(waiter, now, true, m_waiters_accepted_ps[k])) {
        throw SimulationError(std::string(name()) + ": a replayed request could not proceed");
      }
    }
  }
  m_filled.clear();
}

// ---- Responses and flush ---------------------------------------------------------------------

void L2Slice::respond_at(uint64_t time_ps, tlm::tlm_generic_payload& payload) {
  m_responses.push(Response{time_ps, m_sequence++, &payload});
  if (!m_waiting_end_resp) wake_at(m_responses.top().time_ps);
}

void L2Slice::send_due_responses(uint64_t now) {
  while (!m_waiting_end_resp && !m_responses.empty() && m_responses.top().time_ps <= now) {
    tlm::tlm_generic_payload& payload = *m_responses.top().payload;
    m_responses.pop();
    tlm::tlm_phase phase = tlm::BEGIN_RESP;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    if (in->nb_transport_bw(payload, phase, delay) == tlm::TLM_ACCEPTED) {
      m_waiting_end_resp = true;
    }
  }
}

void L2Slice::flush(std::function<void()> done) {
  m_flush_done = std::move(done);
  m_flush_requested = true;
  wake_at(edge_at_or_after(now_ps()));
}

void L2Slice::check_flush() {
  if (m_flush_requested && m_mshrs.occupancy() == 0 && m_pending == nullptr && m_filled.empty()) {
    m_flush_requested = false;
    m_flush_draining = true;
    m_cache.flush([this](const DirtyLine& line) { write_back(line); });
  }
  if (m_flush_draining && m_to_send.empty() && m_unaccepted == nullptr && m_writes_in_flight == 0) {
    m_flush_draining = false;
    auto done = std::move(m_flush_done);
    m_flush_done = nullptr;
    if (done) done();
  }
}

}  // namespace ohmvp::gpu
