#include "modules/xpoint/xpoint_controller.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <optional>
#include <string>

#include "modules/common/errors.h"
#include "modules/common/sim_time.h"

namespace ohmvp {

namespace {

// Byte masks hold 0xff where a write has a byte and 0 elsewhere, so a word of a mask selects
// whole bytes. `n` is a multiple of 8 (a line is a power of two of at least 64 bytes).
void merge_masked(uint8_t* out, const uint8_t* data, const uint8_t* mask, size_t n) {
  for (size_t i = 0; i < n; i += 8) {
    uint64_t o, d, m;
    std::memcpy(&o, out + i, 8);
    std::memcpy(&d, data + i, 8);
    std::memcpy(&m, mask + i, 8);
    o = (o & ~m) | (d & m);
    std::memcpy(out + i, &o, 8);
  }
}

void or_mask(uint8_t* mask, const uint8_t* other, size_t n) {
  for (size_t i = 0; i < n; i += 8) {
    uint64_t a, b;
    std::memcpy(&a, mask + i, 8);
    std::memcpy(&b, other + i, 8);
    a |= b;
    std::memcpy(mask + i, &a, 8);
  }
}

// Bit c set for each 64-byte chunk c of the line whose bytes the mask covers whole.
uint64_t whole_chunks(const std::vector<uint8_t>& mask) {
  uint64_t chunks = 0;
  for (size_t c = 0; c * sec_ded::data_bytes < mask.size(); ++c) {
    const auto first = mask.begin() + static_cast<std::ptrdiff_t>(c * sec_ded::data_bytes);
    if (std::all_of(first, first + sec_ded::data_bytes, [](uint8_t b) { return b != 0; }))
      chunks |= uint64_t{1} << c;
  }
  return chunks;
}

// Whether bytes [offset, offset + size) of a line lie in a chunk set in `chunks`.
bool touches_chunks(uint64_t chunks, uint32_t offset, uint32_t size) {
  if (chunks == 0 || size == 0) return false;
  const uint32_t first = offset / sec_ded::data_bytes;
  const uint32_t last = (offset + size - 1) / sec_ded::data_bytes;
  for (uint32_t c = first; c <= last; ++c)
    if ((chunks >> c & 1u) != 0) return true;
  return false;
}

}  // namespace

struct XPointController::ReadSlot {
  bool used = false;
  bool announced = false;       // RSP_READY sent; SEND may come
  uint64_t bad_chunks = 0;      // 64-byte chunks of its line the ECC could not correct
  bool buffer_checked = false;  // looked for in the write buffer once in the domain
  bool join_checked = false;    // looked for a running media read of its line once
  uint32_t partition = 0;       // of its line when accepted
  uint16_t tag = 0;
  tlm::tlm_generic_payload* payload = nullptr;
  uint64_t logical_line = 0;
  uint32_t offset = 0;
  uint32_t size = 0;
  uint64_t request_ps = 0;  // REQ on the channel
  uint64_t domain_ps = 0;   // in the controller's domain, once accepted
  std::vector<uint8_t> data;
};

struct XPointController::IngressWrite {
  tlm::tlm_generic_payload* payload = nullptr;
  uint16_t tag = 0;
  uint64_t logical_line = 0;
  uint64_t domain_ps = 0;
  bool counted_full = false;     // already counted as waiting for a full buffer
  std::vector<uint8_t> data;     // at the line's offsets
  std::vector<uint8_t> enabled;  // 0xff where the write has a byte
};

struct XPointController::WriteEntry {
  bool used = false;
  bool draining = false;
  uint32_t partition = 0;  // of its line when buffered
  uint64_t logical_line = 0;
  uint64_t sequence = 0;  // age: lower is older
  std::vector<uint8_t> data;
  std::vector<uint8_t> enabled;
};

struct XPointController::MediaOp {
  enum Kind : uint8_t { read, drain, copy };
  Kind kind;
  uint32_t index;  // read slot or write entry
  uint64_t done_ps;
  // A read whose line has taken no write since it started: later reads of the line share it.
  bool joinable = false;
};

struct XPointController::Message {
  uint64_t time_ps;
  uint64_t sequence;
  tlm::tlm_phase phase;
  tlm::tlm_generic_payload* payload;
  bool operator>(const Message& o) const {
    return time_ps != o.time_ps ? time_ps > o.time_ps : sequence > o.sequence;
  }
};

struct XPointController::Stats {
  Counter& reads;
  Counter& writes;
  Counter& read_bytes;
  Counter& write_bytes;
  Counter& buffer_read_hits;
  Counter& merged_writes;
  Counter& media_reads;
  Counter& joined_reads;
  Counter& media_writes;
  Counter& rmw_writes;
  Counter& media_bytes_written;
  Counter& gap_moves;
  Counter& media_busy_ps;
  Counter& read_backpressure;
  Counter& write_buffer_full;
  Counter& ecc_corrected;
  Counter& ecc_uncorrectable;
  Histogram& read_latency;
  Histogram& write_latency;
  Average& read_buffer_occupancy;
  Average& write_buffer_occupancy;
  Scalar& write_amplification;
  Scalar& wear_max;
  Scalar& wear_mean;
  Scalar& wear_max_over_mean;
  Scalar& lifetime_fraction;
  Scalar& endurance_used;
  Scalar& media_utilisation;

