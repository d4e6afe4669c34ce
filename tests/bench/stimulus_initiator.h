#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <stdexcept>
#include <systemc>
#include <tlm>
#include <unordered_map>
#include <vector>

#include "modules/memory/dram_access_extension.h"

namespace ohmvp::bench {

// A scripted approximately-timed base-protocol initiator for module benches: requests are
// queued with the absolute time at which their BEGIN_REQ goes out, sent in queue order (the
// base protocol's request exclusion permitting), and the instant of each response is recorded.
// Requests may be queued before the first sc_start or between sc_start calls.
class StimulusInitiator : public sc_core::sc_module,
                          public tlm::tlm_bw_transport_if<>,
                          private tlm::tlm_mm_interface {
 public:
  struct Request {
    bool is_write = false;
    uint64_t address = 0;
    uint64_t send_ps = 0;
    std::vector<uint8_t> data;  // written bytes, or the bytes read once answered
    std::vector<uint8_t> byte_enables;  // writes: TLM byte enables, none when empty
    std::optional<uint64_t> sent_ps;
    // BEGIN_RESP, or the BEGIN_REQ instant for a request the target completed at once (a
    // posted write).
    std::optional<uint64_t> response_ps;
    tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE;
    // With a DramAccessExtension: what the controller left in its `from_queue`.
    bool from_queue = false;
  };

  tlm::tlm_initiator_socket<> out;

  explicit StimulusInitiator(sc_core::sc_module_name name) : sc_module(name), out("out") {
    out.bind(*this);
    SC_THREAD(run);
  }
  SC_HAS_PROCESS(StimulusInitiator);

  // Both return the request's id. Times must not decrease along the queue.
  size_t read(uint64_t at_ps, uint64_t address, uint32_t length = 64) {
    return add(false, at_ps, address, std::vector<uint8_t>(length, 0));
  }
  size_t write(uint64_t at_ps, uint64_t address, std::vector<uint8_t> data,
               std::vector<uint8_t> byte_enables = {}) {
    const size_t id = add(true, at_ps, address, std::move(data));
    m_slots[id].request.byte_enables = std::move(byte_enables);
    return id;
  }

  // Ohm-GPU DRAM requests (DramAccessExtension): a bank preset or release of the row holding
  // `address`, and a read or write put on the memory route.
  size_t preset(uint64_t at_ps, uint64_t address) {
    return control(at_ps, address, DramAccessExtension::Kind::preset);
  }
  size_t release(uint64_t at_ps, uint64_t address) {
    return control(at_ps, address, DramAccessExtension::Kind::release);
  }
  void on_memory_route(size_t id) { dram_access(id).memory_route = true; }
  // Gives the request a DramAccessExtension (a plain access until changed).
  DramAccessExtension& dram_access(size_t id) {
    Slot& slot = m_slots.at(id);
    if (!slot.dram_access) slot.dram_access = std::make_unique<DramAccessExtension>();
    return *slot.dram_access;
  }

  const Request& request(size_t id) const { return m_slots.at(id).request; }
  // Ids in the order their responses arrived.
  const std::vector<size_t>& response_order() const { return m_response_order; }

  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& payload, tlm::tlm_phase& phase,
                                     sc_core::sc_time&) override {
    Slot& slot = m_slots[m_id_of.at(&payload)];
    if (phase == tlm::END_REQ) {
      end_request(slot);
      return tlm::TLM_ACCEPTED;
    }
    if (phase != tlm::BEGIN_RESP) throw std::logic_error("unexpected phase on the backward path");
    end_request(slot);
    complete(slot);
    return tlm::TLM_COMPLETED;
  }
  void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}

 private:
  struct Slot {
    size_t id;
    Request request;
    std::unique_ptr<tlm::tlm_generic_payload> payload;
    std::unique_ptr<DramAccessExtension> dram_access;
  };

  size_t control(uint64_t at_ps, uint64_t address, DramAccessExtension::Kind kind) {
    const size_t id = add(false, at_ps, address, std::vector<uint8_t>(64, 0));
    dram_access(id).kind = kind;
    return id;
  }

  size_t add(bool is_write, uint64_t at_ps, uint64_t address, std::vector<uint8_t> data) {
    if (!m_slots.empty() && at_ps < m_slots.back().request.send_ps) {
      throw std::logic_error("stimulus requests must be queued in time order");
    }
    const size_t id = m_slots.size();
    Slot& slot = m_slots.emplace_back();
    slot.id = id;
    slot.request.is_write = is_write;
    slot.request.address = address;
    slot.request.send_ps = at_ps;
    slot.request.data = std::move(data);
    slot.payload = std::make_unique<tlm::tlm_generic_payload>();
    slot.payload->set_mm(this);
    m_id_of[slot.payload.get()] = id;
    m_added.notify(sc_core::SC_ZERO_TIME);
    return id;
  }

  void run() {
    for (;;) {
      while (m_next == m_slots.size()) wait(m_added);
      Slot& slot = m_slots[m_next++];
      const uint64_t now = sc_core::sc_time_stamp().value();
      if (slot.request.send_ps > now) {
        wait(sc_core::sc_time::from_value(slot.request.send_ps - now));
      }
      send(slot);
      while (m_waiting_end_req) wait(m_end_req);
    }
  }

  void send(Slot& slot) {
    Request& r = slot.request;
    tlm::tlm_generic_payload& p = *slot.payload;
    const bool control =
        slot.dram_access && slot.dram_access->kind != DramAccessExtension::Kind::access;
    p.set_command(control      ? tlm::TLM_IGNORE_COMMAND
                  : r.is_write ? tlm::TLM_WRITE_COMMAND
                               : tlm::TLM_READ_COMMAND);
    if (slot.dram_access) p.set_extension(slot.dram_access.get());
    p.set_address(r.address);
    p.set_data_ptr(r.data.data());
    p.set_data_length(static_cast<unsigned>(r.data.size()));
    p.set_streaming_width(static_cast<unsigned>(r.data.size()));
    p.set_byte_enable_ptr(r.byte_enables.empty() ? nullptr : r.byte_enables.data());
    p.set_byte_enable_length(static_cast<unsigned>(r.byte_enables.size()));
    p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    p.acquire();
    r.sent_ps = sc_core::sc_time_stamp().value();
    m_waiting_end_req = true;
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    const tlm::tlm_sync_enum status = out->nb_transport_fw(p, phase, delay);
    if (status == tlm::TLM_ACCEPTED) return;
    m_waiting_end_req = false;
    if (status == tlm::TLM_COMPLETED || phase == tlm::BEGIN_RESP) complete(slot);
  }

  void end_request(Slot& slot) {
    if (m_waiting_end_req && m_next > 0 && &m_slots[m_next - 1] == &slot) {
      m_waiting_end_req = false;
      m_end_req.notify(sc_core::SC_ZERO_TIME);
    }
  }

  void complete(Slot& slot) {
    slot.request.response_ps = sc_core::sc_time_stamp().value();
    slot.request.status = slot.payload->get_response_status();
    if (slot.dram_access) {
      slot.request.from_queue = slot.dram_access->from_queue;
      slot.payload->clear_extension(slot.dram_access.get());
    }
    m_response_order.push_back(slot.id);
    slot.payload->release();
  }

  void free(tlm::tlm_generic_payload*) override {}  // the slots own their payloads

  std::deque<Slot> m_slots;
  std::unordered_map<const tlm::tlm_generic_payload*, size_t> m_id_of;
  size_t m_next = 0;
  bool m_waiting_end_req = false;
  std::vector<size_t> m_response_order;
  sc_core::sc_event m_added;
  sc_core::sc_event m_end_req;
};

}  // namespace ohmvp::bench
