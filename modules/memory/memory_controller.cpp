#include "modules/memory/memory_controller.h"

#include <algorithm>
#include <cstring>
#include <iterator>

#include "modules/common/errors.h"
#include "modules/memory/dram_access_extension.h"
#include "modules/memory/front_request_checks.h"
#include "tlm_protocols/byte_enables.h"

namespace ohmvp {

struct MemoryController::Stats {
  Counter& reads;
  Counter& writes;
  Counter& read_bytes;
  Counter& write_bytes;
  Counter& forwarded_reads;
  Counter& merged_writes;
  Counter& row_hits;
  Counter& row_misses;
  Counter& row_conflicts;
  Counter& refreshes;
  Counter& backpressure;
  Counter& intake_waits;
  Counter& presets;
  std::vector<Counter*> commands;
  Histogram& read_latency;

  Stats(StatsRegistry& r, const std::string& g)
      : reads(r.counter(g, "reads", "requests", "read requests served")),
        writes(r.counter(g, "writes", "requests", "write requests accepted")),
        read_bytes(r.counter(g, "read_bytes", "bytes", "bytes read by requests")),
        write_bytes(r.counter(g, "write_bytes", "bytes", "bytes written by requests")),
        forwarded_reads(
            r.counter(g, "forwarded_reads", "requests", "reads answered from the write queue")),
        merged_writes(r.counter(g, "merged_writes", "requests",
                                "writes merged into a queued write to the same burst")),
        row_hits(r.counter(g, "row_hits", "requests", "column accesses to an already open row")),
        row_misses(r.counter(g, "row_misses", "requests", "accesses that opened a closed bank")),
        row_conflicts(r.counter(g, "row_conflicts", "requests",
                                "accesses that had to close another row first")),
        refreshes(r.counter(g, "refreshes", "commands", "all-bank refresh commands")),
        backpressure(
            r.counter(g, "backpressure", "requests", "requests that waited for queue space")),
        intake_waits(r.counter(g, "intake_waits", "requests",
                               "requests that arrived in a clock whose intake was taken")),
        presets(r.counter(g, "bank_presets", "requests",
                          "Ohm-GPU bank presets: rows opened and held for a swap")),
        read_latency(r.histogram(g, "read_latency", "ps", "read request arrival to last data")) {
    for (unsigned c = 0; c < ddr_command_count; ++c) {
      const char* name = to_string(static_cast<DdrCommand>(c));
      commands.push_back(&r.counter(g, std::string("cmd_") + name, "commands",
                                    std::string(name) + " commands issued"));
    }
  }
};

struct MemoryController::Trace {
  std::vector<TraceSignal> bank_state;  // 0 idle, 1 active, 2 refresh
  TraceSignal read_queue;
  TraceSignal write_queue;
  TraceSignal write_mode;
};

enum BankTraceState : uint64_t { bank_idle = 0, bank_active = 1, bank_refresh = 2 };

MemoryController::MemoryController(sc_core::sc_module_name name, const ControllerConfig& config,
                                   const DramGeometry& geometry, const DramTiming& timing,
                                   uint32_t bus_bytes, StatsRegistry& stats, VcdWriter* vcd)
    : sc_module(name),
      in("in"),
      out("out"),
      m_config(config),
      m_geometry(geometry),
      m_timing(timing),
      m_mapper(config.address_mapping, geometry, bus_bytes,
               std::string(this->name()) + ".address_mapping"),
      m_checker(geometry, timing),
      m_scheduler(make_scheduler(config.scheduler, config.row_hit_cap)),
      m_page_policy(make_page_policy(config.page_policy)),
      m_banks(geometry.total_banks()),
      m_pool(m_mapper.burst_bytes()),
      m_burst_buffer(m_mapper.burst_bytes()),
      m_rank_refreshed(geometry.ranks, false),
      m_stats(std::make_unique<Stats>(stats, this->name())),
      m_trace(std::make_unique<Trace>()) {
  in.bind(*this);
  out.bind(*this);
  m_command.set_extension(&m_command_extension);
  m_next_refresh = timing.REFI;

  m_trace->bank_state.resize(m_banks.size());
  for (size_t b = 0; b < m_banks.size(); ++b) {
    m_trace->bank_state[b].attach(vcd, this->name(), "bank" + std::to_string(b) + "_state", 2);
  }
  m_trace->read_queue.attach(vcd, this->name(), "read_queue_depth", 16);
  m_trace->write_queue.attach(vcd, this->name(), "write_queue_depth", 16);
  m_trace->write_mode.attach(vcd, this->name(), "write_drain", 1);

  SC_METHOD(run);
  sensitive << m_wake;
  dont_initialize();
  if (m_config.refresh) wake_at(ps(m_next_refresh));
}

MemoryController::~MemoryController() {
  m_command.clear_extension(&m_command_extension);
}

void MemoryController::wake_at(uint64_t time_ps) {
  if (time_ps >= m_wake_ps) return;
  m_wake_ps = time_ps;
  if (!m_running) notify_wake();
}

void MemoryController::notify_wake() {
  if (m_wake_ps <= m_now_ps) {
    m_wake.notify(sc_core::SC_ZERO_TIME);
  } else if (m_wake_ps != UINT64_MAX) {
    m_wake.notify(kernel_delay_of_ps(m_wake_ps - m_now_ps));
  }
}

void MemoryController::run() {
  m_wake_ps = UINT64_MAX;
  m_running = true;
  update_now();
  const uint64_t now = m_now_ps;
  send_due_responses(now);
  const uint64_t cycle = (now + m_timing.tCK_ps - 1) / m_timing.tCK_ps;
  if (ps(cycle) != now) {
    wake_at(ps(cycle));
  } else {
    retry_pending();
    schedule_commands(cycle);
  }
  m_running = false;
  notify_wake();
}

// ---- Front side --------------------------------------------------------------------------

bool MemoryController::validate(tlm::tlm_generic_payload& p, const DramAccessExtension* ohm) const {
  const uint64_t address = p.get_address();
  const uint32_t length = p.get_data_length();
  const bool control = ohm != nullptr && ohm->kind != DramAccessExtension::Kind::access;
  // Presets and releases are TLM_IGNORE_COMMAND, nothing else is; the memory route needs one.
  if ((p.get_command() == tlm::TLM_IGNORE_COMMAND) != control ||
      (ohm != nullptr && ohm->memory_route && m_memory_route == nullptr)) {
    p.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return false;
  }
  if (!m_mapper.contains(address) || length == 0 || !m_mapper.contains(address + length - 1)) {
    p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return false;
  }
  if (m_mapper.burst_offset(address) + length > m_mapper.burst_bytes() ||
      p.get_streaming_width() < length) {
    p.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return false;
  }
  // Writes may carry byte enables (a cache writing back part of a sector); reads may not.
  if (p.get_byte_enable_ptr() != nullptr && (p.is_read() || p.get_byte_enable_length() == 0)) {
    p.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    return false;
  }
  return true;
}

tlm::tlm_sync_enum MemoryController::nb_transport_fw(tlm::tlm_generic_payload& payload,
                                                     tlm::tlm_phase& phase,
                                                     sc_core::sc_time& delay) {
  update_now();
  if (phase == tlm::END_RESP) {
    m_waiting_end_resp = false;
    wake_at(m_now_ps);
    return tlm::TLM_COMPLETED;
  }
  if (phase != tlm::BEGIN_REQ) {
    SC_REPORT_ERROR(name(), "unexpected phase on the front socket");
    return tlm::TLM_COMPLETED;
  }
  check_front_request(*this, payload, delay, m_pending != nullptr);
  auto* ohm = payload.get_extension<DramAccessExtension>();
  if (!validate(payload, ohm)) return tlm::TLM_COMPLETED;
  const Location where = locate(payload.get_address());
  if (ohm != nullptr && ohm->kind == DramAccessExtension::Kind::release) {
    release_preset(payload, where);
    phase = tlm::END_REQ;
    return tlm::TLM_UPDATED;
  }
  const Arrival arrival = arrival_of(payload, ohm, m_now_ps, where);
  // Nothing enters the queues while a request waits, so a queue with room now still has it at
  // the next clock edge, and a full one stays full until a column command frees an entry.
  const bool no_room = queue_full(payload.is_write()) && takes_entry(arrival);
  const bool intake_taken = intake_cycle() == m_intake_cycle;
  if (no_room || intake_taken) {
    m_pending = &payload;
    m_pending_arrival_ps = m_now_ps;
    m_pending_location = where;
    m_pending_ohm = ohm;
    m_pending_for_space = no_room;
    if (intake_taken) m_stats->intake_waits.inc();
    if (no_room) {
      m_stats->backpressure.inc();
    } else {
      wake_at(next_edge_ps());
    }
    return tlm::TLM_ACCEPTED;
  }
  accept(arrival);                                      // it has room, or needs none
  if (posted(payload, ohm)) return tlm::TLM_COMPLETED;  // complete once queued
  phase = tlm::END_REQ;
  return tlm::TLM_UPDATED;
}

bool MemoryController::posted(const tlm::tlm_generic_payload& payload,
                              const DramAccessExtension* ohm) {
  // A memory-route write is answered when its burst is across: the XPoint controller's sequence
  // generator (or, for a reverse write, the controller's DDR monitor) waits for it.
  return payload.is_write() && (ohm == nullptr || !ohm->memory_route);
}

MemoryController::Location MemoryController::locate(uint64_t address) const {
  const uint32_t offset = static_cast<uint32_t>(m_mapper.burst_offset(address));
  return Location{address - offset, offset, m_mapper.decode(address - offset)};
}

MemoryController::Arrival MemoryController::arrival_of(tlm::tlm_generic_payload& payload,
                                                       DramAccessExtension* ohm,
                                                       uint64_t arrival_ps, const Location& where) {
  BankMachine& bank = bank_of(where.address);
  return Arrival{payload,
                 ohm,
                 where.burst,
                 where.offset,
                 where.address,
                 bank,
                 newest_to_burst(bank, where.burst),
                 arrival_ps};
}

bool MemoryController::accept(const Arrival& arrival) {
  const bool accepted = arrival.payload.is_write() ? accept_write(arrival) : accept_read(arrival);
  if (accepted) m_intake_cycle = intake_cycle();
  return accepted;
}

bool MemoryController::takes_entry(const Arrival& a) const {
  const ControllerRequest* newest = a.newest;
  if (newest == nullptr || !newest->is_write) return true;
  // A burst between the devices is the DRAM's to send or take: a memory-route request is never
  // answered from or merged into the controller's queue, nor a request from or into one.
  if (newest->memory_route || (a.ohm != nullptr && a.ohm->memory_route)) return true;
  if (a.payload.is_write()) return false;  // merged into the queued write
  if (!a.payload.is_read()) return true;   // a bank preset is never answered from a write
  const uint32_t length = a.payload.get_data_length();
  return !std::all_of(newest->enabled.begin() + a.offset,
                      newest->enabled.begin() + a.offset + length,
                      [](uint8_t e) { return e != 0; });  // not answered from its bytes
}

void MemoryController::release_preset(tlm::tlm_generic_payload& payload, const Location& where) {
  BankMachine& bank = bank_of(where.address);
  if (bank.pinned()) {
    bank.unpin();
    --m_pins;
  }
  m_plan_valid = false;
  payload.set_response_status(tlm::TLM_OK_RESPONSE);
  payload.acquire();
  respond_at(next_edge_ps(), payload, m_now_ps);
  wake_at(m_now_ps);
}

bool MemoryController::queue_full(bool writes) const {
  const uint32_t queued = writes ? m_writes_queued : m_reads_queued;
  const uint32_t limit = writes ? m_config.write_queue : m_config.read_queue;
  if (queued < limit || m_pins == 0) return queued >= limit;
  // Requests a bank preset holds back (to another row of a preset bank) wait outside the
  // queue's count: otherwise they could fill it and lock out the swap that would free them.
  uint32_t held = 0;
  for (const BankMachine* busy : m_busy_banks) {
    const BankMachine& bank = *busy;
    if (!bank.pinned()) continue;
    for (const ControllerRequest* r : writes ? bank.writes() : bank.reads()) {
      if (!bank.serves(*r)) ++held;
    }
  }
  return queued - held >= limit;
}

bool MemoryController::accept_read(const Arrival& a) {
  const uint32_t length = a.payload.get_data_length();
  if (!takes_entry(a)) {
    std::memcpy(a.payload.get_data_ptr(), a.newest->data.data() + a.offset, length);
    if (a.ohm != nullptr) a.ohm->from_queue = true;  // no burst of its own
    a.payload.set_response_status(tlm::TLM_OK_RESPONSE);
    a.payload.acquire();
    m_stats->forwarded_reads.inc();
    m_stats->reads.inc();
    m_stats->read_bytes.inc(length);
    // Answered from the queue at the next clock edge (a modelling choice: the controller's
    // front-end pipeline takes up to one cycle).
    respond_at(next_edge_ps(), a.payload, a.arrival_ps);
    return true;
  }
  if (queue_full(false)) return false;
  a.payload.acquire();
  enqueue(a, false);
  return true;
}

bool MemoryController::accept_write(const Arrival& a) {
  const uint32_t length = a.payload.get_data_length();
  ControllerRequest* target = a.newest;
  const bool memory_route = a.ohm != nullptr && a.ohm->memory_route;
  if (!takes_entry(a)) {
    m_stats->merged_writes.inc();
    if (a.ohm != nullptr) a.ohm->from_queue = true;  // no burst of its own
  } else {
    if (queue_full(true)) return false;
    target = enqueue(a, true);
  }
  const uint8_t* data = a.payload.get_data_ptr();
  const uint8_t* byte_enable = a.payload.get_byte_enable_ptr();
  uint32_t written = length;
  if (byte_enable == nullptr) {
    std::memcpy(target->data.data() + a.offset, data, length);
    std::memset(target->enabled.data() + a.offset, 0xff, length);
  } else {
    const uint32_t pattern = a.payload.get_byte_enable_length();
    written = 0;
    for (uint32_t i = 0; i < length; ++i) {
      if (byte_enable[i % pattern] != TLM_BYTE_ENABLED) continue;
      target->data[a.offset + i] = data[i];
      target->enabled[a.offset + i] = 0xff;
      ++written;
    }
  }
  a.payload.set_response_status(tlm::TLM_OK_RESPONSE);
  if (memory_route) a.payload.acquire();
  m_stats->writes.inc();
  m_stats->write_bytes.inc(written);
  return true;
}

ControllerRequest* MemoryController::enqueue(const Arrival& a, bool is_write) {
  ControllerRequest* r = m_pool.acquire();
  r->payload = posted(a.payload, a.ohm) ? nullptr : &a.payload;
  r->address = a.address;
  r->burst_address = a.burst;
  r->offset = a.offset;
  r->length = a.payload.get_data_length();
  r->arrival_ps = a.arrival_ps;
  r->sequence = m_sequence++;
  r->is_write = is_write;
  r->memory_route = a.ohm != nullptr && a.ohm->memory_route;
  r->preset = a.ohm != nullptr && a.ohm->kind == DramAccessExtension::Kind::preset;
  if (is_write && r->memory_route) ++m_memory_route_writes;
  if (is_write) std::fill(r->enabled.begin(), r->enabled.end(), 0);
  r->row_state = ControllerRequest::RowState::hit;

  BankMachine& bank = a.bank;
  if (a.newest != nullptr) {
    a.newest->next_same_burst = r;
    r->blocked = true;
    if (awaits_write(*a.newest)) ++m_writes_awaited;
  }
  if (!bank.has_requests()) m_busy_banks.push_back(&bank);
  bank.enqueue(r);
  m_plan_valid = false;
  (is_write ? m_writes_queued : m_reads_queued)++;
  m_queue_counts_changed = true;
  trace_queues();

  // Wake no earlier than this request's own next command could issue.
  const uint64_t cycle =
      std::max<uint64_t>((m_now_ps + m_timing.tCK_ps - 1) / m_timing.tCK_ps, m_next_command_cycle);
  if (!r->blocked) {
    const bool close = m_page_policy->auto_precharge(*r, bank.reads(), bank.writes());
    const DdrCommand command = bank.next_command(*r, close);
    wake_at(ps(std::max(cycle, m_checker.earliest(command, r->address))));
  }
  return r;
}

void MemoryController::retry_pending() {
  if (m_pending == nullptr) return;
  tlm::tlm_generic_payload& payload = *m_pending;
  // Refused for want of space in its queue, it was neither a read the write queue could answer
  // nor a write to merge. Requests to its burst leave oldest first, so that cannot have changed;
  // only space can let it in.
  if (m_pending_for_space && queue_full(payload.is_write())) return;
  if (intake_cycle() == m_intake_cycle) {
    wake_at(next_edge_ps());
    return;
  }
  DramAccessExtension* ohm = m_pending_ohm;
  if (!accept(arrival_of(payload, ohm, m_pending_arrival_ps, m_pending_location))) {
    // Taken in a clock after it arrived, it found no longer what it found then: the write that
    // could answer it or take its bytes has gone to DRAM, and its queue is full.
    if (!m_pending_for_space) m_stats->backpressure.inc();
    m_pending_for_space = true;
    return;
  }
  m_pending = nullptr;
  if (posted(payload, ohm)) {
    payload.acquire();
    respond_at(m_now_ps, payload, m_pending_arrival_ps);
    return;
  }
  tlm::tlm_phase phase = tlm::END_REQ;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  in->nb_transport_bw(payload, phase, delay);
}

void MemoryController::respond_at(uint64_t time_ps, tlm::tlm_generic_payload& payload,
                                  uint64_t arrival_ps) {
  // After every response due no later, most often at the back.
  auto place = m_responses.end();
  while (place != m_responses.begin() && std::prev(place)->time_ps > time_ps) --place;
  m_responses.insert(place, Response{time_ps, &payload, arrival_ps});
  wake_at(m_waiting_end_resp ? UINT64_MAX : m_responses.front().time_ps);
}

void MemoryController::send_due_responses(uint64_t now) {
  while (!m_waiting_end_resp && !m_responses.empty() && m_responses.front().time_ps <= now) {
    const Response r = m_responses.front();
    m_responses.pop_front();
    if (r.payload->is_read()) m_stats->read_latency.sample(r.time_ps - r.arrival_ps);
    tlm::tlm_phase phase = tlm::BEGIN_RESP;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    if (in->nb_transport_bw(*r.payload, phase, delay) == tlm::TLM_ACCEPTED) {
      m_waiting_end_resp = true;
    }
    r.payload->release();
  }
  if (!m_waiting_end_resp && !m_responses.empty()) wake_at(m_responses.front().time_ps);
  // A read's response is often the last thing it holds.
  if (m_on_idle && has_no_requests()) m_on_idle();
}

void MemoryController::trace_queues() {
  m_trace->read_queue.set(m_reads_queued, m_now_ps);
  m_trace->write_queue.set(m_writes_queued, m_now_ps);
}

ControllerRequest* MemoryController::newest_to_burst(const BankMachine& bank,
                                                     uint64_t burst) const {
  // Requests to one burst share a bank; each queue is in arrival order, so look from the back.
  ControllerRequest* newest = nullptr;
  if (!bank.may_hold(burst)) return newest;
  for (bool writes : {false, true}) {
    const auto& queue = writes ? bank.writes() : bank.reads();
    for (auto it = queue.rbegin(); it != queue.rend(); ++it) {
      if ((*it)->burst_address != burst) continue;
      if (newest == nullptr || (*it)->sequence > newest->sequence) newest = *it;
      break;
    }
  }
  return newest;
}

// ---- Command scheduling ------------------------------------------------------------------

bool MemoryController::update_write_mode() {
  // A memory-route write is driven by the XPoint controller, which waits for it: the controller
  // turns to writes at once (for a reverse write it stops issuing reads meanwhile). So it does
  // for a write a queued read waits for. Otherwise writes are drained from the high watermark
  // down to the low one, but after min_writes_per_switch of them waiting reads go first again,
  // for at least min_reads_per_switch reads.
  // The mode is a function of the queue counts, the commands served in it and itself that, once
  // updated, stays: worked out again only after the counts changed (a served command changes
  // them too).
  if (!m_queue_counts_changed) return false;
  m_queue_counts_changed = false;
  bool mode;
  if (m_memory_route_writes > 0 || m_writes_awaited > 0) {
    mode = true;
  } else if (m_writes_queued == 0) {
    mode = false;
  } else if (m_reads_queued == 0) {
    mode = true;
  } else if (!m_write_mode) {
    mode = m_writes_queued >= m_config.write_high_watermark &&
           m_served_in_mode >= m_config.min_reads_per_switch;
  } else {
    mode = m_writes_queued > m_config.write_low_watermark &&
           m_served_in_mode < m_config.min_writes_per_switch;
  }
  if (mode == m_write_mode) return false;
  m_write_mode = mode;
  m_served_in_mode = 0;
  m_trace->write_mode.set(mode, m_now_ps);
  return true;
}

const BankMachine::Choice& MemoryController::rechoose(BankMachine& bank, bool writes) {
  BankMachine::Choice& choice = bank.choice(writes);
  choice.known = true;
  if (!choice.request_holds) {
    const auto& queue = writes ? bank.writes() : bank.reads();
    const Scheduler::Pick pick =
        m_scheduler->pick(queue, bank.is_open(), bank.open_row(), bank.hits_ahead());
    choice.position = pick.position;
    choice.bypasses = pick.bypasses;
    if (choice.position != Scheduler::npos && !bank.serves(*queue[choice.position])) {
      // The bank is preset for a swap: only its row is served; requests to others wait.
      choice.position = Scheduler::npos;
      choice.bypasses = false;
      for (size_t i = 0; i < queue.size(); ++i) {
        if (!queue[i]->blocked && bank.serves(*queue[i])) {
          choice.position = i;
          break;
        }
      }
    }
    if (choice.position == Scheduler::npos) {
      choice.bank_ready = UINT64_MAX;
      choice.shared_index = 0;
      choice.tie_break = UINT64_MAX;
      return choice;
    }
    choice.request = queue[choice.position];
  }
  const ControllerRequest& r = *choice.request;
  choice.command = bank.next_command(r, false);
  if (is_column(choice.command) && !bank.pinned() &&
      m_page_policy->auto_precharge(r, bank.reads(), bank.writes())) {
    choice.command = bank.next_command(r, true);
  }
  choice.bank_ready = m_checker.bank_earliest(choice.command, r.address);
  choice.shared_index = m_checker.shared_index(choice.command, r.address);
  choice.tie_break = (is_column(choice.command) ? 0 : uint64_t{1} << 63) | r.sequence;
  return choice;
}

MemoryController::Candidate MemoryController::find_request_candidate(bool writes) {
  // earliest() of each bank's command is its bank part (kept with the choice) and the part its
  // bank group and rank share, read from one table for all banks.
  const uint64_t* shared = m_checker.shared_table();
  BankMachine* best_bank = nullptr;
  uint64_t best_earliest = UINT64_MAX;
  uint64_t best_tie_break = UINT64_MAX;
  for (BankMachine* bank : m_busy_banks) {
    const BankMachine::Choice& choice = choose(*bank, writes);
    // This bank cannot beat the best so far (equal times may still win the tie-break).
    if (choice.bank_ready > best_earliest) continue;
    // A preset of an open row sends nothing: only its bank (the row being ready) holds it.
    const bool commandless =
        choice.bank_ready != UINT64_MAX && choice.request->preset && is_column(choice.command);
    const uint64_t earliest =
        commandless ? choice.bank_ready : std::max(choice.bank_ready, shared[choice.shared_index]);
    if (earliest < best_earliest ||
        (earliest == best_earliest && choice.tie_break < best_tie_break)) {
      best_bank = bank;
      best_earliest = earliest;
      best_tie_break = choice.tie_break;
    }
  }
  if (best_tie_break == UINT64_MAX) return Candidate{};
  const BankMachine::Choice& best = best_bank->choice(writes);
  return Candidate{
      true,          best.command, best.request->address, size_t(best_bank - m_banks.data()),
      best.position, best.request, best_earliest,         best.bypasses};
}

uint64_t MemoryController::refresh_due_cycle() const {
  // DDR4 lets the controller postpone up to eight refreshes (JESD79-4, "Refresh Command"). A
  // bank preset must keep its row open for the swap's sequence generator (OHM_FUNCTIONS.md,
  // SWAP-CMD step 1), so while one is in force the refresh waits for its release, at most that
  // long.
  constexpr uint64_t max_postponed = 8;
  return m_pins == 0 ? m_next_refresh : m_next_refresh + max_postponed * m_timing.REFI;
}

MemoryController::Candidate MemoryController::find_refresh_candidate() const {
  Candidate best;
  for (uint32_t rank = 0; rank < m_geometry.ranks; ++rank) {
    if (m_rank_refreshed[rank]) continue;
    const size_t first = size_t(rank) * m_geometry.banks();
    const bool any_open =
        std::any_of(m_banks.begin() + first, m_banks.begin() + first + m_geometry.banks(),
                    [](const BankMachine& b) { return b.is_open(); });
    DramAddress address;
    address.rank = Rank{rank};
    const DdrCommand command = any_open ? DdrCommand::PREA : DdrCommand::REF;
    const uint64_t earliest = m_checker.earliest(command, address);
    if (!best.valid || earliest < best.earliest) {
      best = Candidate{true, command, address, first, 0, nullptr, earliest, false};
    }
  }
  return best;
}

MemoryController::Candidate MemoryController::find_candidate() {
  if (m_refresh_due) return find_refresh_candidate();
  Candidate c = find_request_candidate(m_write_mode);
  if (!c.valid) c = find_request_candidate(!m_write_mode);
  return c;
}

void MemoryController::schedule_commands(uint64_t now) {
  if (m_config.refresh && !m_refresh_due && now >= refresh_due_cycle()) {
    m_refresh_due = true;
    m_plan_valid = false;
  }
  if (update_write_mode()) m_plan_valid = false;
  for (;;) {
    if (!m_plan_valid) {
      m_plan = find_candidate();
      m_plan_valid = true;
    }
    const uint64_t refresh_wake =
        m_config.refresh && !m_refresh_due ? refresh_due_cycle() : UINT64_MAX;
    if (!m_plan.valid) {
      if (refresh_wake != UINT64_MAX) wake_at(ps(refresh_wake));
      return;
    }
    const bool commandless = is_commandless(m_plan);
    uint64_t when = commandless ? m_plan.earliest : std::max(m_plan.earliest, m_next_command_cycle);
    if (is_column(m_plan.command) && !commandless) {
      const DataBus* bus = bus_of(*m_plan.request);
      // From now at the earliest: a plan that could have issued before this wake-up (a request
      // arriving later woke the controller) finds its burst's slot from the cycle it issues in.
      if (bus != nullptr) when = first_free_data_slot(*bus, m_plan.command, std::max(when, now));
    }
    if (when > now) {
      wake_at(ps(std::min(when, refresh_wake)));
      return;
    }
    m_plan_valid = false;
    if (issue(m_plan, now)) m_next_command_cycle = now + 1;
    update_write_mode();
  }
}

uint64_t MemoryController::first_free_data_slot(const DataBus& bus, DdrCommand command,
                                                uint64_t cycle) const {
  const uint64_t delay = is_read(command) ? m_timing.CL : m_timing.CWL;
  const uint64_t burst = ps(m_timing.BURST);
  for (;;) {
    const uint64_t start = ps(cycle + delay);
    const uint64_t free = bus.earliest_free(start, burst);
    if (free == start) return cycle;
    cycle = (free + m_timing.tCK_ps - 1) / m_timing.tCK_ps - delay;
  }
}

bool MemoryController::is_commandless(const Candidate& c) {
  return c.request != nullptr && c.request->preset && is_column(c.command);
}

bool MemoryController::issue(const Candidate& c, uint64_t now) {
  if (is_commandless(c)) {
    // The row is open already: the preset needs no command, and takes no command-bus cycle.
    retire_preset(c, ps(now));
    return false;
  }
  m_checker.record(c.command, c.address, now);
  m_stats->commands[static_cast<unsigned>(c.command)]->inc();
  const uint64_t now_time = ps(now);

  if (c.command == DdrCommand::PREA || c.command == DdrCommand::REF) {
    const size_t first = c.bank;
    for (size_t b = first; b < first + m_geometry.banks(); ++b) {
      m_banks[b].apply(c.command, Row{});
      if (c.command == DdrCommand::PREA) {
        m_trace->bank_state[b].set(bank_idle, now_time);
      } else {
        m_trace->bank_state[b].set(bank_refresh, now_time);
        m_trace->bank_state[b].set(bank_idle, now_time + ps(m_timing.RFC));
      }
    }
    send_command(c.command, c.address, nullptr);
    if (c.command == DdrCommand::REF) finish_refresh_of_rank(c.address.rank);
    return true;
  }

  BankMachine& bank = m_banks[c.bank];
  ControllerRequest& r = *c.request;
  if (c.bypasses) bank.count_hit_ahead();
  bank.apply(c.command, c.address.row);
  if ((c.command == DdrCommand::PRE || c.command == DdrCommand::ACT) && !bank.pinned()) {
    bank.keep_choice(r.is_write);
  }
  if (c.command == DdrCommand::PRE) {
    r.row_state = ControllerRequest::RowState::conflict;
  } else if (c.command == DdrCommand::ACT && r.row_state == ControllerRequest::RowState::hit) {
    r.row_state = ControllerRequest::RowState::miss;
  }
  m_trace->bank_state[c.bank].set(bank.is_open() ? bank_active : bank_idle, now_time);
  send_command(c.command, c.address, &r);
  if (is_column(c.command)) retire(c, now);
  if (r.preset && c.command == DdrCommand::ACT) retire_preset(c, ps(now + m_timing.RCD));
  return true;
}

void MemoryController::send_command(DdrCommand command, const DramAddress& address,
                                    ControllerRequest* request) {
  m_command_extension.address = address;
  m_command_extension.burst = m_geometry.burst_length;
  m_command_extension.memory_route = request != nullptr && request->memory_route;
  m_command.set_address(request ? request->burst_address : 0);
  m_command.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  m_command.set_byte_enable_ptr(nullptr);
  m_command.set_byte_enable_length(0);
  if (is_column(command)) {
    const uint64_t delay = is_read(command) ? m_timing.CL : m_timing.CWL;
    m_command_extension.data_start_ps = m_now_ps + ps(delay);
    m_command_extension.data_end_ps = m_now_ps + ps(delay + m_timing.BURST);
    const uint32_t burst_bytes = m_mapper.burst_bytes();
    m_command.set_data_length(burst_bytes);
    m_command.set_streaming_width(burst_bytes);
    if (is_read(command)) {
      m_command.set_command(tlm::TLM_READ_COMMAND);
      m_command.set_data_ptr(m_burst_buffer.data());
    } else {
      m_command.set_command(tlm::TLM_WRITE_COMMAND);
      m_command.set_data_ptr(request->data.data());
      const bool full = std::memchr(request->enabled.data(), 0, burst_bytes) == nullptr;
      if (!full) {
        m_command.set_byte_enable_ptr(request->enabled.data());
        m_command.set_byte_enable_length(burst_bytes);
      }
    }
  } else {
    m_command.set_command(tlm::TLM_IGNORE_COMMAND);
    m_command.set_data_ptr(nullptr);
    m_command.set_data_length(0);
  }
  tlm::tlm_phase phase = to_phase(command);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  out->nb_transport_fw(m_command, phase, delay);
  if (m_command.is_response_error()) {
    throw SimulationError(std::string(name()) + ": DRAM device rejected " + to_string(command) +
                          ": " + m_command.get_response_string());
  }
}

void MemoryController::dequeue(const Candidate& c) {
  ControllerRequest* r = c.request;
  BankMachine& bank = m_banks[c.bank];
  bank.remove(r->is_write, c.position);
  if (!bank.has_requests()) {
    auto it = std::find(m_busy_banks.begin(), m_busy_banks.end(), &bank);
    *it = m_busy_banks.back();
    m_busy_banks.pop_back();
  }
  (r->is_write ? m_writes_queued : m_reads_queued)--;
  m_queue_counts_changed = true;
  if (r->is_write && r->memory_route) --m_memory_route_writes;
  if (awaits_write(*r)) --m_writes_awaited;
  if (ControllerRequest* next = r->next_same_burst) {
    next->blocked = false;
    if (awaits_write(*next)) ++m_writes_awaited;
    bank.forget_choices();
  }
}

void MemoryController::retire_preset(const Candidate& c, uint64_t ready_ps) {
  ControllerRequest* r = c.request;
  dequeue(c);
  m_banks[c.bank].pin(r->address.row);
  ++m_pins;
  m_stats->presets.inc();
  tlm::tlm_generic_payload& payload = *r->payload;
  payload.set_response_status(tlm::TLM_OK_RESPONSE);
  respond_at(ready_ps, payload, r->arrival_ps);
  m_pool.release(r);
  trace_queues();
  retry_pending();
}

void MemoryController::retire(const Candidate& c, uint64_t now) {
  ControllerRequest* r = c.request;
  if (r->is_write == m_write_mode) ++m_served_in_mode;
  dequeue(c);
  switch (r->row_state) {
    case ControllerRequest::RowState::hit:
      m_stats->row_hits.inc();
      break;
    case ControllerRequest::RowState::miss:
      m_stats->row_misses.inc();
      break;
    case ControllerRequest::RowState::conflict:
      m_stats->row_conflicts.inc();
      break;
  }
  // Memory-route data goes between the devices, WOM-coded perhaps (longer on the light).
  const uint64_t light =
      r->memory_route ? m_memory_route->occupied_ps(ps(m_timing.BURST)) : ps(m_timing.BURST);
  const uint64_t across =
      ps(now + (r->is_write ? m_timing.CWL : m_timing.CL)) + light + m_data_latency_ps;
  m_data_end_ps = std::max(m_data_end_ps, across);
  if (!r->is_write) {
    tlm::tlm_generic_payload& payload = *r->payload;
    std::memcpy(payload.get_data_ptr(), m_burst_buffer.data() + r->offset, r->length);
    payload.set_response_status(tlm::TLM_OK_RESPONSE);
    m_stats->reads.inc();
    m_stats->read_bytes.inc(r->length);
    respond_at(across, payload, r->arrival_ps);
  } else if (r->payload != nullptr) {
    respond_at(across, *r->payload, r->arrival_ps);
  }
  m_pool.release(r);
  ++m_column_commands;
  trace_queues();
  retry_pending();
  if (m_on_idle && has_no_requests()) m_on_idle();
}

void MemoryController::finish_refresh_of_rank(Rank rank) {
  m_rank_refreshed[index(rank)] = true;
  m_stats->refreshes.inc();
  if (std::all_of(m_rank_refreshed.begin(), m_rank_refreshed.end(), [](bool b) { return b; })) {
    std::fill(m_rank_refreshed.begin(), m_rank_refreshed.end(), false);
    m_refresh_due = false;
    // On the tREFI grid: refreshes a bank preset postponed are owed, and come back to back
    // (each due at once) until the grid is reached again.
    m_next_refresh += m_timing.REFI;
  }
}

// ---- Back side and debug access -----------------------------------------------------------

tlm::tlm_sync_enum MemoryController::nb_transport_bw(tlm::tlm_generic_payload&, tlm::tlm_phase&,
                                                     sc_core::sc_time&) {
  SC_REPORT_ERROR(name(), "the ddr protocol has no backward calls");
  return tlm::TLM_COMPLETED;
}

void MemoryController::debug_access(tlm::tlm_generic_payload& payload) {
  // One burst at a time through the device's debug interface, at the burst's channel address.
  const uint32_t burst_bytes = m_mapper.burst_bytes();
  const uint32_t length = payload.get_data_length();
  std::vector<uint8_t> enables =
      payload.is_write() ? unrolled_byte_enables(payload) : std::vector<uint8_t>{};
  // The extension is cleared however the loop ends: a payload frees the extensions it still
  // holds, and this one lives on the stack (a store that runs out of memory throws).
  struct DebugPayload : tlm::tlm_generic_payload {
    DdrExtension extension;
    DebugPayload() { set_extension(&extension); }
    ~DebugPayload() override { clear_extension(&extension); }
  } debug;
  DdrExtension& extension = debug.extension;
  debug.set_command(payload.get_command());
  for (uint32_t done = 0; done < length;) {
    const uint64_t address = payload.get_address() + done;
    const uint64_t offset = m_mapper.burst_offset(address);
    const uint32_t chunk =
        static_cast<uint32_t>(std::min<uint64_t>(length - done, burst_bytes - offset));
    extension.address = m_mapper.decode(address - offset);
    debug.set_address(address);
    debug.set_data_ptr(payload.get_data_ptr() + done);
    debug.set_data_length(chunk);
    debug.set_byte_enable_ptr(enables.empty() ? nullptr : enables.data() + done);
    debug.set_byte_enable_length(enables.empty() ? 0 : chunk);
    out->transport_dbg(debug);
    done += chunk;
  }
}

unsigned int MemoryController::transport_dbg(tlm::tlm_generic_payload& payload) {
  const uint64_t address = payload.get_address();
  const uint32_t length = payload.get_data_length();
  if (length == 0 || !m_mapper.contains(address) || !m_mapper.contains(address + length - 1)) {
    return 0;
  }
  if (payload.get_command() == tlm::TLM_IGNORE_COMMAND) return 0;  // nothing moves (TLM-2.0 11.3)
  debug_access(payload);
  return length;
}

// Loosely-timed access for loading and functional runs: the data moves at once and the delay
// is annotated with a closed-bank access (tRCD + tCL + burst); it does not contend with the
// approximately-timed traffic.
void MemoryController::b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) {
  const uint64_t address = payload.get_address();
  const uint32_t length = payload.get_data_length();
  if (payload.get_command() == tlm::TLM_IGNORE_COMMAND) {
    payload.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  if (length == 0 || !m_mapper.contains(address) || !m_mapper.contains(address + length - 1)) {
    payload.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  debug_access(payload);
  delay += sc_core::sc_time::from_value(ps(m_timing.RCD + m_timing.CL + m_timing.BURST));
  payload.set_response_status(tlm::TLM_OK_RESPONSE);
}

}  // namespace ohmvp