  Stats(StatsRegistry& r, const std::string& g)
      : reads(r.counter(g, "reads", "requests", "DDR-T read requests served")),
        writes(r.counter(g, "writes", "requests", "DDR-T write requests made persistent")),
        read_bytes(r.counter(g, "read_bytes", "bytes", "bytes read by requests")),
        write_bytes(r.counter(g, "write_bytes", "bytes", "bytes written by requests")),
        buffer_read_hits(r.counter(g, "buffer_read_hits", "requests",
                                   "reads answered from the persistent write buffer")),
        merged_writes(r.counter(g, "merged_writes", "requests",
                                "writes merged into a buffered write to the same media line")),
        media_reads(r.counter(g, "media_reads", "lines",
                              "media line reads (requests, read-modify-writes, gap moves)")),
        joined_reads(r.counter(g, "joined_reads", "requests",
                               "reads answered by a media read of their line already running")),
        media_writes(
            r.counter(g, "media_writes", "lines", "media line writes of drained buffer lines")),
        rmw_writes(r.counter(g, "rmw_writes", "lines",
                             "drained lines not fully written, so read-modify-written")),
        media_bytes_written(r.counter(g, "media_bytes_written", "bytes",
                                      "bytes written to the media by drains (not gap moves)")),
        gap_moves(r.counter(g, "gap_moves", "moves", "Start-Gap gap moves (one line copy each)")),
        media_busy_ps(r.counter(g, "media_busy_ps", "ps",
                                "partition time in media operations, summed over the partitions "
                                "(a gap-move copy holds two)")),
        read_backpressure(r.counter(g, "read_backpressure", "requests",
                                    "reads refused at first for a full read buffer")),
        write_buffer_full(r.counter(g, "write_buffer_full", "requests",
                                    "writes that waited for a persistent buffer entry")),
        ecc_corrected(r.counter(g, "ecc_corrected", "codewords", "single-bit errors corrected")),
        ecc_uncorrectable(r.counter(g, "ecc_uncorrectable", "codewords",
                                    "double-bit errors detected, not correctable")),
        read_latency(r.histogram(g, "read_latency", "ps", "read REQ to RSP_READY")),
        write_latency(r.histogram(g, "write_latency", "ps", "write REQ to WR_DONE")),
        read_buffer_occupancy(r.average(g, "read_buffer_occupancy", "entries",
                                        "read buffer entries in use, seen by each read")),
        write_buffer_occupancy(r.average(g, "write_buffer_occupancy", "entries",
                                         "persistent write buffer entries in use, seen by each "
                                         "write")),
        write_amplification(r.scalar(g, "write_amplification", "ratio",
                                     "media bytes written by drains / bytes written by requests")),
        wear_max(r.scalar(g, "wear_max", "writes", "writes of the most written media line")),
        wear_mean(r.scalar(g, "wear_mean", "writes", "mean writes per physical media line")),
        wear_max_over_mean(r.scalar(g, "wear_max_over_mean", "ratio", "wear_max / wear_mean")),
        lifetime_fraction(r.scalar(g, "lifetime_fraction", "ratio",
                                   "lifetime before the first line wears out, as a fraction of "
                                   "the ideal (perfectly even wear): wear_mean / wear_max")),
        endurance_used(r.scalar(g, "endurance_used", "ratio",
                                "wear_max / endurance_writes: life used by the most worn line")),
        media_utilisation(r.scalar(g, "media_utilisation", "ratio",
                                   "media_busy_ps / (partitions x simulated time)")) {}
};

struct XPointController::Trace {
  TraceSignal outstanding;
  TraceSignal read_buffer;
  TraceSignal write_buffer;
  TraceSignal busy_partitions;
};

XPointController::XPointController(sc_core::sc_module_name name, const XPointConfig& config,
                                   StatsRegistry& stats, VcdWriter* vcd)
    : sc_module(name),
      in("in"),
      m_config(config),
      m_timing(to_cycles(config)),
      m_leveller(config.lines(), config.start_gap),
      m_media(m_leveller.physical_lines(), config.line_bytes, config.ecc,
              {config.fault_injection.ber, stream_seed(config.fault_injection.seed, this->name())}),
      m_reads(config.read_buffer_entries),
      m_ingress(config.write_credits),
      m_buffer(config.write_buffer_entries),
      m_partition_free_ps(config.partitions, 0),
      m_undrained(config.partitions, 0),
      m_tag_live(uint32_t{1} << 16, 0),
      m_read_of_tag(uint32_t{1} << 16, -1),
      m_write_request_ps(uint32_t{1} << 16, 0),
      m_line(config.line_bytes),
      m_line_mask(config.line_bytes),
      m_stats(std::make_unique<Stats>(stats, this->name())),
      m_trace(std::make_unique<Trace>()) {
  in.bind(*this);
  for (uint32_t i = 0; i < m_reads.size(); ++i) {
    m_reads[i].data.resize(config.line_bytes);
    m_free_reads.push_back(static_cast<uint32_t>(m_reads.size()) - 1 - i);
  }
  for (auto& w : m_ingress) {
    w.data.resize(config.line_bytes);
    w.enabled.resize(config.line_bytes);
  }
  for (auto& e : m_buffer) {
    e.data.resize(config.line_bytes);
    e.enabled.resize(config.line_bytes);
  }
  if (config.fault_injection.ber > 0.0)
    m_fault_bits_flipped =
        &stats.counter(this->name(), "fault_bits_flipped", "bits",
                       "bits of media reads (data and ECC words) flipped by fault injection");
  m_waiting_reads.reserve(m_reads.size());
  m_running.reserve(config.partitions);
  m_messages.reserve(m_reads.size() * 2 + m_ingress.size() + 4);

  m_trace->outstanding.attach(vcd, this->name(), "ddr_t_outstanding", 16);
  m_trace->read_buffer.attach(vcd, this->name(), "read_buffer_occupancy", 16);
  m_trace->write_buffer.attach(vcd, this->name(), "write_buffer_occupancy", 16);
  m_trace->busy_partitions.attach(vcd, this->name(), "busy_partitions", 16);

  SC_METHOD(run);
  sensitive << m_wake;
  dont_initialize();
}

XPointController::~XPointController() = default;

bool XPointController::idle() const {
  return m_free_reads.size() == m_reads.size() && m_pending_read == nullptr &&
         m_ingress_count == 0 && m_writes_outstanding == 0 && m_buffer_used == 0 &&
         m_running.empty() && m_copies.empty() && m_messages.empty();
}

uint64_t XPointController::media_operations() const {
  return m_stats->media_reads.value() + m_stats->media_writes.value();
}

// ---- Time ---------------------------------------------------------------------------------

uint64_t XPointController::next_edge(uint64_t time_ps) const {
  return (time_ps + m_timing.tCK_ps - 1) / m_timing.tCK_ps * m_timing.tCK_ps;
}

uint64_t XPointController::arrival_in_domain(uint64_t time_ps) const {
  return next_edge(time_ps) + m_timing.ps(m_timing.crossing);
}

void XPointController::wake_at(uint64_t time_ps) {
  if (time_ps >= m_wake_ps) return;
  const uint64_t now = kernel_now_ps();
  m_wake_ps = time_ps;
  m_wake.notify(kernel_delay_of_ps(time_ps > now ? time_ps - now : 0));
}

void XPointController::run() {
  m_wake_ps = UINT64_MAX;
  ++m_activations;
  const uint64_t now = kernel_now_ps();
  if (now % m_timing.tCK_ps == 0) {
    complete_operations(now);
    admit_writes(now);
    serve_reads_from_buffer(now);
    join_running_reads(now);
    start_operations(now);
    join_started_reads(now);
  }
  send_due_messages(now);
  trace_state(now);
  const uint64_t next = next_wake();
  if (next != UINT64_MAX) wake_at(next);
}

uint64_t XPointController::next_wake() const {
  const uint64_t now = kernel_now_ps();
  uint64_t next = UINT64_MAX;
  auto consider = [&](uint64_t t) {
    if (t > now) next = std::min(next, t);
  };
  if (!m_messages.empty()) {
    // A message due now was posted during this activation's sends: send it in a delta cycle.
    next = std::min(next, std::max(m_messages.front().time_ps, now));
  }
  for (const MediaOp& op : m_running) consider(op.done_ps);
  if (m_ingress_count > 0) consider(m_ingress[m_ingress_head].domain_ps);
  // A read is looked for among the running reads once in the domain: only those not yet looked
  // for can still be on their way in.
  if (m_reads_to_check_for_joins > 0) {
    for (uint32_t slot : m_waiting_reads) consider(m_reads[slot].domain_ps);
  }
  return next;
}

// ---- Front side ---------------------------------------------------------------------------

const DdrTExtension& XPointController::extension_of(tlm::tlm_generic_payload& payload) const {
  const auto* ext = payload.get_extension<DdrTExtension>();
  if (ext == nullptr) {
    throw SimulationError(std::string(name()) + ": DDR-T message without a DdrTExtension");
  }
  return *ext;
}

tlm::tlm_sync_enum XPointController::nb_transport_fw(tlm::tlm_generic_payload& payload,
                                                     tlm::tlm_phase& phase,
                                                     sc_core::sc_time& delay) {
  if (delay != sc_core::SC_ZERO_TIME) {
    throw SimulationError(std::string(name()) +
                          ": DDR-T messages carry no annotated delay; send them at their time");
  }
  if (phase == ddr_t::REQ) return request(payload, phase);
  if (phase == ddr_t::SEND) return send(payload);
  throw SimulationError(std::string(name()) + ": unexpected DDR-T phase " + phase.get_name());
}

void XPointController::claim_tag(uint16_t tag) {
  if (m_tag_live[tag]) {
    throw SimulationError(std::string(name()) + ": DDR-T tag " + std::to_string(tag) +
                          " reused while its request is outstanding");
  }
  m_tag_live[tag] = 1;
}

bool XPointController::validate(tlm::tlm_generic_payload& p, const DdrTExtension& ext) const {
  const uint64_t offset = ext.address % m_config.line_bytes;
  if (ext.size == 0 || ext.address >= capacity_bytes() ||
      ext.size > capacity_bytes() - ext.address) {
    p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return false;
  }
  if (offset + ext.size > m_config.line_bytes) {
    p.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return false;
  }
  if (ext.command == DdrTCommand::write &&
      (p.get_data_ptr() == nullptr || p.get_data_length() < ext.size)) {
    p.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return false;
  }
  if (p.get_byte_enable_ptr() != nullptr &&
      (ext.command != DdrTCommand::write || p.get_byte_enable_length() == 0)) {
    p.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    return false;
  }
  return true;
}

tlm::tlm_sync_enum XPointController::request(tlm::tlm_generic_payload& payload,
                                             tlm::tlm_phase& phase) {
  const DdrTExtension& ext = extension_of(payload);
  if (m_pending_read != nullptr) {
    throw SimulationError(std::string(name()) +
                          ": DDR-T REQ before END_REQ of the read waiting for a read buffer entry");
  }
  if (ext.command == DdrTCommand::swap) {
    // The swap function comes with the optical channel; until then the command is refused.
    payload.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return tlm::TLM_COMPLETED;
  }
  if (!validate(payload, ext)) return tlm::TLM_COMPLETED;
  if (ext.command == DdrTCommand::write && m_writes_outstanding == m_config.write_credits) {
    throw SimulationError(std::string(name()) + ": DDR-T write (tag " + std::to_string(ext.tag) +
                          ") sent without a write credit");
  }
  claim_tag(ext.tag);
  if (payload.has_mm()) payload.acquire();
  payload.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  const uint64_t now = kernel_now_ps();
  if (ext.command == DdrTCommand::write) {
    accept_write(payload, ext);
  } else if (m_free_reads.empty()) {
    m_pending_read = &payload;
    m_pending_read_ps = now;
    m_stats->read_backpressure.inc();
    trace_state(now);
    return tlm::TLM_ACCEPTED;
  } else {
    accept_read(payload, ext, now);
  }
  trace_state(now);
  phase = tlm::END_REQ;
  return tlm::TLM_UPDATED;
}

void XPointController::accept_read(tlm::tlm_generic_payload& payload, const DdrTExtension& ext,
                                   uint64_t request_ps) {
  const uint64_t now = kernel_now_ps();
  m_stats->read_buffer_occupancy.sample(static_cast<double>(m_reads.size() - m_free_reads.size()));
  const uint32_t index = m_free_reads.back();
  m_free_reads.pop_back();
  ReadSlot& slot = m_reads[index];
  slot.used = true;
  slot.announced = false;
  slot.bad_chunks = 0;
  slot.buffer_checked = false;
  slot.join_checked = false;
  slot.tag = ext.tag;
  slot.payload = &payload;
  slot.logical_line = ext.address / m_config.line_bytes;
  slot.offset = static_cast<uint32_t>(ext.address % m_config.line_bytes);
  slot.size = ext.size;
  slot.partition = partition_of(m_leveller.to_physical(slot.logical_line));
  slot.request_ps = request_ps;
  slot.domain_ps = arrival_in_domain(now);
  m_read_of_tag[ext.tag] = static_cast<int32_t>(index);
  m_waiting_reads.push_back(index);
  ++m_reads_to_check_in_buffer;
  ++m_reads_to_check_for_joins;
  wake_at(slot.domain_ps);
}

void XPointController::accept_write(tlm::tlm_generic_payload& payload, const DdrTExtension& ext) {
  const uint64_t now = kernel_now_ps();
  IngressWrite& w = m_ingress[(m_ingress_head + m_ingress_count) % m_ingress.size()];
  ++m_ingress_count;
  ++m_writes_outstanding;
  w.payload = &payload;
  w.tag = ext.tag;
  w.logical_line = ext.address / m_config.line_bytes;
  m_write_request_ps[ext.tag] = now;
  w.domain_ps = arrival_in_domain(std::max(now, ext.data_ready_ps));
  w.counted_full = false;
  const uint32_t offset = static_cast<uint32_t>(ext.address % m_config.line_bytes);
  const uint8_t* enables = payload.get_byte_enable_ptr();
  const uint32_t enables_length = payload.get_byte_enable_length();
  std::fill(w.enabled.begin(), w.enabled.end(), 0);
  std::memcpy(w.data.data() + offset, payload.get_data_ptr(), ext.size);
  uint32_t written = 0;
  for (uint32_t i = 0; i < ext.size; ++i) {
    const bool on = enables == nullptr || enables[i % enables_length] == 0xff;
    w.enabled[offset + i] = on ? 0xff : 0;
    written += on ? 1 : 0;
  }
  m_stats->write_bytes.inc(written);
  stop_joins(w.logical_line);
  wake_at(w.domain_ps);
}

tlm::tlm_sync_enum XPointController::send(tlm::tlm_generic_payload& payload) {
  const DdrTExtension& ext = extension_of(payload);
  const int32_t index = m_read_of_tag[ext.tag];
  if (index < 0 || !m_reads[index].announced) {
    throw SimulationError(std::string(name()) + ": DDR-T SEND for tag " + std::to_string(ext.tag) +
                          ", which has no read data ready");
  }
  ReadSlot& slot = m_reads[index];
  if (payload.get_data_ptr() == nullptr || payload.get_data_length() < slot.size) {
    throw SimulationError(std::string(name()) + ": DDR-T SEND for tag " + std::to_string(ext.tag) +
                          " without room for the data");
  }
  std::memcpy(payload.get_data_ptr(), slot.data.data() + slot.offset, slot.size);
  // Only the chunks of the bytes it asked for matter to a read.
  payload.set_response_status(touches_chunks(slot.bad_chunks, slot.offset, slot.size)
                                  ? tlm::TLM_GENERIC_ERROR_RESPONSE
                                  : tlm::TLM_OK_RESPONSE);
  m_stats->reads.inc();
  m_stats->read_bytes.inc(slot.size);
  tlm::tlm_generic_payload* original = slot.payload;
  slot.used = false;
  slot.payload = nullptr;
  m_read_of_tag[ext.tag] = -1;
  m_tag_live[ext.tag] = 0;
  m_free_reads.push_back(static_cast<uint32_t>(index));
  release(original);

  const uint64_t now = kernel_now_ps();
  if (m_pending_read != nullptr) {
    tlm::tlm_generic_payload* pending = m_pending_read;
    m_pending_read = nullptr;
    accept_read(*pending, extension_of(*pending), m_pending_read_ps);
    post(now, tlm::END_REQ, pending);
  }
  trace_state(now);
  return tlm::TLM_COMPLETED;
}

void XPointController::b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time&) {
  payload.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
}

