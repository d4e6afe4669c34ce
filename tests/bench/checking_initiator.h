#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "modules/common/random.h"
#include "modules/common/sparse_store.h"

namespace ohmvp::bench {

// Random reads and writes of 64, 32 and 8 bytes inside 64-byte bursts, mostly clustered in a
// small window that moves now and then (so that reads of queued writes, merges into queued
// writes and same-burst ordering all happen), some anywhere. Every read is compared with a
// shadow copy of what was written before it was sent. At most `max_outstanding` requests are
// in flight; the base protocol's request exclusion is respected. A fraction of the responses
// is accepted rather than completed, with END_RESP sent a little later, so that targets and
// interconnect must hold back their next response meanwhile.
class CheckingInitiator : public sc_core::sc_module,
                          public tlm::tlm_bw_transport_if<>,
                          private tlm::tlm_mm_interface {
 public:
  struct Config {
    uint64_t requests = 100000;
    uint32_t max_outstanding = 32;
    uint64_t capacity_bytes = 0;
    uint64_t window_bytes = 8192;        // the hot window
    uint64_t window_moves_every = 4096;  // requests
    double far_fraction = 0.1;           // requests outside the window
    double write_fraction = 0.5;
    double masked_write_fraction = 0.2;  // writes that carry random byte enables
    double late_end_resp_fraction = 0.25;
    sc_core::sc_time end_resp_delay{2, sc_core::SC_NS};
    uint64_t seed = 1;
  };

  tlm::tlm_initiator_socket<> out;

  CheckingInitiator(sc_core::sc_module_name name, const Config& config)
      : sc_module(name), out("out"), m_config(config), m_rng(config.seed) {
    out.bind(*this);
    m_slots = std::make_unique<Slot[]>(config.max_outstanding);
    for (size_t s = 0; s < config.max_outstanding; ++s) {
      m_slots[s].payload.set_mm(this);
      m_free.push_back(s);
    }
    move_window();
    SC_METHOD(issue);
    sensitive << m_issue_event;
    SC_METHOD(end_response);
    sensitive << m_end_resp_event;
    dont_initialize();
  }
  SC_HAS_PROCESS(CheckingInitiator);

  bool done() const { return m_completed == m_config.requests; }
  uint64_t completed() const { return m_completed; }
  uint64_t reads_checked() const { return m_reads_checked; }
  uint64_t mismatches() const { return m_mismatches; }
  uint64_t errors() const { return m_errors; }
  // The first few mismatches and errors, described.
  const std::vector<std::string>& reports() const { return m_reports; }

  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& payload, tlm::tlm_phase& phase,
                                     sc_core::sc_time&) override {
    if (phase == tlm::END_REQ || phase == tlm::BEGIN_RESP) {
      if (m_waiting_end_req == &payload) m_waiting_end_req = nullptr;
    }
    m_issue_event.notify(sc_core::SC_ZERO_TIME);
    if (phase != tlm::BEGIN_RESP) return tlm::TLM_ACCEPTED;
    check(payload);
    if (m_open_response != nullptr) {
      ++m_errors;
      report(m_slots[slot_of(payload)], "got BEGIN_RESP while another response was open");
    }
    if (m_open_response == nullptr && m_rng.unit() < m_config.late_end_resp_fraction) {
      m_open_response = &payload;
      m_end_resp_event.notify(m_config.end_resp_delay);
      return tlm::TLM_ACCEPTED;
    }
    finish(payload);
    return tlm::TLM_COMPLETED;
  }
  void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}

 private:
  static constexpr uint32_t k_burst = 64;

  struct Slot {
    tlm::tlm_generic_payload payload;
    uint64_t address = 0;
    uint8_t data[k_burst];
    uint8_t expected[k_burst];
    uint8_t enable[k_burst];  // byte enables of a masked write
  };

  void move_window() {
    const uint64_t windows = m_config.capacity_bytes / m_config.window_bytes;
    m_window = m_rng.below(windows) * m_config.window_bytes;
  }

  void next_request(bool& is_write, uint64_t& address, uint32_t& length) {
    if (m_issued % m_config.window_moves_every == 0) move_window();
    const bool far = m_rng.unit() < m_config.far_fraction;
    const uint64_t burst = far ? m_rng.below(m_config.capacity_bytes / k_burst) * k_burst
                               : m_window + m_rng.below(m_config.window_bytes / k_burst) * k_burst;
    const double size = m_rng.unit();
    length = size < 0.7 ? 64 : size < 0.85 ? 32 : 8;
    address = burst + m_rng.below(k_burst / length) * length;
    is_write = m_rng.unit() < m_config.write_fraction;
  }

  void issue() {
    if (m_issued == m_config.requests || m_free.empty() || m_waiting_end_req != nullptr) return;
    bool is_write;
    uint64_t address;
    uint32_t length;
    next_request(is_write, address, length);
    const size_t s = m_free.back();
    m_free.pop_back();
    Slot& slot = m_slots[s];
    slot.address = address;
    const bool masked = is_write && m_rng.unit() < m_config.masked_write_fraction;
    if (is_write) {
      for (uint32_t i = 0; i < length; ++i) slot.data[i] = static_cast<uint8_t>(m_rng.next());
      for (uint32_t i = 0; i < length; ++i) slot.enable[i] = (m_rng.next() & 1) ? 0xff : 0x00;
      m_shadow.write(address, slot.data, length, masked ? slot.enable : nullptr, length);
    } else {
      m_shadow.read(address, slot.expected, length);
    }
    tlm::tlm_generic_payload& p = slot.payload;
    p.set_command(is_write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    p.set_address(address);
    p.set_data_ptr(slot.data);
    p.set_data_length(length);
    p.set_streaming_width(length);
    p.set_byte_enable_ptr(masked ? slot.enable : nullptr);
    p.set_byte_enable_length(masked ? length : 0);
    p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    p.acquire();
    ++m_issued;
    m_waiting_end_req = &p;
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    const tlm::tlm_sync_enum status = out->nb_transport_fw(p, phase, delay);
    if (status == tlm::TLM_ACCEPTED) return;  // END_REQ or BEGIN_RESP will wake us
    m_waiting_end_req = nullptr;
    if (status == tlm::TLM_COMPLETED || phase == tlm::BEGIN_RESP) {
      check(p);
      finish(p);
    }
    // At most one request a nanosecond, so that queues fill and drain as time moves.
    m_issue_event.notify(sc_core::sc_time(1, sc_core::SC_NS));
  }

  void end_response() {
    tlm::tlm_generic_payload& p = *m_open_response;
    m_open_response = nullptr;  // the END_RESP call may bring the next BEGIN_RESP at once
    tlm::tlm_phase phase = tlm::END_RESP;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    out->nb_transport_fw(p, phase, delay);
    finish(p);
    m_issue_event.notify(sc_core::SC_ZERO_TIME);
  }

  size_t slot_of(const tlm::tlm_generic_payload& p) const {
    return static_cast<size_t>(reinterpret_cast<const char*>(&p) -
                               reinterpret_cast<const char*>(&m_slots[0].payload)) /
           sizeof(Slot);
  }

  void check(tlm::tlm_generic_payload& p) {
    const Slot& slot = m_slots[slot_of(p)];
    const uint32_t length = p.get_data_length();
    if (!p.is_response_ok()) {
      ++m_errors;
      report(slot, std::string("failed: ") + p.get_response_string());
    } else if (p.is_read()) {
      ++m_reads_checked;
      if (std::memcmp(slot.data, slot.expected, length) != 0) {
        ++m_mismatches;
        report(slot, "returned data that differs from the shadow copy");
      }
    }
  }

  void finish(tlm::tlm_generic_payload& p) {
    p.release();
    m_free.push_back(slot_of(p));
    ++m_completed;
  }

  void report(const Slot& slot, const std::string& what) {
    if (m_reports.size() >= 10) return;
    std::ostringstream text;
    text << (slot.payload.is_read() ? "read" : "write") << " of " << slot.payload.get_data_length()
         << " bytes at 0x" << std::hex << slot.address << " at " << sc_core::sc_time_stamp() << ' '
         << what;
    m_reports.push_back(text.str());
  }

  void free(tlm::tlm_generic_payload*) override {}  // the slots own their payloads

  Config m_config;
  Rng m_rng;
  SparseStore m_shadow;
  std::unique_ptr<Slot[]> m_slots;
  std::vector<size_t> m_free;
  uint64_t m_window = 0;
  uint64_t m_issued = 0;
  uint64_t m_completed = 0;
  uint64_t m_reads_checked = 0;
  uint64_t m_mismatches = 0;
  uint64_t m_errors = 0;
  std::vector<std::string> m_reports;
  tlm::tlm_generic_payload* m_waiting_end_req = nullptr;
  tlm::tlm_generic_payload* m_open_response = nullptr;  // accepted, END_RESP still to send
  sc_core::sc_event m_issue_event;
  sc_core::sc_event m_end_resp_event;
};

}  // namespace ohmvp::bench
