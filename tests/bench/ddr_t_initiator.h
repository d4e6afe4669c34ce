#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "tlm_protocols/ddr_t_protocol.h"

namespace ohmvp::bench {

// A scripted DDR-T initiator standing in for the memory controller: requests are queued with the
// instant their REQ may go out and sent in queue order, each once the previous REQ has its
// END_REQ and, for a write, a write credit is free. SEND follows each RSP_READY after
// `send_delay_ps`. Every backward message is logged with its instant, including those for
// payloads the test sent by hand.
class DdrTInitiator : public sc_core::sc_module, public DdrTBwTransport {
 public:
  struct Request {
    DdrTCommand command = DdrTCommand::read;
    uint16_t tag = 0;
    uint64_t address = 0;
    uint64_t send_ps = 0;
    std::vector<uint8_t> data;  // written bytes, or the bytes read once pulled
    uint64_t data_ready_ps = 0;  // a write's DdrTExtension::data_ready_ps
    std::optional<uint64_t> sent_ps;
    std::optional<uint64_t> end_req_ps;
    std::optional<uint64_t> ready_ps;   // RSP_READY
    std::optional<uint64_t> pulled_ps;  // SEND
    std::optional<uint64_t> done_ps;    // WR_DONE
    tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE;
  };
  struct Event {
    uint64_t time_ps;
    std::string phase;
    uint16_t tag;
  };

  DdrTInitiatorSocket<> out;

  DdrTInitiator(sc_core::sc_module_name name, uint32_t write_credits, uint64_t send_delay_ps = 0)
      : sc_module(name), out("out"), m_credits(write_credits), m_send_delay_ps(send_delay_ps) {
    out.bind(*this);
    SC_THREAD(issue);
    SC_THREAD(pull);
  }
  SC_HAS_PROCESS(DdrTInitiator);

  ~DdrTInitiator() override {
    for (auto& slot : m_slots) slot->payload.clear_extension(&slot->extension);
  }

  size_t read(uint64_t at_ps, uint16_t tag, uint64_t address, uint32_t size = 64) {
    return add(DdrTCommand::read, at_ps, tag, address, std::vector<uint8_t>(size, 0));
  }
  size_t write(uint64_t at_ps, uint16_t tag, uint64_t address, std::vector<uint8_t> data,
               uint64_t data_ready_ps = 0) {
    const size_t id = add(DdrTCommand::write, at_ps, tag, address, std::move(data));
    m_slots[id]->request.data_ready_ps = data_ready_ps;
    return id;
  }