void XPointController::release(tlm::tlm_generic_payload* payload) {
  if (payload->has_mm()) payload->release();
}

// ---- Protocol engine ----------------------------------------------------------------------

void XPointController::complete_operations(uint64_t now) {
  size_t kept = 0;
  for (size_t i = 0; i < m_running.size(); ++i) {
    const MediaOp op = m_running[i];
    if (op.done_ps > now) {
      m_running[kept++] = op;
      continue;
    }
    if (op.kind == MediaOp::read) {
      post(now + m_timing.ps(m_timing.crossing), ddr_t::RSP_READY, m_reads[op.index].payload);
    } else if (op.kind == MediaOp::drain) {
      commit_drain(m_buffer[op.index]);
    }
  }
  m_running.resize(kept);
}

template <class Access>
void XPointController::counting_ecc(const Access& access) {
  const uint64_t corrected = m_media.corrected(), bad = m_media.uncorrectable();
  const uint64_t flipped = m_media.bits_flipped();
  access();
  m_stats->ecc_corrected.inc(m_media.corrected() - corrected);
  m_stats->ecc_uncorrectable.inc(m_media.uncorrectable() - bad);
  if (m_fault_bits_flipped) m_fault_bits_flipped->inc(m_media.bits_flipped() - flipped);
}

