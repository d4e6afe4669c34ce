#include "modules/memory/paged_mode.h"

#include <cstring>
#include <systemc>
#include <tlm>

namespace ohmvp {

struct PagedMode::Stats {
  Counter& faults;
  Counter& evictions;
  Counter& writebacks;
  Counter& to_device_bytes;
  Counter& to_host_bytes;
  Counter& dram_requests;
  Counter& hits;
  Counter& misses;
  Counter& waited;
  Counter& blocked;
  Histogram& fault_time;
  Stats(StatsRegistry& r, const std::string& g)
      : faults(r.counter(g, "migrations", "faults",
                         "page faults: pages brought into DRAM from host memory")),
        evictions(r.counter(g, "evictions", "pages", "pages given up to make room")),
        writebacks(r.counter(g, "writebacks", "pages",
                             "evicted pages written back to host memory (dirty)")),
        to_device_bytes(r.counter(g, "host_to_device_bytes", "bytes", "bytes paged in over PCIe")),
        to_host_bytes(r.counter(g, "device_to_host_bytes", "bytes", "bytes paged out over PCIe")),
        dram_requests(r.counter(g, "dram_requests", "requests", "requests served by DRAM")),
        hits(r.counter(g, "page_hits", "requests", "requests whose page was in DRAM on arrival")),
        misses(r.counter(g, "page_misses", "requests",
                         "requests whose page was not in DRAM on arrival (or on its way)")),
        waited(r.counter(g, "waited_for_fault", "requests",
                         "requests that waited for a fault on their page")),
        blocked(r.counter(g, "waited_for_fault_slot", "requests",
                          "faulting requests that waited for a free fault slot")),
        fault_time(r.histogram(g, "fault_time", "ps", "fault to its page mapped in DRAM")) {}
};

PagedMode::PagedMode(const HeteroConfig& config, const HeteroLayout& layout,
                     HeteroBackEnds& back_ends, StatsRegistry& stats, const std::string& group)
    : m_config(config),
      m_layout(layout),
      m_back(back_ends),
      m_table(layout.capacity_bytes / config.page_bytes, layout.frames),
      m_in_flight(m_table.pages(), 0),
      m_faults(config.max_migrations),
      m_stats(std::make_unique<Stats>(stats, group)) {
  for (Fault& f : m_faults) {
    f.victim_data.resize(config.page_bytes);
    f.page_data.resize(config.page_bytes);
  }
}

PagedMode::~PagedMode() = default;

bool PagedMode::locate(uint64_t address, uint64_t& dram_address) const {
  const uint64_t page = address / m_config.page_bytes;
  if (!m_table.resident(page)) return false;
  dram_address = frame_base(m_table.frame_of(page)) + address % m_config.page_bytes;
  return true;
}

PagedMode::Fault* PagedMode::fault_of(uint64_t page) {
  if (m_active_faults == 0) return nullptr;
  for (Fault& f : m_faults) {
    if (f.phase == Phase::idle) continue;
    if (f.page == page && !f.page_in) return &f;
    if (f.has_victim && f.victim == page && !f.victim_out) return &f;
  }
  return nullptr;
}

PagedMode::Fault* PagedMode::free_fault() {
  if (m_active_faults == m_config.max_migrations) return nullptr;
  for (Fault& f : m_faults) {
    if (f.phase == Phase::idle) return &f;
  }
  return nullptr;
}

void PagedMode::submit(HeteroRequest& r) {
  r.page = r.address / m_config.page_bytes;
  r.stage = 0;
  (m_table.resident(r.page) ? m_stats->hits : m_stats->misses).inc();
  route(r);
}

void PagedMode::route(HeteroRequest& r) {
  if (Fault* f = fault_of(r.page)) {
    // A request routed again after a wait is counted once per kind of wait.
    if ((r.stage & waited_for_fault) == 0) m_stats->waited.inc();
    r.stage |= waited_for_fault;
    f->waiters.push_back(&r);
    return;
  }
  if (m_table.resident(r.page)) {
    issue(r);
    return;
  }
  Fault* f = free_fault();
  // A fault needs a slot and a frame: a free one, or one mapped that it can take over (every
  // frame may be on its way in for other faults).
  if (f == nullptr || !start_fault(*f, r.page)) {
    if ((r.stage & waited_for_slot) == 0) m_stats->blocked.inc();
    r.stage |= waited_for_slot;
    m_blocked.push_back(&r);
    return;
  }
  f->waiters.push_back(&r);
}

void PagedMode::issue(HeteroRequest& r) {
  const uint32_t frame = m_table.frame_of(r.page);
  const uint64_t address = frame_base(frame) + r.address % m_config.page_bytes;
  ++m_in_flight.at(r.page);
  m_stats->dram_requests.inc();
  if (r.is_write) {
    m_table.mark_dirty(frame);
    m_back.dram_write(address, r.data, r.masked ? r.enable : nullptr, r.length, Traffic::regular,
                      r.id);
  } else {
    m_back.dram_read(address, r.length, Traffic::regular, r.id);
  }
}

void PagedMode::request_done(HeteroRequest& r, const uint8_t* data) {
  if (!r.is_write) std::memcpy(r.payload->get_data_ptr(), data, r.length);
  const uint64_t page = r.page;
  --m_in_flight.at(page);
  m_back.answer(r);
  m_back.retire(r);
  if (m_in_flight[page] != 0) return;
  for (Fault& f : m_faults) {
    if (f.phase == Phase::draining && f.victim == page) evict(f);
  }
}

bool PagedMode::start_fault(Fault& f, uint64_t page) {
  uint32_t frame = m_table.take_free_frame();
  f.has_victim = false;
  if (frame == PageFrameTable::none) {
    frame = m_table.oldest_frame();
    if (frame == PageFrameTable::none) return false;
    f.victim_dirty = m_table.dirty(frame);
    f.victim = m_table.unmap(frame);
    f.has_victim = true;
    m_stats->evictions.inc();
  }
  const uint64_t now = sc_core::sc_time_stamp().value();
  f.phase = Phase::draining;
  f.page = page;
  f.frame = frame;
  f.page_in = false;
  f.page_across = false;
  f.filling = false;
  f.victim_read = !f.has_victim;
  f.victim_out = !f.has_victim;
  f.start_ps = now;
  ++m_active_faults;
  m_stats->faults.inc();
  m_back.migration_in_flight(m_active_faults);
  // The host handles the fault, then the page crosses PCIe; meanwhile the frame is emptied.
  m_stats->to_device_bytes.inc(m_config.page_bytes);
  m_back.host_transfer(true, m_config.page_bytes,
                       now + static_cast<uint64_t>(m_config.fault_ns * 1000.0 + 0.5),
                       token(f, fetch, 0));
  if (!f.has_victim || m_in_flight[f.victim] == 0) evict(f);
  return true;
}

void PagedMode::evict(Fault& f) {
  f.phase = Phase::active;
  if (!f.has_victim) return;
  if (!f.victim_dirty) {
    // Host memory still holds what the victim holds: nothing to read or write back. The frame
    // is free now; the page may already have crossed PCIe while the victim's requests drained
    // (a slow channel), and then nothing else would start its fill.
    f.victim_read = true;
    fill(f);
    release_victim(f);
    return;
  }
  f.outstanding = bursts();
  for (uint64_t b = 0; b < bursts(); ++b) {
    m_back.dram_read(frame_base(f.frame) + b * 64, 64, Traffic::migration,
                     token(f, victim_read, b));
  }
}

void PagedMode::fill(Fault& f) {
  if (!f.victim_read || !f.page_across || f.filling) return;
  f.filling = true;
  f.outstanding = bursts();
  for (uint64_t b = 0; b < bursts(); ++b) {
    m_back.dram_write(frame_base(f.frame) + b * 64, f.page_data.data() + b * 64, nullptr, 64,
                      Traffic::migration, token(f, page_write, b));
  }
}

uint64_t PagedMode::token(const Fault& f, Kind kind, uint64_t burst) const {
  const uint64_t index = static_cast<uint64_t>(&f - m_faults.data());
  return migration_token | (index << 40) | (uint64_t{kind} << 32) | burst;
}

void PagedMode::migration_done(uint64_t t, const uint8_t* data) {
  Fault& f = m_faults[(t >> 40) & 0xffff];
  const Kind kind = static_cast<Kind>((t >> 32) & 0xff);
  const uint64_t burst = t & 0xffffffff;
  switch (kind) {
    case victim_read:
      std::memcpy(f.victim_data.data() + burst * 64, data, 64);
      if (--f.outstanding != 0) return;
      f.victim_read = true;
      m_stats->writebacks.inc();
      m_stats->to_host_bytes.inc(m_config.page_bytes);
      m_back.host_transfer(false, m_config.page_bytes, 0, token(f, writeback, 0));
      fill(f);
      return;
    case writeback:
      m_host.write(f.victim * m_config.page_bytes, f.victim_data.data(), m_config.page_bytes);
      release_victim(f);
      return;
    case fetch:
      m_host.read(f.page * m_config.page_bytes, f.page_data.data(), m_config.page_bytes);
      f.page_across = true;
      fill(f);
      return;
    case page_write:
      if (--f.outstanding != 0) return;
      m_table.map(f.page, f.frame);
      f.page_in = true;
      m_stats->fault_time.sample(sc_core::sc_time_stamp().value() - f.start_ps);
      release(f);
      return;
  }
}

void PagedMode::release_victim(Fault& f) {
  f.victim_out = true;
  release(f);
}

void PagedMode::release(Fault& f) {
  if (f.page_in && f.victim_out) {
    f.phase = Phase::idle;
    --m_active_faults;
    m_back.migration_in_flight(m_active_faults);
  }
  // Waiters for a page this fault no longer holds go on; the others queue here again.
  std::deque<HeteroRequest*> waiters;
  waiters.swap(f.waiters);
  for (HeteroRequest* r : waiters) route(*r);
  retry_blocked();
}

void PagedMode::retry_blocked() {
  std::deque<HeteroRequest*> blocked;
  blocked.swap(m_blocked);
  for (HeteroRequest* r : blocked) route(*r);
}

}  // namespace ohmvp
