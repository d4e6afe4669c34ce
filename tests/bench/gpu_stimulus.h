#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "tlm_protocols/gpu_memory_protocol.h"

namespace ohmvp::bench {

// One SM-side request and what came back for it.
struct GpuRequest {
  uint64_t not_before_ps = 0;
  GpuRequestKind kind = GpuRequestKind::load;
  uint64_t address = 0;
  uint32_t sector_mask = 0;
  std::vector<uint8_t> data;     // one line: store data in, load data out
  std::vector<uint8_t> enables;  // stores: one per line byte; empty = none
  uint32_t sm = 0;

  uint64_t begin_ps = 0;
  uint64_t end_req_ps = 0;
  bool ended_req = false;
  uint64_t response_ps = 0;
  bool responded = false;
  tlm::tlm_generic_payload payload;
  GpuMemoryExtension extension;

  ~GpuRequest() { payload.clear_extension(&extension); }
};

// Stands in for an SM's LD/ST path: issues its requests in order (each no earlier than its
// time, and only after the previous one's END_REQ), and records END_REQ and the response.
// With `hold_end_resp_ps` set it keeps every response open that long before END_RESP.
class GpuStimulus : public sc_core::sc_module,
                    public tlm::tlm_bw_transport_if<gpu_memory_protocol_types> {
 public:
  tlm::tlm_initiator_socket<32, gpu_memory_protocol_types> out;
  uint64_t hold_end_resp_ps = 0;

  GpuStimulus(sc_core::sc_module_name name, uint32_t line_bytes)
      : sc_module(name), out("out"), m_line_bytes(line_bytes) {
    out.bind(*this);
    SC_THREAD(issue);
    SC_METHOD(end_responses);
    sensitive << m_end_resp_event;
    dont_initialize();
  }
  SC_HAS_PROCESS(GpuStimulus);

  GpuRequest& add(GpuRequestKind kind, uint64_t address, uint32_t sector_mask,
                  uint64_t not_before_ps = 0) {
    m_requests.push_back(std::make_unique<GpuRequest>());
    GpuRequest& r = *m_requests.back();
    r.kind = kind;
    r.address = address;
    r.sector_mask = sector_mask;
    r.not_before_ps = not_before_ps;
    r.data.assign(m_line_bytes, 0);
    m_by_payload[&r.payload] = &r;
    m_queue.push_back(&r);
    m_new_request.notify(sc_core::SC_ZERO_TIME);
    return r;
  }

  bool all_answered() const {
    for (const auto& r : m_requests) {
      if (!r->responded) return false;
    }
    return m_queue.empty();
  }

  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& payload, tlm::tlm_phase& phase,
                                     sc_core::sc_time&) override {
    GpuRequest& r = *m_by_payload.at(&payload);
    const uint64_t now = sc_core::sc_time_stamp().value();
    if (phase == tlm::END_REQ) {
      r.end_req_ps = now;
      r.ended_req = true;
      m_end_req.notify(sc_core::SC_ZERO_TIME);
      return tlm::TLM_ACCEPTED;
    }
    if (phase != tlm::BEGIN_RESP) throw std::logic_error("stimulus: unexpected phase");
    if (!r.ended_req) {
      r.end_req_ps = now;  // BEGIN_RESP implies END_REQ
      r.ended_req = true;
      m_end_req.notify(sc_core::SC_ZERO_TIME);
    }
    r.response_ps = now;
    r.responded = true;
    if (hold_end_resp_ps == 0) return tlm::TLM_COMPLETED;
    m_open_response = &payload;
    m_end_resp_event.notify(sc_core::sc_time::from_value(hold_end_resp_ps));
    return tlm::TLM_ACCEPTED;
  }
  void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}

 private:
  void issue() {
    for (;;) {
      while (m_queue.empty()) sc_core::wait(m_new_request);
      GpuRequest& r = *m_queue.front();
      const uint64_t now = sc_core::sc_time_stamp().value();
      if (r.not_before_ps > now) sc_core::wait(sc_core::sc_time::from_value(r.not_before_ps - now));
      prepare(r);
      r.begin_ps = sc_core::sc_time_stamp().value();
      tlm::tlm_phase phase = tlm::BEGIN_REQ;
      sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
      const tlm::tlm_sync_enum status = out->nb_transport_fw(r.payload, phase, delay);
      if (status == tlm::TLM_UPDATED && phase == tlm::END_REQ) {
        r.end_req_ps = r.begin_ps;
        r.ended_req = true;
      } else {
        while (!r.ended_req) sc_core::wait(m_end_req);
      }
      m_queue.pop_front();
    }
  }

  void prepare(GpuRequest& r) {
    tlm::tlm_generic_payload& p = r.payload;
    p.set_command(r.kind == GpuRequestKind::load ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
    p.set_address(r.address);
    p.set_data_ptr(r.data.data());
    p.set_data_length(m_line_bytes);
    p.set_streaming_width(m_line_bytes);
    p.set_byte_enable_ptr(r.enables.empty() ? nullptr : r.enables.data());
    p.set_byte_enable_length(uint32_t(r.enables.size()));
    p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    r.extension.kind = r.kind;
    r.extension.sm = r.sm;
    r.extension.sector_mask = r.sector_mask;
    if (p.get_extension<GpuMemoryExtension>() == nullptr) p.set_extension(&r.extension);
  }

  void end_responses() {
    tlm::tlm_phase phase = tlm::END_RESP;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    tlm::tlm_generic_payload* payload = m_open_response;
    m_open_response = nullptr;
    out->nb_transport_fw(*payload, phase, delay);
  }

  uint32_t m_line_bytes;
  std::vector<std::unique_ptr<GpuRequest>> m_requests;
  std::deque<GpuRequest*> m_queue;
  std::map<const tlm::tlm_generic_payload*, GpuRequest*> m_by_payload;
  sc_core::sc_event m_new_request;
  sc_core::sc_event m_end_req;
  sc_core::sc_event m_end_resp_event;
  tlm::tlm_generic_payload* m_open_response = nullptr;
};

}  // namespace ohmvp::bench