void XPointController::commit_drain(WriteEntry& entry) {
  const uint64_t physical = m_leveller.to_physical(entry.logical_line);
  const bool full =
      std::all_of(entry.enabled.begin(), entry.enabled.end(), [](uint8_t e) { return e != 0; });
  if (full) {
    m_media.write_line(physical, entry.data.data());
  } else {
    uint64_t bad_chunks = 0;
    counting_ecc([&] { m_media.read_line(physical, m_line.data(), &bad_chunks); });
    merge_masked(m_line.data(), entry.data.data(), entry.enabled.data(), m_config.line_bytes);
    // A chunk the write covers whole is good again; one it covers in part keeps the error.
    m_media.write_line(physical, m_line.data(), bad_chunks & ~whole_chunks(entry.enabled));
  }
  m_stats->media_writes.inc();
  m_stats->media_bytes_written.inc(m_config.line_bytes);
  entry.used = false;
  entry.draining = false;
  --m_buffer_used;
  if (const std::optional<GapMove> move = m_leveller.count_write(entry.logical_line)) {
    counting_ecc([&] { m_media.copy_line(move->from, move->to); });
    m_copies.emplace_back(move->from, move->to);
    m_stats->gap_moves.inc();
  }
}

XPointController::WriteEntry* XPointController::mergeable_entry(uint64_t logical_line) {
  for (WriteEntry& e : m_buffer) {
    if (e.used && !e.draining && e.logical_line == logical_line) return &e;
  }
  return nullptr;
}

