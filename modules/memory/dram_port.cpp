#include "modules/memory/dram_port.h"

#include <cstring>

#include "modules/common/errors.h"

namespace ohmvp {

struct DramPort::Slot : tlm::tlm_generic_payload {
  Slot() { set_extension(&ohm); }
  ~Slot() override { clear_extension(&ohm); }
  tlm::tlm_generic_payload& payload = *this;
  DramAccessExtension ohm;
  uint8_t data[64];
  uint8_t enable[64];
  uint64_t token = 0;
  Traffic traffic = Traffic::regular;
};

DramPort::DramPort(sc_core::sc_module_name name, uint32_t slots, ChannelUsage& usage, Done done)
    : sc_module(name), out("out"), m_usage(usage), m_done(std::move(done)) {
  out.bind(*this);
  for (uint32_t s = 0; s < slots; ++s) add_slot();
  SC_METHOD(run);
  sensitive << m_wake;
  dont_initialize();
}

DramPort::~DramPort() = default;

void DramPort::add_slot() {
  m_slots.push_back(std::make_unique<Slot>());
  // The port holds a reference for the slot's life, so that a target's acquire/release pairs
  // (TLM-2.0 14.5) never bring it to zero.
  m_slots.back()->payload.set_mm(this);
  m_slots.back()->payload.acquire();
  m_free.push_back(m_slots.back().get());
}

DramPort::Slot& DramPort::take_slot(tlm::tlm_command command, uint64_t address, uint32_t length,
                                    DramAccessExtension::Kind kind, Traffic traffic,
                                    uint64_t token) {
  // Callers bound their accesses by their own slots; growing keeps them correct regardless.
  if (m_free.empty()) add_slot();
  Slot& s = *m_free.back();
  m_free.pop_back();
  s.token = token;
  s.traffic = traffic;
  s.ohm.kind = kind;
  s.ohm.memory_route = traffic == Traffic::memory_route;
  s.ohm.from_queue = false;
  tlm::tlm_generic_payload& p = s.payload;
  p.set_command(command);
  p.set_address(address);
  p.set_data_ptr(s.data);
  p.set_data_length(length);
  p.set_streaming_width(length);
  p.set_byte_enable_ptr(nullptr);
  p.set_byte_enable_length(0);
  p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  return s;
}

void DramPort::queue(Slot& s) {
  m_queue.push_back(&s);
  m_wake.notify(sc_core::SC_ZERO_TIME);
}

void DramPort::read(uint64_t address, uint32_t length, Traffic traffic, uint64_t token) {
  queue(take_slot(tlm::TLM_READ_COMMAND, address, length, DramAccessExtension::Kind::access,
                  traffic, token));
}

void DramPort::write(uint64_t address, const uint8_t* data, const uint8_t* enable, uint32_t length,
                     Traffic traffic, uint64_t token) {
  Slot& s = take_slot(tlm::TLM_WRITE_COMMAND, address, length, DramAccessExtension::Kind::access,
                      traffic, token);
  std::memcpy(s.data, data, length);
  if (enable != nullptr) {
    std::memcpy(s.enable, enable, length);
    s.payload.set_byte_enable_ptr(s.enable);
    s.payload.set_byte_enable_length(length);
  }
  queue(s);
}

void DramPort::preset(uint64_t address, uint64_t token) {
  control(DramAccessExtension::Kind::preset, address, token);
}

void DramPort::release(uint64_t address, uint64_t token) {
  control(DramAccessExtension::Kind::release, address, token);
}

void DramPort::control(DramAccessExtension::Kind kind, uint64_t address, uint64_t token) {
  queue(take_slot(tlm::TLM_IGNORE_COMMAND, address - address % 64, 64, kind, Traffic::regular,
                  token));
}

void DramPort::run() {
  while (!m_finished.empty()) {
    Slot* s = m_finished.front();
    m_finished.pop_front();
    m_done(s->token, s->data, !s->ohm.from_queue);
    m_free.push_back(s);
  }
  while (m_waiting_end_req == nullptr && !m_queue.empty()) {
    Slot* s = m_queue.front();
    m_queue.pop_front();
    send(*s);
  }
}

void DramPort::send(Slot& s) {
  ++m_in_flight;
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  const tlm::tlm_sync_enum status = out->nb_transport_fw(s.payload, phase, delay);
  if (status == tlm::TLM_COMPLETED) {
    finish(s);  // a posted write, or a refusal
  } else if (status == tlm::TLM_ACCEPTED) {
    m_waiting_end_req = &s;  // the controller's queue is full: END_REQ (or BEGIN_RESP) later
  } else if (phase == tlm::BEGIN_RESP) {
    // Answered at once (TLM_UPDATED with BEGIN_RESP): the response ends with END_RESP.
    finish(s);
    tlm::tlm_phase end = tlm::END_RESP;
    sc_core::sc_time end_delay = sc_core::SC_ZERO_TIME;
    out->nb_transport_fw(s.payload, end, end_delay);
  }
  // TLM_UPDATED with END_REQ: a read, BEGIN_RESP follows.
}

void DramPort::finish(Slot& s) {
  if (!s.payload.is_response_ok()) {
    throw SimulationError(std::string(name()) + ": DRAM access at " +
                          std::to_string(s.payload.get_address()) +
                          " failed: " + s.payload.get_response_string());
  }
  --m_in_flight;
  // A read answered from the controller's queue puts nothing on the bus; a merged write's bytes
  // cross in the burst of the write it joined.
  if (s.ohm.kind == DramAccessExtension::Kind::access &&
      (s.payload.is_write() || !s.ohm.from_queue)) {
    m_usage.add(s.traffic, s.payload.get_data_length(), !s.ohm.from_queue);
  }
  m_finished.push_back(&s);
  m_wake.notify(sc_core::SC_ZERO_TIME);
}

tlm::tlm_sync_enum DramPort::nb_transport_bw(tlm::tlm_generic_payload& payload,
                                             tlm::tlm_phase& phase, sc_core::sc_time&) {
  Slot& s = static_cast<Slot&>(payload);
  if (m_waiting_end_req == &s) {
    m_waiting_end_req = nullptr;
    m_wake.notify(sc_core::SC_ZERO_TIME);
  }
  if (phase == tlm::BEGIN_RESP) {
    finish(s);
    return tlm::TLM_COMPLETED;
  }
  return tlm::TLM_ACCEPTED;
}

}  // namespace ohmvp