  const Request& request(size_t id) const { return m_slots.at(id)->request; }
  size_t requests() const { return m_slots.size(); }
  uint32_t credits() const { return m_credits; }
  const std::vector<Event>& events() const { return m_events; }
  // "PHASE tag@ns ..." for the backward messages at or after `origin_ps`, times relative to it.
  std::string log(uint64_t origin_ps) const {
    std::string text;
    for (const Event& e : m_events) {
      if (e.time_ps < origin_ps) continue;
      if (!text.empty()) text += ' ';
      text += e.phase + " " + std::to_string(e.tag) + "@" +
              std::to_string((e.time_ps - origin_ps) / 1000);
    }
    return text;
  }
  bool all_done() const {
    for (const auto& slot : m_slots) {
      const Request& r = slot->request;
      if (r.command == DdrTCommand::read ? !r.pulled_ps : !r.done_ps) return false;
    }
    return true;
  }

  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& payload, tlm::tlm_phase& phase,
                                     sc_core::sc_time&) override {
    const uint64_t now = sc_core::sc_time_stamp().value();
    const auto* ext = payload.get_extension<DdrTExtension>();
    if (ext == nullptr) throw std::logic_error("DDR-T message without an extension");
    m_events.push_back(Event{now, phase.get_name(), ext->tag});
    auto found = m_slot_of.find(&payload);
    if (found == m_slot_of.end()) return tlm::TLM_ACCEPTED;  // a payload the test sent by hand
    Request& r = m_slots[found->second]->request;
    if (phase == tlm::END_REQ) {
      r.end_req_ps = now;
      m_waiting_end_req = false;
      m_progress.notify(sc_core::SC_ZERO_TIME);
    } else if (phase == ddr_t::RSP_READY) {
      r.ready_ps = now;
      m_to_pull.push_back({now + m_send_delay_ps, found->second});
      m_pull_event.notify(sc_core::SC_ZERO_TIME);
    } else if (phase == ddr_t::WR_DONE) {
      r.done_ps = now;
      r.status = payload.get_response_status();
      ++m_credits;
      m_progress.notify(sc_core::SC_ZERO_TIME);
    } else {
      throw std::logic_error(std::string("unexpected DDR-T phase ") + phase.get_name());
    }
    return tlm::TLM_ACCEPTED;
  }
  void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}

 private:
  struct Slot {
    Request request;
    tlm::tlm_generic_payload payload;
    DdrTExtension extension;
  };

  size_t add(DdrTCommand command, uint64_t at_ps, uint16_t tag, uint64_t address,
             std::vector<uint8_t> data) {
    if (!m_slots.empty() && at_ps < m_slots.back()->request.send_ps) {
      throw std::logic_error("DDR-T stimulus must be queued in time order");
    }
    const size_t id = m_slots.size();
    auto slot = std::make_unique<Slot>();
    slot->request.command = command;
    slot->request.tag = tag;
    slot->request.address = address;
    slot->request.send_ps = at_ps;
    slot->request.data = std::move(data);
    slot->payload.set_extension(&slot->extension);
    m_slot_of[&slot->payload] = id;
    m_slots.push_back(std::move(slot));
    m_added.notify(sc_core::SC_ZERO_TIME);
    return id;
  }

  void issue() {
    for (;;) {
      while (m_next == m_slots.size()) wait(m_added);
      Slot& slot = *m_slots[m_next++];
      Request& r = slot.request;
      const uint64_t now = sc_core::sc_time_stamp().value();
      if (r.send_ps > now) wait(sc_core::sc_time::from_value(r.send_ps - now));
      while (m_waiting_end_req || (r.command == DdrTCommand::write && m_credits == 0)) {
        wait(m_progress);
      }
      send(slot);
    }
  }

  void send(Slot& slot) {
    Request& r = slot.request;
    slot.extension.command = r.command;
    slot.extension.tag = r.tag;
    slot.extension.address = r.address;
    slot.extension.size = static_cast<uint32_t>(r.data.size());
    slot.extension.data_ready_ps = r.data_ready_ps;
    slot.payload.set_data_ptr(r.data.data());
    slot.payload.set_data_length(static_cast<unsigned>(r.data.size()));
    slot.payload.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    if (r.command == DdrTCommand::write) --m_credits;
    r.sent_ps = sc_core::sc_time_stamp().value();
    tlm::tlm_phase phase = ddr_t::REQ;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    const tlm::tlm_sync_enum result = out->nb_transport_fw(slot.payload, phase, delay);
    if (result == tlm::TLM_UPDATED && phase == tlm::END_REQ) {
      r.end_req_ps = r.sent_ps;
    } else if (result == tlm::TLM_ACCEPTED) {
      m_waiting_end_req = true;
    } else {
      r.status = slot.payload.get_response_status();  // refused at once
      if (r.command == DdrTCommand::write) ++m_credits;
    }
  }

  void pull() {
    for (;;) {
      while (m_to_pull.empty()) wait(m_pull_event);
      const auto [at_ps, id] = m_to_pull.front();
      m_to_pull.pop_front();
      const uint64_t now = sc_core::sc_time_stamp().value();
      if (at_ps > now) wait(sc_core::sc_time::from_value(at_ps - now));
      Slot& slot = *m_slots[id];
      tlm::tlm_phase phase = ddr_t::SEND;
      sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
      slot.request.pulled_ps = sc_core::sc_time_stamp().value();
      out->nb_transport_fw(slot.payload, phase, delay);
      slot.request.status = slot.payload.get_response_status();
    }
  }

  std::vector<std::unique_ptr<Slot>> m_slots;
  std::map<const tlm::tlm_generic_payload*, size_t> m_slot_of;
  size_t m_next = 0;
  uint32_t m_credits;
  uint64_t m_send_delay_ps;
  bool m_waiting_end_req = false;
  std::deque<std::pair<uint64_t, size_t>> m_to_pull;
  std::vector<Event> m_events;
  sc_core::sc_event m_added;
  sc_core::sc_event m_progress;
  sc_core::sc_event m_pull_event;
};

}  // namespace ohmvp::bench