XPointController::WriteEntry* XPointController::free_entry() {
  for (WriteEntry& e : m_buffer) {
    if (!e.used) return &e;
  }
  return nullptr;
}

void XPointController::admit_writes(uint64_t now) {
  while (m_ingress_count > 0) {
    IngressWrite& w = m_ingress[m_ingress_head];
    if (w.domain_ps > now) break;
    WriteEntry* entry = mergeable_entry(w.logical_line);
    const bool merged = entry != nullptr;
    if (!merged) entry = free_entry();
    if (entry == nullptr) {
      if (!w.counted_full) m_stats->write_buffer_full.inc();
      w.counted_full = true;
      break;
    }
    m_stats->write_buffer_occupancy.sample(m_buffer_used);
    if (merged) {
      m_stats->merged_writes.inc();
    } else {
      entry->used = true;
      entry->draining = false;
      entry->logical_line = w.logical_line;
      entry->partition = partition_of(m_leveller.to_physical(w.logical_line));
      entry->sequence = m_sequence++;
      std::fill(entry->enabled.begin(), entry->enabled.end(), 0);
      ++m_buffer_used;
      ++m_undrained[entry->partition];
    }
    merge_masked(entry->data.data(), w.data.data(), w.enabled.data(), m_config.line_bytes);
    or_mask(entry->enabled.data(), w.enabled.data(), m_config.line_bytes);
    post(now + m_timing.ps(m_timing.buffer + m_timing.crossing), ddr_t::WR_DONE, w.payload);
    m_ingress_head = static_cast<uint32_t>((m_ingress_head + 1) % m_ingress.size());
    --m_ingress_count;
  }
}

