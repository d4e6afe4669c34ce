#include "modules/host/traffic_initiator.h"

#include <cstring>
#include <sstream>

#include "modules/common/errors.h"
#include "modules/common/random.h"
#include "modules/common/sim_time.h"

namespace ohmvp {

TrafficInitiator::TrafficInitiator(sc_core::sc_module_name name, RequestSource& source,
                                   uint32_t max_outstanding, uint64_t data_seed,
                                   StatsRegistry& stats, std::function<void()> on_done)
    : sc_module(name),
      out("out"),
      m_source(source),
      m_max_outstanding(max_outstanding),
      m_data_seed(data_seed),
      m_on_done(std::move(on_done)),
      m_reads(stats.counter(this->name(), "reads", "requests", "reads completed and checked")),
      m_writes(stats.counter(this->name(), "writes", "requests", "writes completed")),
      m_bytes(stats.counter(this->name(), "bytes", "bytes", "bytes read and written")),
      m_read_latency(stats.histogram(this->name(), "read_latency", "ps",
                                     "read issue to response, as the initiator sees it")) {
  out.bind(*this);
  m_have_next = m_source.next(m_next);
  m_slot_bytes = 4096;  // the largest request a RequestSource may produce
  m_data.resize(size_t(m_slot_bytes) * max_outstanding);
  m_expected.resize(m_data.size());
  m_issue_ps.resize(max_outstanding);
  for (size_t s = max_outstanding; s-- > 0;) m_free_slots.push_back(s);
  SC_METHOD(issue);
  sensitive << m_issue_event;
}

size_t TrafficInitiator::slot_of(const tlm::tlm_generic_payload& payload) const {
  return size_t(payload.get_data_ptr() - m_data.data()) / m_slot_bytes;
}

void TrafficInitiator::fill_write_data(uint8_t* data, uint32_t length, uint64_t address) {
  uint64_t state = mix64(m_data_seed ^ mix64(address) ^ mix64(++m_writes_issued + 0x5bd1e995));
  for (uint32_t i = 0; i < length; i += 8) {
    state = mix64(state + 0x9E3779B97F4A7C15ull);
    // A whole word with a constant size is one store; only a short tail is copied byte by byte.
    if (length - i >= 8) {
      std::memcpy(data + i, &state, 8);
    } else {
      std::memcpy(data + i, &state, length - i);
    }
  }
}

void TrafficInitiator::issue() {
  if (m_in_issue) return;  // a response arriving during our own call issues nothing extra
  m_in_issue = true;
  const uint64_t now = kernel_now_ps();
  while (m_have_next && !m_waiting_end_req && m_outstanding < m_max_outstanding) {
    if (m_next.not_before_ps > now) {
      m_issue_event.notify(kernel_delay_of_ps(m_next.not_before_ps - now));
      break;
    }
    const MemoryRequest request = m_next;
    m_have_next = m_source.next(m_next);
    if (!issue_one(request, now)) break;
  }
  m_in_issue = false;
  if (done() && m_on_done) m_on_done();
}

bool TrafficInitiator::issue_one(const MemoryRequest& request, uint64_t now) {
  const size_t slot = m_free_slots.back();
  m_free_slots.pop_back();
  uint8_t* data = m_data.data() + slot * m_slot_bytes;
  if (request.is_write) {
    fill_write_data(data, request.size, request.address);
    m_shadow.write(request.address, data, request.size);
  } else {
    m_shadow.read(request.address, m_expected.data() + slot * m_slot_bytes, request.size);
  }
  m_issue_ps[slot] = now;

  tlm::tlm_generic_payload* payload = m_pool.acquire();
  payload->set_command(request.is_write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  payload->set_address(request.address);
  payload->set_data_ptr(data);
  payload->set_data_length(request.size);
  payload->set_streaming_width(request.size);
  payload->set_byte_enable_ptr(nullptr);
  payload->set_byte_enable_length(0);
  payload->set_dmi_allowed(false);
  payload->set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  ++m_outstanding;

  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  switch (out->nb_transport_fw(*payload, phase, delay)) {
    case tlm::TLM_ACCEPTED:
      m_waiting_end_req = payload;
      return false;
    case tlm::TLM_UPDATED:
      if (phase == tlm::BEGIN_RESP) {
        // Answered at once: the response phase still ends with END_RESP (TLM-2.0 15.2.4).
        tlm::tlm_phase end = tlm::END_RESP;
        sc_core::sc_time end_delay = sc_core::SC_ZERO_TIME;
        out->nb_transport_fw(*payload, end, end_delay);
        complete(*payload);
      }
      return true;
    case tlm::TLM_COMPLETED:
      complete(*payload);
      return true;
  }
  return true;
}

tlm::tlm_sync_enum TrafficInitiator::nb_transport_bw(tlm::tlm_generic_payload& payload,
                                                     tlm::tlm_phase& phase, sc_core::sc_time&) {
  if (phase == tlm::END_REQ) {
    m_waiting_end_req = nullptr;
    issue();
    return tlm::TLM_ACCEPTED;
  }
  if (phase == tlm::BEGIN_RESP) {
    // BEGIN_RESP also ends the request phase of its own transaction if END_REQ was skipped.
    if (m_waiting_end_req == &payload) m_waiting_end_req = nullptr;
    complete(payload);
    issue();
    return tlm::TLM_COMPLETED;
  }
  SC_REPORT_ERROR(name(), "unexpected phase on the backward path");
  return tlm::TLM_COMPLETED;
}

void TrafficInitiator::complete(tlm::tlm_generic_payload& payload) {
  const size_t slot = slot_of(payload);
  if (payload.is_response_error()) {
    std::ostringstream message;
    message << name() << ": " << (payload.is_write() ? "write" : "read") << " of "
            << payload.get_data_length() << " bytes at 0x" << std::hex << payload.get_address()
            << " failed: " << payload.get_response_string();
    throw SimulationError(message.str());
  }
  if (payload.is_read()) {
    check_read(payload, slot);
    m_reads.inc();
    m_read_latency.sample(kernel_now_ps() - m_issue_ps[slot]);
  } else {
    m_writes.inc();
  }
  m_bytes.inc(payload.get_data_length());
  payload.release();
  m_free_slots.push_back(slot);
  --m_outstanding;
  ++m_completed;
}

void TrafficInitiator::check_read(const tlm::tlm_generic_payload& payload, size_t slot) const {
  const uint8_t* got = payload.get_data_ptr();
  const uint8_t* expected = m_expected.data() + slot * m_slot_bytes;
  const uint32_t length = payload.get_data_length();
  if (std::memcmp(got, expected, length) == 0) return;
  uint32_t i = 0;
  while (i + 1 < length && got[i] == expected[i]) ++i;
  std::ostringstream message;
  message << name() << ": data mismatch: read of " << length << " bytes at 0x" << std::hex
          << payload.get_address() << " returned 0x" << unsigned(got[i]) << " at byte 0x"
          << payload.get_address() + i << ", expected 0x" << unsigned(expected[i])
          << " (the last value written there)";
  throw SimulationError(message.str());
}

}  // namespace ohmvp
