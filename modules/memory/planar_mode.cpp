#include "modules/memory/planar_mode.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <systemc>
#include <tlm>

#include "modules/common/errors.h"
#include "modules/common/sim_time.h"
#include "tlm_protocols/swap_cmd.h"

namespace ohmvp {

struct PlanarMode::Stats {
  Counter& migrations;
  Counter& migration_bytes;
  Counter& dram_requests;
  Counter& xpoint_requests;
  Counter& waited;
  Counter& masked_xpoint_writes;
  Histogram& migration_time;
  Stats(StatsRegistry& r, const std::string& g)
      : migrations(r.counter(g, "migrations", "swaps", "hot XPoint pages swapped into DRAM")),
        migration_bytes(r.counter(g, "swapped_bytes", "bytes",
                                  "bytes moved by swaps (both directions, read and write)")),
        dram_requests(r.counter(g, "dram_requests", "requests", "requests served by DRAM")),
        xpoint_requests(r.counter(g, "xpoint_requests", "requests", "requests served by XPoint")),
        waited(r.counter(g, "waited_for_swap", "requests",
                         "requests that waited for a swap of their page")),
        masked_xpoint_writes(r.counter(g, "masked_xpoint_writes", "requests",
                                       "byte-masked writes to XPoint, read-modify-written")),
        migration_time(r.histogram(g, "swap_time", "ps", "swap start to table update")) {}
};

PlanarMode::PlanarMode(const HeteroConfig& config, const HeteroLayout& layout,
                       HeteroBackEnds& back_ends, StatsRegistry& stats, const std::string& group)
    : m_config(config),
      m_layout(layout),
      m_back(back_ends),
      m_table(layout.groups, layout.xpoint_pages_per_group, config.page_groups),
      m_decay(make_counter_decay(config.decay)),
      m_hot(make_hot_page_policy(config.hot_page)),
      m_issue(make_migration_issue_policy(config.migration_issue)),
      m_counters(m_table, *m_decay),
      m_in_flight(m_table.pages(), 0),
      m_migrations(config.max_migrations),
      m_xpoint_end(config.register_buffer_bytes, stats, group),
      m_stats(std::make_unique<Stats>(stats, group)) {
  for (Migration& m : m_migrations) {
    m.from_dram.resize(config.page_bytes);
    m.from_xpoint.resize(config.page_bytes);
  }
}

bool PlanarMode::locate(uint64_t address, uint64_t& device_address) const {
  const uint64_t page = address / m_config.page_bytes;
  const uint64_t offset = address % m_config.page_bytes;
  const uint64_t group = m_table.group_of(page);
  const uint32_t slot = m_table.slot_of(page);
  if (slot == 0) {
    device_address = group * m_config.page_bytes + offset;
    return true;
  }
  device_address = m_table.xpoint_page_of_slot(group, slot) * m_config.page_bytes + offset;
  return false;
}

PlanarMode::Migration* PlanarMode::migration_of(uint64_t page) {
  if (m_active_migrations == 0) return nullptr;
  for (Migration& m : m_migrations) {
    if (m.phase != Phase::idle && (m.hot_page == page || m.resident_page == page)) return &m;
  }
  return nullptr;
}

void PlanarMode::submit(HeteroRequest& r) {
  r.page = r.address / m_config.page_bytes;
  r.stage = 0;
  m_counters.record(r.page);
  route(r);
  consider_swap(r.page);
  if (r.is_write && m_issue->tokens_per_write() != 0) {
    m_write_tokens += m_issue->tokens_per_write();
    pump_all();
  }
}

void PlanarMode::route(HeteroRequest& r) {
  if (Migration* m = migration_of(r.page)) {
    m_stats->waited.inc();
    m->waiters.push_back(&r);
    pump(*m);
    return;
  }
  issue(r);
}

void PlanarMode::issue(HeteroRequest& r) {
  uint64_t device_address = 0;
  const bool in_dram = locate(r.address, device_address);
  ++m_in_flight.at(r.page);
  if (!r.is_write) ++m_reads_in_flight;
  r.to_dram = in_dram;
  if (in_dram) {
    m_stats->dram_requests.inc();
    if (r.is_write) {
      m_back.dram_write(device_address, r.data, r.masked ? r.enable : nullptr, r.length,
                        Traffic::regular, r.id);
    } else {
      ++m_dram_reads_in_flight;
      m_back.dram_read(device_address, r.length, Traffic::regular, r.id);
      // A swap holding its presets now holds this read back too: it must not wait for it.
      if (m_config.swap_cmd) pump_all();
    }
    return;
  }
  m_stats->xpoint_requests.inc();
  if (!r.is_write) {
    m_back.xpoint_read(device_address, r.length, Traffic::regular, r.id);
  } else if (!r.masked) {
    m_back.xpoint_write(device_address, r.data, r.length, Traffic::regular, r.id);
  } else {
    // DDR-T writes carry no byte enables: read the burst, merge, write it back whole. The
    // manager keeps requests to one burst in order, so nothing slips in between.
    m_stats->masked_xpoint_writes.inc();
    r.stage = 1;
    m_back.xpoint_read(device_address - device_address % 64, 64, Traffic::regular, r.id);
  }
}

void PlanarMode::request_done(HeteroRequest& r, const uint8_t* data) {
  if (r.stage == 1) {
    // The read half of a masked XPoint write: merge and write the whole burst.
    std::memcpy(r.line, data, 64);
    merge_into_line(r, r.line);
    uint64_t device_address = 0;
    locate(r.address, device_address);
    r.stage = 2;
    m_back.xpoint_write(device_address - device_address % 64, r.line, 64, Traffic::regular, r.id);
    return;
  }
  if (!r.is_write) std::memcpy(r.payload->get_data_ptr(), data, r.length);
  const uint64_t page = r.page;
  const bool was_read = !r.is_write;
  const bool was_dram_read = was_read && r.to_dram;
  --m_in_flight.at(page);
  m_back.answer(r);
  m_back.retire(r);
  if (was_read) {
    --m_reads_in_flight;
    if (was_dram_read) --m_dram_reads_in_flight;
    pump_all();
  }
  if (m_in_flight[page] != 0) return;
  for (Migration& m : m_migrations) {
    if (m.phase == Phase::draining && m_in_flight[m.hot_page] == 0 &&
        m_in_flight[m.resident_page] == 0) {
      start_reads(m);
    }
  }
}

void PlanarMode::consider_swap(uint64_t page) {
  if (m_table.in_dram(page) || m_active_migrations == m_config.max_migrations) return;
  const uint64_t group = m_table.group_of(page);
  const uint64_t resident = m_table.dram_resident(group);
  if (migration_of(page) != nullptr || migration_of(resident) != nullptr) return;
  if (!m_hot->is_hot(m_counters.count(page), m_counters.count(resident))) return;
  Migration* m = nullptr;
  for (Migration& candidate : m_migrations) {
    if (candidate.phase == Phase::idle) {
      m = &candidate;
      break;
    }
  }
  m->phase = Phase::draining;
  m->hot_page = page;
  m->resident_page = resident;
  uint64_t address = 0;
  locate(page * m_config.page_bytes, address);
  m->xpoint_base = address;
  m->dram_base = group * m_config.page_bytes;
  m->start_ps = kernel_now_ps();
  ++m_active_migrations;
  m_back.migration_in_flight(m_active_migrations);
  if (m_in_flight[page] == 0 && m_in_flight[resident] == 0) start_reads(*m);
}

uint64_t PlanarMode::token(const Migration& m, Kind kind, uint64_t burst) const {
  const uint64_t index = static_cast<uint64_t>(&m - m_migrations.data());
  return migration_token | (index << 40) | (uint64_t{kind} << 32) | burst;
}

void PlanarMode::start_reads(Migration& m) {
  if (m_config.swap_cmd) {
    if (presets_held()) {
      m.phase = Phase::awaiting_banks;
    } else {
      start_preset(m);
    }
    return;
  }
  m.phase = Phase::reading;
  if (m_config.auto_rw) m.bursts_read.assign(bursts(), 0);
  m.outstanding = 2 * bursts();
  for (uint32_t b = 0; b < bursts(); ++b) {
    m.queued.push_back(Transfer{dram_read, b});
    m.queued.push_back(Transfer{xpoint_read, b});
  }
  pump(m);
}

void PlanarMode::start_writes(Migration& m) {
  m.phase = Phase::writing;
  // With auto-read/write the DRAM page is on its way into XPoint already (snarfed).
  m.outstanding = (m_config.auto_rw ? 1 : 2) * bursts();
  for (uint32_t b = 0; b < bursts(); ++b) {
    m.queued.push_back(Transfer{dram_write, b});
    if (!m_config.auto_rw) m.queued.push_back(Transfer{xpoint_write, b});
  }
  pump(m);
}

void PlanarMode::pump(Migration& m) {
  // A read the register buffer has no room for yet stays queued; the writes behind it make room.
  size_t next = 0;
  while (next < m.queued.size()) {
    const MigrationIssueState state{m_reads_in_flight, m_write_tokens, has_waiters(m)};
    if (!m_issue->may_issue(state)) return;
    if (!buffer_room_for(m.queued[next])) {
      ++next;
      continue;
    }
    if (m_issue->takes_write_token(state)) --m_write_tokens;
    const Transfer t = m.queued[next];
    m.queued.erase(m.queued.begin() + static_cast<std::ptrdiff_t>(next));
    send(m, t);
  }
}

bool PlanarMode::has_waiters(const Migration& m) const {
  // With SWAP-CMD a swap's transfers are queued only while it holds its bank presets. A front
  // read to another row of a preset bank waits for the swap to end; as a read in flight it would
  // hold the swap back (MigrationWithWrites) and neither would move. The manager does not see
  // the banks, so it counts every DRAM read in flight as one such.
  return !m.waiters.empty() || (m_config.swap_cmd && m_dram_reads_in_flight != 0);
}

bool PlanarMode::buffer_room_for(Transfer& t) {
  if (!m_config.swap_cmd || (t.kind != dram_read && t.kind != xpoint_read)) return true;
  if (m_xpoint_end.reserve(64)) return true;
  if (!t.waited) m_xpoint_end.held();
  t.waited = true;
  return false;
}

void PlanarMode::pump_all() {
  for (Migration& m : m_migrations) {
    if (!m.queued.empty()) pump(m);
  }
  const bool queued = std::any_of(m_migrations.begin(), m_migrations.end(),
                                  [](const Migration& m) { return !m.queued.empty(); });
  if (!queued) m_write_tokens = 0;  // room made by writes is not saved up
}

void PlanarMode::send(Migration& m, const Transfer& t) {
  const uint64_t offset = uint64_t{t.burst} * 64;
  const uint64_t tok = token(m, t.kind, t.burst);
  // With SWAP-CMD these are the XPoint controller's sequence generator's: DRAM bursts on the
  // memory route, XPoint data kept at its end.
  const Traffic traffic = m_config.swap_cmd ? Traffic::memory_route : Traffic::migration;
  switch (t.kind) {
    case dram_read:
      m_back.dram_read(m.dram_base + offset, 64, traffic, tok);
      return;
    case xpoint_read:
      m_back.xpoint_read(m.xpoint_base + offset, 64, traffic, tok);
      return;
    case dram_write:
      m_back.dram_write(m.dram_base + offset, m.from_xpoint.data() + offset, nullptr, 64, traffic,
                        tok);
      return;
    case xpoint_write:
      if (m_config.swap_cmd) {
        m_back.xpoint_snarfed_write(m.xpoint_base + offset, m.from_dram.data() + offset, 64, tok);
      } else {
        m_back.xpoint_write(m.xpoint_base + offset, m.from_dram.data() + offset, 64, traffic, tok);
      }
      return;
    default:
      throw std::logic_error("PlanarMode: not a data transfer");
  }
}

void PlanarMode::migration_done(uint64_t t, const uint8_t* data, bool crossed) {
  Migration& m = m_migrations[(t >> 40) & 0xffff];
  const Kind kind = static_cast<Kind>((t >> 32) & 0xff);
  const uint64_t burst = t & 0xffffffff;
  if (m_config.swap_cmd) {
    swap_cmd_done(m, kind, burst, data);
    return;
  }
  if (kind == xpoint_write && m_config.auto_rw) {
    // A snarfed write done; the swap may be waiting for it.
    if (--m.snarfed_outstanding == 0 && m.phase == Phase::writing && m.outstanding == 0) finish(m);
    return;
  }
  if (kind == dram_read) std::memcpy(m.from_dram.data() + burst * 64, data, 64);
  if (kind == xpoint_read) std::memcpy(m.from_xpoint.data() + burst * 64, data, 64);
  if (m_config.auto_rw && (kind == dram_read || kind == xpoint_read)) {
    // The XPoint controller snarfed the DRAM burst on its way to the controller and writes it
    // into the hot page's place itself, once it has read that place out. A burst the DRAM
    // controller answered from its write queue never crossed: the controller sends it.
    m.bursts_read[burst] |= kind == xpoint_read ? xpoint_in
                            : crossed           ? dram_in
                                                : dram_in | dram_queued;
    if ((m.bursts_read[burst] & both_in) == both_in) {
      ++m.snarfed_outstanding;
      const uint64_t address = m.xpoint_base + burst * 64;
      const uint8_t* bytes = m.from_dram.data() + burst * 64;
      if ((m.bursts_read[burst] & dram_queued) == 0) {
        m_back.xpoint_snarfed_write(address, bytes, 64, token(m, xpoint_write, burst));
      } else {
        m_back.xpoint_write(address, bytes, 64, Traffic::migration, token(m, xpoint_write, burst));
      }
    }
  }
  if (--m.outstanding != 0) return;
  if (m.phase == Phase::reading) {
    start_writes(m);
  } else if (m.snarfed_outstanding == 0) {
    finish(m);
  }
}

// SWAP-CMD crosses as its wire form (tlm_protocols/swap_cmd.h: DRAM address, XPoint address,
// size, direction in 24 bytes) and the ready signal as a SwapCompletion (8 bytes): modelling
// choices, the paper gives no message formats. The XPoint end drives the swap from the command
// it decodes, and the controller finishes it on the completion it decodes.

void PlanarMode::start_preset(Migration& m) {
  m.phase = Phase::presetting;
  m.outstanding = bursts();
  for (uint32_t b = 0; b < bursts(); ++b) {
    m_back.dram_preset(m.dram_base + uint64_t{b} * 64, token(m, preset, b));
  }
}

bool PlanarMode::presets_held() const {
  return std::any_of(m_migrations.begin(), m_migrations.end(), [](const Migration& m) {
    return m.phase >= Phase::presetting && m.phase <= Phase::releasing;
  });
}

PlanarMode::Migration* PlanarMode::next_awaiting_banks() {
  Migration* next = nullptr;
  for (Migration& m : m_migrations) {
    if (m.phase == Phase::awaiting_banks && (next == nullptr || m.start_ps < next->start_ps))
      next = &m;
  }
  return next;
}

void PlanarMode::swap_cmd_done(Migration& m, Kind kind, uint64_t burst, const uint8_t* data) {
  switch (kind) {
    case preset:
      if (--m.outstanding != 0) return;
      m.phase = Phase::commanding;
      send_swap_command(m);
      return;
    case swap_command:
      take_swap_command(m, data);
      m.phase = Phase::moving;
      m.moved_bytes = 0;
      m.bursts_read.assign(bursts(), 0);
      m.outstanding = 4 * bursts();
      for (uint32_t b = 0; b < bursts(); ++b) {
        m.queued.push_back(Transfer{dram_read, b});
        m.queued.push_back(Transfer{xpoint_read, b});
      }
      pump(m);
      return;
    case dram_read:
    case xpoint_read:
      std::memcpy((kind == dram_read ? m.from_dram : m.from_xpoint).data() + burst * 64, data, 64);
      m.bursts_read[burst] |= kind == dram_read ? dram_in : xpoint_in;
      if (m.bursts_read[burst] == both_in) {
        // Both halves of this burst are out: each may go into the other's place.
        m.queued.push_back(Transfer{dram_write, static_cast<uint32_t>(burst)});
        m.queued.push_back(Transfer{xpoint_write, static_cast<uint32_t>(burst)});
        pump(m);
      }
      --m.outstanding;
      return;
    case dram_write:
    case xpoint_write:
      // The burst has left the register buffer: into DRAM, or taken by the XPoint controller.
      m_xpoint_end.release(64);
      m.moved_bytes += 64;
      if (!m.queued.empty()) pump(m);
      if (--m.outstanding != 0) return;
      m.phase = Phase::signalling;
      send_swap_completion(m);
      return;
    case swap_ready:
      take_swap_completion(data);
      m.phase = Phase::releasing;
      m.outstanding = bursts();
      for (uint32_t b = 0; b < bursts(); ++b) {
        m_back.dram_release(m.dram_base + uint64_t{b} * 64, token(m, release, b));
      }
      return;
    case release:
      if (--m.outstanding == 0) finish(m);
      return;
  }
}

void PlanarMode::send_swap_command(Migration& m) {
  SwapCommand command;
  command.dram_address = m.dram_base;
  command.xpoint_address = m.xpoint_base;
  command.size = m_config.page_bytes;
  command.direction = SwapDirection::exchange;
  const SwapCommandBytes bytes = encode(command);
  m_back.control_message(bytes.data(), swap_command_bytes, token(m, swap_command, 0));
}

void PlanarMode::take_swap_command(Migration& m, const uint8_t* data) {
  SwapCommand command;
  if (data == nullptr || !decode(data, command) || command.direction != SwapDirection::exchange ||
      command.size != m_config.page_bytes)
    throw SimulationError("SWAP-CMD: the XPoint end received no page exchange it can perform");
  // The XPoint controller's DDR sequence generator knows the pages from the command alone.
  m.dram_base = command.dram_address;
  m.xpoint_base = command.xpoint_address;
}

void PlanarMode::send_swap_completion(Migration& m) {
  SwapCompletion completion;
  completion.bytes_moved = static_cast<uint32_t>(m.moved_bytes);  // page_bytes is at most 1 MiB
  const auto bytes = encode(completion);
  m_back.control_message(bytes.data(), swap_completion_bytes, token(m, swap_ready, 0));
}

void PlanarMode::take_swap_completion(const uint8_t* data) const {
  SwapCompletion completion;
  if (data == nullptr || !decode_completion(data, completion) ||
      completion.status != SwapStatus::ok || completion.bytes_moved != 2 * m_config.page_bytes)
    throw SimulationError("SWAP-CMD: the XPoint end reported a swap that did not complete");
}

void PlanarMode::finish(Migration& m) {
  m_table.swap_with_dram(m.hot_page);
  m_counters.clear(m.hot_page);
  m_counters.clear(m.resident_page);
  m_stats->migrations.inc();
  // Both pages read, both written (with auto-read/write one write rides on a read).
  m_stats->migration_bytes.inc(4ull * m_config.page_bytes);
  m_stats->migration_time.sample(kernel_now_ps() - m.start_ps);
  m.phase = Phase::idle;
  --m_active_migrations;
  m_back.migration_in_flight(m_active_migrations);
  std::deque<HeteroRequest*> waiters;
  waiters.swap(m.waiters);
  for (HeteroRequest* r : waiters) route(*r);
  if (Migration* next = next_awaiting_banks()) start_preset(*next);
}

PlanarMode::~PlanarMode() = default;

}  // namespace ohmvp