bool XPointController::covered_by_buffer(uint64_t logical_line, uint32_t offset, uint32_t size) {
  const auto holds_line = [&](const WriteEntry& e) {
    return e.used && e.logical_line == logical_line;
  };
  const auto first_entry = std::find_if(m_buffer.begin(), m_buffer.end(), holds_line);
  if (first_entry == m_buffer.end() && m_ingress_count == 0) return false;
  // The union of the bytes that the line's buffered and waiting writes hold.
  std::fill(m_line_mask.begin(), m_line_mask.end(), 0);
  for (auto e = first_entry; e != m_buffer.end(); ++e) {
    if (holds_line(*e)) or_mask(m_line_mask.data(), e->enabled.data(), m_config.line_bytes);
  }
  for (uint32_t k = 0; k < m_ingress_count; ++k) {
    const IngressWrite& w = m_ingress[(m_ingress_head + k) % m_ingress.size()];
    if (w.logical_line == logical_line) {
      or_mask(m_line_mask.data(), w.enabled.data(), m_config.line_bytes);
    }
  }
  const uint8_t* first = m_line_mask.data() + offset;
  return std::all_of(first, first + size, [](uint8_t b) { return b != 0; });
}

void XPointController::snapshot(uint64_t logical_line, uint8_t* out, uint64_t& bad_chunks) {
  bad_chunks = 0;
  counting_ecc([&] { m_media.read_line(m_leveller.to_physical(logical_line), out, &bad_chunks); });
  overlay_buffered(logical_line, out);
}

void XPointController::overlay_buffered(uint64_t logical_line, uint8_t* out) const {
  // Several entries may hold bytes of one line (one draining, a newer one filling): apply them
  // oldest first so the newest write wins.
  uint64_t applied = 0;
  bool any = false;
  for (;;) {
    const WriteEntry* next = nullptr;
    for (const WriteEntry& e : m_buffer) {
      if (!e.used || e.logical_line != logical_line) continue;
      if (any && e.sequence <= applied) continue;
      if (next == nullptr || e.sequence < next->sequence) next = &e;
    }
    if (next == nullptr) break;
    merge_masked(out, next->data.data(), next->enabled.data(), m_config.line_bytes);
    applied = next->sequence;
    any = true;
  }
  // Writes still waiting for a buffer entry are newer than every entry.
  for (uint32_t k = 0; k < m_ingress_count; ++k) {
    const IngressWrite& w = m_ingress[(m_ingress_head + k) % m_ingress.size()];
    if (w.logical_line != logical_line) continue;
    merge_masked(out, w.data.data(), w.enabled.data(), m_config.line_bytes);
  }
}

void XPointController::serve_reads_from_buffer(uint64_t now) {
  if (m_reads_to_check_in_buffer == 0) return;
  size_t kept = 0;
  for (size_t i = 0; i < m_waiting_reads.size(); ++i) {
    const uint32_t index = m_waiting_reads[i];
    ReadSlot& slot = m_reads[index];
    // Looked for once, on arrival; a read that then waits for its partition still takes the
    // newest buffered bytes when it starts.
    const bool candidate = slot.domain_ps <= now && !slot.buffer_checked;
    if (candidate) {
      slot.buffer_checked = true;
      --m_reads_to_check_in_buffer;
    }
    if (!candidate || !covered_by_buffer(slot.logical_line, slot.offset, slot.size)) {
      m_waiting_reads[kept++] = index;
      continue;
    }
    // Every requested byte is buffered: no media read, and no ECC check of the media. The read
    // leaves without looking for a running read of its line.
    --m_reads_to_check_for_joins;
    overlay_buffered(slot.logical_line, slot.data.data());
    m_stats->buffer_read_hits.inc();
    post(now + m_timing.ps(m_timing.buffer + m_timing.crossing), ddr_t::RSP_READY, slot.payload);
  }
  m_waiting_reads.resize(kept);
}

void XPointController::start_operations(uint64_t now) {
  for (uint32_t p = 0; p < m_config.partitions; ++p) {
    if (m_partition_free_ps[p] > now) continue;
    if (!start_read(p, now) && !start_copy(p, now)) start_drain(p, now);
  }
}

uint64_t XPointController::occupy(uint32_t partition, uint64_t now, uint64_t cycles) {
  const uint64_t done = now + m_timing.ps(cycles);
  m_partition_free_ps[partition] = done;
  m_stats->media_busy_ps.inc(done - now);
  return done;
}

bool XPointController::start_read(uint32_t partition, uint64_t now) {
  for (size_t i = 0; i < m_waiting_reads.size(); ++i) {
    const uint32_t index = m_waiting_reads[i];
    ReadSlot& slot = m_reads[index];
    if (slot.domain_ps > now || slot.partition != partition) continue;
    snapshot(slot.logical_line, slot.data.data(), slot.bad_chunks);
    m_stats->media_reads.inc();
    const uint64_t done = occupy(partition, now, m_timing.read);
    m_running.push_back(MediaOp{MediaOp::read, index, done, true});
    m_waiting_reads.erase(m_waiting_reads.begin() + static_cast<std::ptrdiff_t>(i));
    m_started_reads.push_back(m_running.back());
    return true;
  }
  return false;
}

