#include "modules/gpu/ldst_unit.h"

#include <algorithm>
#include <cstring>

#include "modules/common/errors.h"
#include "modules/gpu/lane_mask.h"

namespace ohmvp::gpu {

namespace {

// Warp memory instructions the LD/ST unit queues in front of the L1 before issue stalls
// (a modelling choice: NVIDIA does not publish the MIO queue depth).
constexpr size_t k_queue_ops = 16;

SectorCacheGeometry l1_geometry(const L1DataCacheConfig& l1) {
  return SectorCacheGeometry{l1.size_bytes, l1.ways, l1.line_bytes, l1.sector_bytes};
}

}  // namespace

LdstUnit::Outbound::Outbound(tlm::tlm_mm_interface* mm, uint32_t line_bytes)
    : tlm::tlm_generic_payload(mm), data(line_bytes), enables(line_bytes) {
  extension.lanes.reserve(Coalescer::k_max_lanes);
  set_extension(&extension);
  set_data_ptr(data.data());
  set_data_length(line_bytes);
  set_streaming_width(line_bytes);
}

LdstUnit::LdstUnit(uint32_t sm, const GpuConfig& config, SmStats& stats)
    : m_sm(sm),
      m_line_bytes(config.l1d.line_bytes),
      m_hit_latency(config.l1d.hit_latency),
      m_pipeline_latency(config.unit(UnitClass::ldst).latency),
      m_queue_capacity(k_queue_ops),
      m_stats(stats),
      m_l1(l1_geometry(config.l1d)),
      m_mshrs(config.l1d.mshr_entries, config.l1d.mshr_max_merges),
      m_mshr_line(config.l1d.mshr_entries, 0),
      m_mshr_stale(config.l1d.mshr_entries, 0),
      m_mshr_failed(config.l1d.mshr_entries, false),
      m_coalescer(config.l1d.line_bytes, config.l1d.sector_bytes) {
  m_victim.data.resize(m_line_bytes);
  m_victim.enables.resize(m_line_bytes);
}

MemoryOp& LdstUnit::new_op() {
  if (m_free_ops.empty()) {
    m_ops.push_back(std::make_unique<MemoryOp>());
    m_free_ops.push_back(m_ops.back().get());
  }
  MemoryOp* op = m_free_ops.back();
  m_free_ops.pop_back();
  op->error = false;
  op->whole = nullptr;
  op->parts_left = 0;
  return *op;
}

void LdstUnit::release(MemoryOp& op) {
  m_free_ops.push_back(&op);
}

void LdstUnit::accept(MemoryOp& op) {
  const MemoryRequest& r = op.request;
  m_coalescer.coalesce(r.address.data(), 64, r.lanes, r.bytes);
  op.request_count = m_coalescer.request_count();
  for (size_t i = 0; i < op.request_count; ++i) {
    op.requests[i] = m_coalescer.request(i);
    op.waiters[i] = MemoryOp::Waiter{&op, uint16_t(i)};
    op.request_lanes[i] = 0;
  }
  op.placements = m_coalescer.placements();
  for_each_lane(
      r.lanes, [&](uint32_t lane) __attribute__((always_inline)) {
        const LanePlacement& p = op.placements[lane];
        for (uint8_t k = 0; k < p.piece_count; ++k)
          op.request_lanes[p.pieces[k].request] |= uint64_t{1} << lane;
      });
  op.next_request = 0;
  op.pieces_left = op.request_count;
  m_queue.push_back(&op);
}

uint64_t LdstUnit::step(uint64_t cycle) {
  const bool responses_arrive = !m_arrivals.empty() && m_arrivals.top().cycle <= cycle;
  while (!m_arrivals.empty() && m_arrivals.top().cycle <= cycle) {
    Outbound* outbound = m_arrivals.top().outbound;
    m_arrivals.pop();
    arrive(*outbound, cycle);
  }
  while (!m_hits.empty() && m_hits.top().cycle <= cycle) {
    MemoryOp* op = m_hits.top().op;
    m_hits.pop();
    piece_done(*op, cycle);
  }
  uint64_t next = UINT64_MAX;
  if (!m_queue.empty()) {
    MemoryOp& op = *m_queue.front();
    const uint64_t reaches_l1 = op.issue_cycle + m_pipeline_latency;
    if (reaches_l1 > cycle) {
      next = reaches_l1;
    } else if (head_stalled() && !responses_arrive) {
      // Nothing has come back that could let it in.
    } else if (take(op, op.next_request, cycle)) {
      if (head_stalled()) m_stats.l1_stall_cycles.inc(cycle - m_stalled_since);
      m_stalled_since = k_not_stalled;
      if (++op.next_request == op.request_count) m_queue.pop_front();
    } else if (!head_stalled()) {
      m_stalled_since = cycle;
    }
  }
  if (!m_queue.empty() && !head_stalled())
    next = std::min(next, std::max(cycle + 1, m_queue.front()->issue_cycle + m_pipeline_latency));
  if (!m_arrivals.empty()) next = std::min(next, m_arrivals.top().cycle);
  if (!m_hits.empty()) next = std::min(next, m_hits.top().cycle);
  return next;
}

bool LdstUnit::take(MemoryOp& op, size_t request, uint64_t cycle) {
  switch (op.request.kind) {
    case MemoryKind::load:
    case MemoryKind::texture:
      return take_load(op, request, cycle);
    case MemoryKind::store:
      take_store(op, request, cycle);
      return true;
    case MemoryKind::atomic:
    case MemoryKind::reduction:
      return take_atomic(op, request, cycle);
  }
  return true;
}

bool LdstUnit::take_load(MemoryOp& op, size_t request, uint64_t cycle) {
  const CoalescedRequest& r = op.requests[request];
  if (op.request.l2_only) {
    Outbound& out = new_outbound(GpuRequestKind::load, r.line_address, r.sector_mask, cycle);
    out.op = &op;
    out.request = uint16_t(request);
    m_stats.l1_bypasses.inc();
    m_send(out);
    return true;
  }
  const std::optional<SectorCache::LineIndex> present = m_l1.find(r.line_address);
  if (present && m_l1.has_sectors(*present, r.sector_mask) &&
      (r.sector_mask & stale_sectors(*present, r.line_address)) == 0) {
    m_l1.touch(*present);
    copy_lanes_from_l1(op, request, *present);
    m_hits.push(PieceDone{cycle + m_hit_latency, m_sequence++, &op});
    m_stats.l1_hits.inc();
    return true;
  }
  const uint32_t entry = m_mshrs.find(r.line_address);
  if (entry != MshrTable::npos) return take_load_into(op, request, entry, cycle);
  if (m_mshrs.full()) return false;
  std::optional<SectorCache::LineIndex> line = present;
  if (!line) {
    line = m_l1.allocate(r.line_address, m_victim);
    if (!line) return false;  // every way of the set waits for a fill
  }
  m_l1.touch(*line);
  m_l1.pin(*line);
  const uint32_t missing = r.sector_mask & ~m_l1.valid_sectors(*line);
  const MshrTable::Result added = m_mshrs.add(r.line_address, &op.waiters[request], missing);
  m_mshr_line[added.entry] = *line;
  m_mshr_stale[added.entry] = 0;
  m_mshr_failed[added.entry] = false;
  fetch(added.entry, missing, cycle);
  m_stats.l1_misses.inc();
  return true;
}

bool LdstUnit::take_load_into(MemoryOp& op, size_t request, uint32_t entry, uint64_t cycle) {
  const CoalescedRequest& r = op.requests[request];
  if (!m_mshrs.can_add(r.line_address)) return false;
  const uint32_t lacking = r.sector_mask & ~m_l1.valid_sectors(m_mshr_line[entry]);
  const uint32_t unfetched = lacking & ~m_mshrs.pending_sectors(entry);
  // Sectors a store, an atomic or a fence made stale after the fetch left are not the ones this
  // load must see, even once a fill made them valid again, and while some are stale the entry
  // takes no further fetch: wait for it to drain.
  const uint32_t stale = m_mshr_stale[entry];
  if ((r.sector_mask & stale) != 0 || (stale != 0 && unfetched != 0)) return false;
  m_mshrs.add(r.line_address, &op.waiters[request], lacking);
  m_stats.l1_misses.inc();
  if (unfetched == 0) {
    m_stats.l1_mshr_merges.inc();
  } else {
    fetch(entry, unfetched, cycle);
    m_stats.l1_added_fetches.inc();
  }
  return true;
}

void LdstUnit::fetch(uint32_t entry, uint32_t sectors, uint64_t cycle) {
  m_mshrs.add_fetch(entry, sectors);
  Outbound& out = new_outbound(GpuRequestKind::load, m_mshrs.line_of(entry), sectors, cycle);
  out.mshr = entry;
  m_send(out);
}

void LdstUnit::take_store(MemoryOp& op, size_t request, uint64_t cycle) {
  const CoalescedRequest& r = op.requests[request];
  Outbound& out = new_outbound(GpuRequestKind::store, r.line_address, r.sector_mask, cycle);
  out.op = &op;
  out.request = uint16_t(request);
  std::fill(out.enables.begin(), out.enables.end(), uint8_t(TLM_BYTE_DISABLED));
  std::optional<SectorCache::LineIndex> present = m_l1.find(r.line_address);
  // A fetch of the line in flight was answered before the store reaches L2, and the loads
  // waiting on it came before the store: the store's bytes may not go into the line for them.
  // Its sectors go stale as an atomic's do (take_atomic), and later loads of them wait.
  if (const uint32_t entry = entry_filling(present, r.line_address); entry != MshrTable::npos) {
    m_l1.invalidate_sectors(*present, r.sector_mask);
    m_mshr_stale[entry] |= r.sector_mask;
    present.reset();
  }
  for_each_lane(op.request_lanes[request], [&](uint32_t lane) {
    const LanePlacement& p = op.placements[lane];
    uint32_t lane_offset = 0;
    for (uint8_t k = 0; k < p.piece_count; ++k) {
      const LanePiece& piece = p.pieces[k];
      if (piece.request == request) {
        const uint8_t* bytes = op.request.data[lane].data() + lane_offset;
        std::memcpy(out.data.data() + piece.offset, bytes, piece.bytes);
        std::fill_n(out.enables.begin() + piece.offset, piece.bytes, uint8_t(TLM_BYTE_ENABLED));
        if (present) m_l1.write(*present, piece.offset, piece.bytes, bytes, nullptr);
      }
      lane_offset += piece.bytes;
    }
  });
  out.set_byte_enable_ptr(out.enables.data());
  out.set_byte_enable_length(m_line_bytes);
  m_stats.stores.inc();
  m_send(out);
}

bool LdstUnit::take_atomic(MemoryOp& op, size_t request, uint64_t cycle) {
  const CoalescedRequest& r = op.requests[request];
  // With two fetches of the line in flight, the first fill would make the atomic's sectors
  // valid again with their old bytes until the last: the atomic waits for the entry to drain.
  const uint32_t entry = m_mshrs.find(r.line_address);
  if (entry != MshrTable::npos && m_mshrs.fetches(entry) > 1) return false;
  Outbound& out = new_outbound(GpuRequestKind::atomic, r.line_address, r.sector_mask, cycle);
  out.op = &op;
  out.request = uint16_t(request);
  // The atomic runs at L2: the L1's copy of its sectors is stale from now on. A fetch of the
  // line already on its way was answered before the atomic ran, so its data for those sectors
  // may only serve the requests already waiting on it: later ones may not merge for them, and
  // the fill leaves them invalid.
  if (const std::optional<SectorCache::LineIndex> present = m_l1.find(r.line_address)) {
    m_l1.invalidate_sectors(*present, r.sector_mask);
    if (entry != MshrTable::npos) m_mshr_stale[entry] |= r.sector_mask;
  }
  for (uint32_t lane = 0; lane < Coalescer::k_max_lanes; ++lane) {
    const LanePlacement& p = op.placements[lane];
    if (p.piece_count == 0 || p.pieces[0].request != request) continue;
    AtomicLane a;
    a.offset = p.pieces[0].offset;
    a.type = op.request.type;
    a.op = op.request.atomic_op;
    a.b = op.request.operand_b[lane];
    a.c = op.request.operand_c[lane];
    out.extension.lanes.push_back(a);
  }
  m_stats.atomics.inc();
  m_send(out);
  return true;
}

LdstUnit::Outbound& LdstUnit::new_outbound(GpuRequestKind kind, uint64_t line, uint32_t sectors,
                                           uint64_t cycle) {
  if (m_free_outbound.empty()) {
    m_outbound.push_back(std::make_unique<Outbound>(this, m_line_bytes));
    m_free_outbound.push_back(m_outbound.back().get());
  }
  Outbound& out = *m_free_outbound.back();
  m_free_outbound.pop_back();
  start_line_request(out, out.extension, kind, m_sm, line, out.data.data(), m_line_bytes, sectors);
  out.op = nullptr;
  out.send_cycle = cycle + m_hit_latency;  // the L1 tag pipeline has found the miss / passed it
  out.acquire();
  ++m_in_flight;
  return out;
}

void LdstUnit::free(tlm::tlm_generic_payload* payload) {
  m_free_outbound.push_back(static_cast<Outbound*>(payload));
}

void LdstUnit::response(Outbound& outbound, uint64_t cycle) {
  m_arrivals.push(Arrival{cycle, m_sequence++, &outbound});
}

void LdstUnit::arrive(Outbound& out, uint64_t cycle) {
  --m_in_flight;
  const bool error = !out.is_response_ok();
  switch (out.extension.kind) {
    case GpuRequestKind::load: {
      if (out.op != nullptr) {  // past the L1: the bytes go to the op's lanes alone
        if (error) {
          out.op->error = true;
        } else {
          copy_lanes(*out.op, out.request, [&](uint32_t offset, uint32_t bytes, uint8_t* to) {
            std::memcpy(to, out.data.data() + offset, bytes);
          });
        }
        piece_done(*out.op, cycle);
        break;
      }
      const uint32_t entry = out.mshr;
      const SectorCache::LineIndex line = m_mshr_line[entry];
      if (error) {
        m_mshr_failed[entry] = true;
      } else {
        m_l1.fill(line, out.extension.sector_mask, out.data.data());
      }
      const bool drained = m_mshrs.fill(entry, out.extension.sector_mask, m_released);
      for (void* handle : m_released) {
        const auto* waiter = static_cast<const MemoryOp::Waiter*>(handle);
        if (m_mshr_failed[entry]) {
          waiter->op->error = true;
        } else {
          copy_lanes_from_l1(*waiter->op, waiter->request, line);
        }
        piece_done(*waiter->op, cycle);
      }
      if (drained) {
        m_l1.unpin(line);
        m_l1.invalidate_sectors(line, m_mshr_stale[entry]);
        m_mshr_stale[entry] = 0;
      }
      break;
    }
    case GpuRequestKind::store:
      if (error) out.op->error = true;
      piece_done(*out.op, cycle);
      break;
    case GpuRequestKind::atomic: {
      MemoryOp& op = *out.op;
      if (error) op.error = true;
      size_t next_lane = 0;
      for (uint32_t lane = 0; lane < Coalescer::k_max_lanes; ++lane) {
        const LanePlacement& p = op.placements[lane];
        if (p.piece_count == 0 || p.pieces[0].request != out.request) continue;
        const uint64_t old_value = out.extension.lanes[next_lane++].old_value;
        std::memcpy(op.request.data[lane].data(), &old_value, sizeof old_value);
      }
      piece_done(op, cycle);
      break;
    }
  }
  out.release();
}

template <class Read>
void LdstUnit::copy_lanes(MemoryOp& op, size_t request, const Read& read) {
  for_each_lane(op.request_lanes[request], [&](uint32_t lane) {
    const LanePlacement& p = op.placements[lane];
    uint32_t lane_offset = 0;
    for (uint8_t k = 0; k < p.piece_count; ++k) {
      const LanePiece& piece = p.pieces[k];
      if (piece.request == request)
        read(piece.offset, piece.bytes, op.request.data[lane].data() + lane_offset);
      lane_offset += piece.bytes;
    }
  });
}

void LdstUnit::copy_lanes_from_l1(MemoryOp& op, size_t request, SectorCache::LineIndex line) {
  copy_lanes(op, request, [&](uint32_t offset, uint32_t bytes, uint8_t* to) {
    m_l1.read(line, offset, bytes, to);
  });
}

uint32_t LdstUnit::entry_filling(std::optional<SectorCache::LineIndex> line,
                                 uint64_t line_address) const {
  // Only a line with a fetch in flight (pinned) has an MSHR entry: most lines need no look-up.
  return line && m_l1.is_pinned(*line) ? m_mshrs.find(line_address) : MshrTable::npos;
}

uint32_t LdstUnit::stale_sectors(SectorCache::LineIndex line, uint64_t line_address) const {
  const uint32_t entry = entry_filling(line, line_address);
  return entry == MshrTable::npos ? 0 : m_mshr_stale[entry];
}

void LdstUnit::invalidate_for_fence() {
  m_l1.invalidate_unpinned();
  // A line with a fetch in flight keeps it for the loads already waiting on it; its sectors go
  // once the fetch drains, as after an atomic (take_atomic), and later loads wait for that.
  for (uint32_t entry = 0; entry < m_mshrs.capacity(); ++entry) {
    if (!m_mshrs.in_use(entry)) continue;
    m_l1.invalidate_sectors(m_mshr_line[entry], m_l1.all_sectors());
    m_mshr_stale[entry] = m_l1.all_sectors();
  }
}

void LdstUnit::piece_done(MemoryOp& op, uint64_t cycle) {
  if (--op.pieces_left == 0) m_op_done(op, cycle);
}

}  // namespace ohmvp::gpu
