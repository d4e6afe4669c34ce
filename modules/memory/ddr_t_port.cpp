#include "modules/memory/ddr_t_port.h"

#include <algorithm>
#include <cstring>

#include "modules/common/errors.h"
#include "modules/common/sim_time.h"

namespace ohmvp {

struct DdrTPort::Slot : tlm::tlm_generic_payload {
  DdrTExtension extension;
  uint8_t data[64];
  uint64_t token = 0;
  Traffic traffic = Traffic::regular;
  uint64_t sent_ps = 0;
  bool live = false;     // REQ sent, not yet done (data across, or WR_DONE)
  bool held = false;     // counted as held behind an earlier access to its line
  bool snarfed = false;  // a write whose data the target has (no data slot on the bus)
  bool local = false;    // a read whose data stays at the XPoint end (no data slot either)
  bool needs_bus() const { return extension.command == DdrTCommand::write && !snarfed; }
};

struct DdrTPort::Stats {
  Counter& reads;
  Counter& writes;
  Counter& snarfed;
  Counter& local_reads;
  Counter& held;
  Histogram& read_latency;
  Stats(StatsRegistry& r, const std::string& g)
      : reads(r.counter(g, "xpoint_reads", "requests", "DDR-T reads sent to XPoint")),
        writes(r.counter(g, "xpoint_writes", "requests", "DDR-T writes sent to XPoint")),
        snarfed(r.counter(g, "snarfed_writes", "requests",
                          "DDR-T writes whose data XPoint snarfed from a DRAM burst or has "
                          "from the memory route")),
        local_reads(r.counter(g, "local_reads", "requests",
                              "DDR-T reads whose data went on to DRAM over the memory route")),
        held(r.counter(g, "held", "requests",
                       "REQs that waited for an earlier access to their line to finish")),
        read_latency(r.histogram(g, "xpoint_read_latency", "ps",
                                 "DDR-T read: REQ on the channel to its data across")) {}
};

DdrTPort::DdrTPort(sc_core::sc_module_name name, uint32_t tags, uint32_t write_credits,
                   DataBus& bus, ChannelUsage& usage, StatsRegistry& stats, VcdWriter* vcd,
                   Done done)
    : sc_module(name),
      out("out"),
      m_credits(write_credits),
      m_bus(bus),
      m_usage(usage),
      m_done(std::move(done)),
      m_stats(std::make_unique<Stats>(stats, this->name())) {
  out.bind(*this);
  for (uint32_t t = 0; t < tags; ++t) {
    m_slots.push_back(std::make_unique<Slot>());
    m_slots.back()->set_extension(&m_slots.back()->extension);
    m_slots.back()->extension.tag = static_cast<uint16_t>(t);
  }
  for (uint32_t t = tags; t-- > 0;) m_free_tags.push_back(static_cast<uint16_t>(t));
  m_trace_outstanding.attach(vcd, this->name(), "ddr_t_outstanding", 16);
  SC_METHOD(run);
  sensitive << m_wake;
  dont_initialize();
}

DdrTPort::~DdrTPort() {
  for (auto& slot : m_slots) slot->clear_extension(&slot->extension);
}

void DdrTPort::read(uint64_t address, uint32_t length, Traffic traffic, uint64_t token,
                    bool local) {
  Access a{false, local, address, length, traffic, token, {}};
  enqueue(a);
}

void DdrTPort::write(uint64_t address, const uint8_t* data, uint32_t length, Traffic traffic,
                     uint64_t token, bool snarfed) {
  Access a{true, snarfed, address, length, traffic, token, {}};
  std::memcpy(a.data, data, length);
  enqueue(a);
}

void DdrTPort::enqueue(const Access& access) {
  m_waiting.push_back(access);
  assign_tags();
  m_wake.notify(sc_core::SC_ZERO_TIME);
}

void DdrTPort::assign_tags() {
  while (!m_waiting.empty() && !m_free_tags.empty()) {
    const Access& a = m_waiting.front();
    Slot& s = *m_slots[m_free_tags.back()];
    m_free_tags.pop_back();
    s.extension.command = a.is_write ? DdrTCommand::write : DdrTCommand::read;
    s.extension.address = a.address;
    s.extension.size = a.length;
    s.extension.data_ready_ps = 0;
    s.token = a.token;
    s.traffic = a.traffic;
    s.snarfed = a.is_write && a.local;
    s.local = !a.is_write && a.local;
    if (a.is_write) std::memcpy(s.data, a.data, a.length);
    s.set_command(a.is_write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    s.set_address(a.address);
    s.set_data_ptr(s.data);
    s.set_data_length(a.length);
    s.set_streaming_width(a.length);
    s.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    m_queue.push_back(&s);
    m_waiting.pop_front();
  }
}

bool DdrTPort::access_in_flight_to(uint64_t line) const {
  for (const auto& s : m_slots) {
    if (s->live && s->extension.address / 64 == line) return true;
  }
  return false;
}

void DdrTPort::run() {
  const uint64_t now = kernel_now_ps();
  while (!m_arrivals.empty() && m_arrivals.front().first <= now) {
    Slot* s = m_arrivals.front().second;
    m_arrivals.pop_front();
    m_stats->read_latency.sample(now - s->sent_ps);
    m_done(s->token, s->data);
    release(*s);
  }
  while (!m_written.empty()) {
    Slot* s = m_written.front();
    m_written.pop_front();
    m_done(s->token, s->data);
    release(*s);
  }
  send_local_pulls();
  assign_tags();
  uint64_t next = transfer(now);
  if (!m_arrivals.empty()) next = std::min(next, m_arrivals.front().first);
  if (next != UINT64_MAX) m_wake.notify(kernel_delay_of_ps(next - now));
  trace(now);
}

bool DdrTPort::may_send(Slot& s) {
  if (s.extension.command == DdrTCommand::write && m_credits == 0) return false;
  if (access_in_flight_to(s.extension.address / 64)) {
    if (!s.held) m_stats->held.inc();
    s.held = true;
    return false;  // that access's completion wakes us
  }
  return true;
}

DdrTPort::Slot* DdrTPort::next_transfer() {
  if (!m_pulls.empty()) return m_pulls.front();
  if (m_waiting_end_req != nullptr || m_queue.empty()) return nullptr;
  Slot* head = m_queue.front();
  if (!head->needs_bus() || !may_send(*head)) return nullptr;
  return head;
}

uint64_t DdrTPort::transfer(uint64_t now) {
  for (;;) {
    send_dataless_requests(now);
    if (m_slotted == nullptr) {
      m_slotted = next_transfer();
      if (m_slotted == nullptr) return UINT64_MAX;
      if (m_slotted->extension.command == DdrTCommand::read) m_pulls.pop_front();
      const uint32_t bytes = m_slotted->get_data_length();
      m_slot_ps = m_bus.earliest_free(now, m_usage.burst_ps);
      m_bus.occupy(m_slot_ps, m_slot_ps + m_usage.burst_ps, bytes);
      m_usage.add(m_slotted->traffic, bytes);
    }
    if (m_slot_ps > now) return m_slot_ps;
    Slot& s = *m_slotted;
    m_slotted = nullptr;
    // The data's last bit at its receiver: the controller for a read, the XPoint for a write.
    const uint64_t data_arrival_ps = m_slot_ps + m_usage.burst_ps + m_bus.arrival_latency_ps();
    if (s.extension.command == DdrTCommand::read) {
      send_pull(s, data_arrival_ps);
    } else {
      m_bus.carry(s.data, s.get_data_length());
      s.extension.data_ready_ps = data_arrival_ps;
      send_request(s, now);
    }
  }
}

void DdrTPort::send(Slot& s) {
  tlm::tlm_phase phase = ddr_t::SEND;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  out->nb_transport_fw(s, phase, delay);
  if (!s.is_response_ok()) {
    // The XPoint end refuses a read only for an uncorrectable ECC error in the bytes it asked
    // for; a GPU ends the context that meets an uncorrectable (double-bit) memory error.
    throw SimulationError(std::string(name()) + ": XPoint read at " +
                          std::to_string(s.extension.address) +
                          " failed: an uncorrectable ECC error in the XPoint media (two or more "
                          "flipped bits in a 64-byte chunk); as a GPU's double-bit ECC error, it "
                          "ends the run");
  }
}

void DdrTPort::send_pull(Slot& s, uint64_t arrival_ps) {
  send(s);  // the XPoint end puts the line into the slot's data
  m_bus.carry(s.data, s.get_data_length());
  m_arrivals.emplace_back(arrival_ps, &s);
}

void DdrTPort::send_local_pulls() {
  while (!m_local_pulls.empty()) {
    Slot& s = *m_local_pulls.front();
    m_local_pulls.pop_front();
    send(s);
    m_stats->local_reads.inc();
    m_done(s.token, s.data);
    release(s);
  }
}

void DdrTPort::send_dataless_requests(uint64_t now) {
  while (m_waiting_end_req == nullptr && !m_queue.empty()) {
    Slot& s = *m_queue.front();
    if (s.needs_bus() || !may_send(s)) return;
    send_request(s, now);
  }
}

void DdrTPort::send_request(Slot& s, uint64_t now) {
  m_queue.pop_front();
  s.sent_ps = now;
  s.live = true;
  s.held = false;
  ++m_outstanding;
  if (s.extension.command == DdrTCommand::write) {
    --m_credits;
    m_stats->writes.inc();
    if (s.snarfed) m_stats->snarfed.inc();
  } else {
    m_stats->reads.inc();
  }
  tlm::tlm_phase phase = ddr_t::REQ;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  const tlm::tlm_sync_enum result = out->nb_transport_fw(s, phase, delay);
  if (result == tlm::TLM_ACCEPTED) {
    m_waiting_end_req = &s;
  } else if (result == tlm::TLM_COMPLETED) {
    throw SimulationError(std::string(name()) + ": XPoint refused DDR-T " +
                          to_string(s.extension.command) + " at " +
                          std::to_string(s.extension.address) + ": " + s.get_response_string());
  }
}

tlm::tlm_sync_enum DdrTPort::nb_transport_bw(tlm::tlm_generic_payload& payload,
                                             tlm::tlm_phase& phase, sc_core::sc_time&) {
  Slot& s = static_cast<Slot&>(payload);
  if (phase == tlm::END_REQ) {
    if (m_waiting_end_req == &s) m_waiting_end_req = nullptr;
  } else if (phase == ddr_t::RSP_READY) {
    (s.local ? m_local_pulls : m_pulls).push_back(&s);
  } else if (phase == ddr_t::WR_DONE) {
    if (!s.is_response_ok()) {
      throw SimulationError(std::string(name()) + ": XPoint write at " +
                            std::to_string(s.extension.address) +
                            " failed: " + s.get_response_string());
    }
    ++m_credits;
    m_written.push_back(&s);
  } else {
    throw SimulationError(std::string(name()) + ": unexpected DDR-T phase " + phase.get_name());
  }
  m_wake.notify(sc_core::SC_ZERO_TIME);
  return tlm::TLM_ACCEPTED;
}

void DdrTPort::release(Slot& s) {
  s.live = false;
  --m_outstanding;
  m_free_tags.push_back(s.extension.tag);
}

void DdrTPort::trace(uint64_t now) {
  m_trace_outstanding.set(m_outstanding, now);
}

}  // namespace ohmvp