// A read looks for a running media read of its line once, when it is in the domain; the reads
// of a line waiting when its media read starts join it there (join_started_reads). A media read
// starts nowhere else, so no read misses one it could share.
void XPointController::join_running_reads(uint64_t now) {
  if (m_reads_to_check_for_joins == 0) return;
  size_t kept = 0;
  for (size_t i = 0; i < m_waiting_reads.size(); ++i) {
    const uint32_t index = m_waiting_reads[i];
    ReadSlot& slot = m_reads[index];
    const MediaOp* host = nullptr;
    if (slot.domain_ps <= now && !slot.join_checked) {
      slot.join_checked = true;
      --m_reads_to_check_for_joins;
      for (const MediaOp& op : m_running) {
        if (op.joinable && m_reads[op.index].logical_line == slot.logical_line) host = &op;
      }
    }
    if (host == nullptr) {
      m_waiting_reads[kept++] = index;
      continue;
    }
    join(index, host->index, host->done_ps);
  }
  m_waiting_reads.resize(kept);
}

void XPointController::join_started_reads(uint64_t now) {
  if (m_started_reads.empty()) return;
  size_t kept = 0;
  for (size_t i = 0; i < m_waiting_reads.size(); ++i) {
    const uint32_t index = m_waiting_reads[i];
    const ReadSlot& slot = m_reads[index];
    const auto host = std::find_if(
        m_started_reads.begin(), m_started_reads.end(),
        [&](const MediaOp& op) { return m_reads[op.index].logical_line == slot.logical_line; });
    if (slot.domain_ps > now || host == m_started_reads.end()) {
      m_waiting_reads[kept++] = index;
      continue;
    }
    join(index, host->index, host->done_ps);
  }
  m_waiting_reads.resize(kept);
  m_started_reads.clear();
}

void XPointController::join(uint32_t index, uint32_t host_index, uint64_t done_ps) {
  // The media reads whole lines (XPLines): the line already on its way answers this read too.
  ReadSlot& slot = m_reads[index];
  const ReadSlot& source = m_reads[host_index];
  slot.data = source.data;
  slot.bad_chunks = source.bad_chunks;
  m_stats->joined_reads.inc();
  m_running.push_back(MediaOp{MediaOp::read, index, done_ps, false});
}

void XPointController::stop_joins(uint64_t logical_line) {
  for (MediaOp& op : m_running) {
    if (op.kind == MediaOp::read && m_reads[op.index].logical_line == logical_line) {
      op.joinable = false;
    }
  }
}

bool XPointController::start_copy(uint32_t partition, uint64_t now) {
  for (size_t i = 0; i < m_copies.size(); ++i) {
    const auto [from, to] = m_copies[i];
    const uint32_t target = partition_of(to);
    if (partition_of(from) != partition || m_partition_free_ps[target] > now) continue;
    // The copy reads `from` and writes `to`: both partitions are busy for the whole copy.
    const uint64_t done = occupy(partition, now, m_timing.read + m_timing.write);
    if (target != partition) occupy(target, now, m_timing.read + m_timing.write);
    m_stats->media_reads.inc();
    m_running.push_back(MediaOp{MediaOp::copy, 0, done});
    m_copies.erase(m_copies.begin() + static_cast<std::ptrdiff_t>(i));
    return true;
  }
  return false;
}

bool XPointController::start_drain(uint32_t partition, uint64_t now) {
  if (m_undrained[partition] == 0) return false;
  // A line with a drain running is busy: the running drains are the media operations in
  // flight of kind drain, a few at most, where the buffer has many entries.
  const auto line_draining = [&](uint64_t logical_line) {
    return std::any_of(m_running.begin(), m_running.end(), [&](const MediaOp& op) {
      return op.kind == MediaOp::drain && m_buffer[op.index].logical_line == logical_line;
    });
  };
  WriteEntry* oldest = nullptr;
  for (WriteEntry& e : m_buffer) {
    if (!e.used || e.draining || e.partition != partition) continue;
    if (oldest != nullptr && e.sequence > oldest->sequence) continue;
    if (!line_draining(e.logical_line)) oldest = &e;
  }
  if (oldest == nullptr) return false;
  const bool full =
      std::all_of(oldest->enabled.begin(), oldest->enabled.end(), [](uint8_t b) { return b != 0; });
  uint64_t cycles = m_timing.write;
  if (!full) {
    cycles += m_timing.read;
    m_stats->rmw_writes.inc();
    m_stats->media_reads.inc();
  }
  oldest->draining = true;
  --m_undrained[partition];
  const uint64_t done = occupy(partition, now, cycles);
  m_running.push_back(
      MediaOp{MediaOp::drain, static_cast<uint32_t>(oldest - m_buffer.data()), done});
  return true;
}

// ---- Backward messages --------------------------------------------------------------------

void XPointController::post(uint64_t time_ps, const tlm::tlm_phase& phase,
                            tlm::tlm_generic_payload* payload) {
  m_messages.push_back(Message{time_ps, m_sequence++, phase, payload});
  std::push_heap(m_messages.begin(), m_messages.end(), std::greater<Message>());
  wake_at(time_ps);
}

void XPointController::send_due_messages(uint64_t now) {
  while (!m_messages.empty() && m_messages.front().time_ps <= now) {
    std::pop_heap(m_messages.begin(), m_messages.end(), std::greater<Message>());
    const Message m = m_messages.back();
    m_messages.pop_back();
    const DdrTExtension& ext = extension_of(*m.payload);
    bool release_after = false;
    if (m.phase == ddr_t::RSP_READY) {
      ReadSlot& slot = m_reads[m_read_of_tag[ext.tag]];
      slot.announced = true;
      m_stats->read_latency.sample(now - slot.request_ps);
    } else if (m.phase == ddr_t::WR_DONE) {
      --m_writes_outstanding;
      m_tag_live[ext.tag] = 0;
      m_stats->writes.inc();
      release_after = true;
      m_stats->write_latency.sample(now - m_write_request_ps[ext.tag]);
      m.payload->set_response_status(tlm::TLM_OK_RESPONSE);
    }
    tlm::tlm_phase phase = m.phase;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    in->nb_transport_bw(*m.payload, phase, delay);
    if (release_after) release(m.payload);
  }
}

void XPointController::trace_state(uint64_t now) {
  if (!m_trace->outstanding.enabled()) return;
  const uint64_t reads = m_reads.size() - m_free_reads.size() + (m_pending_read ? 1 : 0);
  m_trace->outstanding.set(reads + m_writes_outstanding, now);
  m_trace->read_buffer.set(m_reads.size() - m_free_reads.size(), now);
  m_trace->write_buffer.set(m_buffer_used, now);
  uint64_t busy = 0;
  for (uint64_t free_ps : m_partition_free_ps) busy += free_ps > now ? 1 : 0;
  m_trace->busy_partitions.set(busy, now);
}

// ---- Debug, errors, statistics ------------------------------------------------------------

unsigned int XPointController::transport_dbg(tlm::tlm_generic_payload& payload) {
  const uint64_t address = payload.get_address();
  const uint32_t length = payload.get_data_length();
  if (address >= capacity_bytes() || length > capacity_bytes() - address) return 0;
  if (!payload.is_read() && !payload.is_write()) return 0;
  uint8_t* data = payload.get_data_ptr();
  uint32_t done = 0;
  while (done < length) {
    const uint64_t line = (address + done) / m_config.line_bytes;
    const uint32_t offset = static_cast<uint32_t>((address + done) % m_config.line_bytes);
    const uint32_t chunk = std::min(length - done, m_config.line_bytes - offset);
    const uint64_t physical = m_leveller.to_physical(line);
    if (payload.is_read()) {
      m_media.peek(physical, 0, m_line.data(), m_config.line_bytes);
      overlay_buffered(line, m_line.data());
      std::memcpy(data + done, m_line.data() + offset, chunk);
    } else {
      m_media.poke(physical, offset, data + done, chunk);
      for (WriteEntry& e : m_buffer) {
        if (!e.used || e.logical_line != line) continue;
        for (uint32_t i = 0; i < chunk; ++i) e.data[offset + i] = data[done + i];
      }
      for (uint32_t k = 0; k < m_ingress_count; ++k) {
        IngressWrite& w = m_ingress[(m_ingress_head + k) % m_ingress.size()];
        if (w.logical_line != line) continue;
        for (uint32_t i = 0; i < chunk; ++i) w.data[offset + i] = data[done + i];
      }
    }
    done += chunk;
  }
  payload.set_response_status(tlm::TLM_OK_RESPONSE);
  return length;
}

void XPointController::inject_bit_flip(uint64_t address, unsigned bit) {
  if (address >= capacity_bytes() || bit > 7) {
    throw std::invalid_argument("inject_bit_flip: address or bit out of range");
  }
  const uint64_t line = address / m_config.line_bytes;
  const uint32_t offset = static_cast<uint32_t>(address % m_config.line_bytes);
  m_media.flip_data_bit(m_leveller.to_physical(line), offset * 8 + bit);
}

void XPointController::end_of_simulation() {
  finish_stats();
}

void XPointController::finish_stats() {
  const uint64_t host = m_stats->write_bytes.value();
  m_stats->write_amplification.set(host == 0
                                       ? 0.0
                                       : static_cast<double>(m_stats->media_bytes_written.value()) /
                                             static_cast<double>(host));
  const double max = m_media.max_writes();
  const double mean = m_media.mean_writes();
  m_stats->wear_max.set(max);
  m_stats->wear_mean.set(mean);
  m_stats->wear_max_over_mean.set(mean == 0.0 ? 0.0 : max / mean);
  m_stats->lifetime_fraction.set(max == 0.0 ? 1.0 : mean / max);
  m_stats->endurance_used.set(max / static_cast<double>(m_config.endurance_writes));
  const double partition_time =
      static_cast<double>(m_config.partitions) * static_cast<double>(kernel_now_ps());
  m_stats->media_utilisation.set(
      partition_time == 0.0 ? 0.0
                            : static_cast<double>(m_stats->media_busy_ps.value()) / partition_time);
}

}  // namespace ohmvp
