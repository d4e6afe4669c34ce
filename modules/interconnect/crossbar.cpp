#include "modules/interconnect/crossbar.h"

#include <algorithm>

#include "modules/common/errors.h"
#include "tlm_protocols/payload_pieces.h"

namespace ohmvp {

struct Crossbar::Stats {
  Counter& requests;
  Counter& request_bytes;
  Counter& request_stalls;
  Counter& responses;
  Counter& response_bytes;
  Counter& response_stalls;

  Stats(StatsRegistry& r, const std::string& g)
      : requests(r.counter(g, "requests", "packets", "requests carried to L2 slices")),
        request_bytes(r.counter(g, "request_bytes", "bytes", "data bytes in requests")),
        request_stalls(r.counter(g, "request_stalls", "packets",
                                 "requests that waited for space at their output port")),
        responses(r.counter(g, "responses", "packets", "responses carried to SMs")),
        response_bytes(r.counter(g, "response_bytes", "bytes", "data bytes in responses")),
        response_stalls(r.counter(g, "response_stalls", "packets",
                                  "responses that waited for space at their output port")) {}
};

Crossbar::Crossbar(sc_core::sc_module_name name, const CrossbarConfig& config,
                   sc_core::sc_time clock_period, uint32_t sm_ports, const InterleaveMap& map,
                   uint32_t sector_bytes, StatsRegistry& stats)
    : sc_module(name),
      m_config(config),
      m_period_ps(clock_period.value()),
      m_map(map),
      m_sector_bytes(sector_bytes),
      m_stats(std::make_unique<Stats>(stats, this->name())) {
  if (m_period_ps == 0 || sm_ports == 0 || map.channels == 0 || sector_bytes == 0) {
    throw ConfigError(std::string(this->name()) +
                      ": clock period, SM ports, slices and sector size must be positive");
  }
  for (uint32_t i = 0; i < sm_ports; ++i) {
    in.push_back(std::make_unique<SmSocket>(("in_" + std::to_string(i)).c_str()));
    in.back()->register_nb_transport_fw(this, &Crossbar::sm_fw, int(i));
    in.back()->register_b_transport(this, &Crossbar::sm_b_transport, int(i));
    in.back()->register_transport_dbg(this, &Crossbar::sm_transport_dbg, int(i));
  }
  for (uint32_t j = 0; j < map.channels; ++j) {
    out.push_back(std::make_unique<SliceSocket>(("out_" + std::to_string(j)).c_str()));
    out.back()->register_nb_transport_bw(this, &Crossbar::slice_bw, int(j));
    out.back()->register_invalidate_direct_mem_ptr(this, &Crossbar::slice_invalidate, int(j));
  }
  m_requests = Path{true,
                    std::vector<Input>(sm_ports),
                    std::vector<Output>(map.channels),
                    &m_stats->requests,
                    &m_stats->request_bytes,
                    &m_stats->request_stalls};
  m_responses = Path{false,
                     std::vector<Input>(map.channels),
                     std::vector<Output>(sm_ports),
                     &m_stats->responses,
                     &m_stats->response_bytes,
                     &m_stats->response_stalls};
  SC_METHOD(run);
  sensitive << m_wake;
  dont_initialize();
}

Crossbar::~Crossbar() = default;

bool Crossbar::idle() const {
  for (const Path* path : {&m_requests, &m_responses}) {
    for (const Input& i : path->inputs) {
      if (i.held || i.serialising) return false;
    }
    for (const Output& o : path->outputs) {
      if (o.sending || !o.queue.empty()) return false;
    }
  }
  return true;
}

void Crossbar::wake_at(uint64_t time_ps) {
  if (time_ps >= m_wake_ps) return;
  m_wake_ps = time_ps;
  const uint64_t now = now_ps();
  m_wake.notify(kernel_delay_of_ps(time_ps > now ? time_ps - now : 0));
}

// Loads carry no data towards the slice, stores no data back; atomics carry their sectors
// both ways (operands in, old values out). A packet without data still takes one cycle.
uint32_t Crossbar::packet_bytes(const Path& path, const tlm::tlm_generic_payload& payload) const {
  const GpuMemoryExtension& e = gpu_extension(payload);
  const bool carries =
      e.kind == GpuRequestKind::atomic ||
      (path.requests ? e.kind == GpuRequestKind::store : e.kind == GpuRequestKind::load);
  return carries ? uint32_t(__builtin_popcount(e.sector_mask)) * m_sector_bytes : 0;
}

tlm::tlm_sync_enum Crossbar::sm_fw(int port, tlm::tlm_generic_payload& payload,
                                   tlm::tlm_phase& phase, sc_core::sc_time& delay) {
  if (delay != sc_core::SC_ZERO_TIME) {
    throw SimulationError(std::string(name()) + ": annotated delays are not supported");
  }
  if (phase == tlm::END_RESP) {
    release_output(m_responses, uint32_t(port));
    return tlm::TLM_COMPLETED;
  }
  if (phase != tlm::BEGIN_REQ) {
    throw SimulationError(std::string(name()) + ": unexpected phase from SM port " +
                          std::to_string(port));
  }
  gpu_extension(payload).return_port = uint32_t(port);
  arrive(m_requests, uint32_t(port), slice_of(payload.get_address()), payload);
  return tlm::TLM_ACCEPTED;
}

tlm::tlm_sync_enum Crossbar::slice_bw(int port, tlm::tlm_generic_payload& payload,
                                      tlm::tlm_phase& phase, sc_core::sc_time& delay) {
  if (delay != sc_core::SC_ZERO_TIME) {
    throw SimulationError(std::string(name()) + ": annotated delays are not supported");
  }
  if (phase == tlm::END_REQ) {
    release_output(m_requests, uint32_t(port));
    return tlm::TLM_ACCEPTED;
  }
  if (phase != tlm::BEGIN_RESP) {
    throw SimulationError(std::string(name()) + ": unexpected phase from slice port " +
                          std::to_string(port));
  }
  const uint32_t sm = gpu_extension(payload).return_port;
  if (sm >= m_responses.outputs.size()) {
    throw SimulationError(std::string(name()) + ": response for unknown SM port " +
                          std::to_string(sm));
  }
  // A BEGIN_RESP also ends the request phase, if END_REQ was still outstanding.
  Output& request_output = m_requests.outputs[uint32_t(port)];
  if (request_output.blocked && request_output.sending == &payload) {
    release_output(m_requests, uint32_t(port));
  }
  arrive(m_responses, uint32_t(port), sm, payload);
  return tlm::TLM_ACCEPTED;
}

void Crossbar::arrive(Path& path, uint32_t input, uint32_t output,
                      tlm::tlm_generic_payload& payload) {
  Input& in = path.inputs[input];
  if (in.held || in.serialising) {
    throw SimulationError(std::string(name()) + ": " + (path.requests ? "SM" : "slice") + " port " +
                          std::to_string(input) +
                          " began a transaction before the previous one was acknowledged");
  }
  const uint64_t now = now_ps();
  if (!admit(path, input, output, payload, now)) {
    in.held = &payload;
    in.held_output = output;
    ++path.outputs[output].held_inputs;
    path.stalls->inc();
  }
}

// Starts `payload` on its input port at the next clock edge if its output queue has room.
bool Crossbar::admit(Path& path, uint32_t input, uint32_t output, tlm::tlm_generic_payload& payload,
                     uint64_t now) {
  Output& o = path.outputs[output];
  if (o.queue.size() >= output_places()) return false;
  const uint32_t bytes = packet_bytes(path, payload);
  const uint32_t cycles =
      std::max(1u, (bytes + m_config.bytes_per_cycle - 1) / m_config.bytes_per_cycle);
  const uint64_t start = edge_at_or_after(now);
  o.queue.push_back(Packet{&payload, input, start + m_config.latency * m_period_ps, cycles});
  Input& in = path.inputs[input];
  in.serialising = &payload;
  in.ack_ps = start + cycles * m_period_ps;
  path.packets->inc();
  path.bytes->inc(bytes);
  wake_at(std::min(in.ack_ps, o.queue.front().ready_ps));
  return true;
}

uint64_t Crossbar::packets() const {
  return m_stats->requests.value() + m_stats->responses.value();
}

void Crossbar::release_output(Path& path, uint32_t output) {
  Output& o = path.outputs[output];
  o.blocked = false;
  o.sending = nullptr;
  wake_at(now_ps());
}

void Crossbar::acknowledge(Path& path, uint32_t input, tlm::tlm_generic_payload& payload) {
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  if (path.requests) {
    tlm::tlm_phase phase = tlm::END_REQ;
    (*in[input])->nb_transport_bw(payload, phase, delay);
  } else {
    tlm::tlm_phase phase = tlm::END_RESP;
    (*out[input])->nb_transport_fw(payload, phase, delay);
  }
}

// Hands the packet to its receiver; false when the receiver keeps the phase open.
bool Crossbar::offer(Path& path, uint32_t output, tlm::tlm_generic_payload& payload) {
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  if (path.requests) {
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    const tlm::tlm_sync_enum status = (*out[output])->nb_transport_fw(payload, phase, delay);
    if (status == tlm::TLM_ACCEPTED) return false;
    if (status == tlm::TLM_UPDATED && phase == tlm::END_REQ) return true;
    throw SimulationError(std::string(name()) +
                          ": an L2 slice must answer BEGIN_REQ with END_REQ or TLM_ACCEPTED");
  }
  tlm::tlm_phase phase = tlm::BEGIN_RESP;
  const tlm::tlm_sync_enum status = (*in[output])->nb_transport_bw(payload, phase, delay);
  return status != tlm::TLM_ACCEPTED;
}

void Crossbar::step(Path& path, uint64_t now) {
  for (uint32_t i = 0; i < path.inputs.size(); ++i) {
    Input& input = path.inputs[i];
    if (input.serialising && input.ack_ps <= now) {
      tlm::tlm_generic_payload* payload = input.serialising;
      input.serialising = nullptr;
      acknowledge(path, i, *payload);
    }
  }
  for (uint32_t j = 0; j < path.outputs.size(); ++j) {
    Output& o = path.outputs[j];
    for (;;) {
      if (o.sending) {
        if (o.blocked || o.send_end_ps > now) break;
        if (!offer(path, j, *o.sending)) {
          o.blocked = true;
          break;
        }
        o.sending = nullptr;
      }
      if (o.queue.empty() || o.queue.front().ready_ps > now) break;
      const Packet packet = o.queue.front();
      o.queue.pop_front();
      o.sending = packet.payload;
      o.send_end_ps = now + packet.cycles * m_period_ps;
      admit_held(path, j, now);
    }
  }
}

// Inputs stalled on `output` take its free queue places in round-robin order.
void Crossbar::admit_held(Path& path, uint32_t output, uint64_t now) {
  Output& o = path.outputs[output];
  const uint32_t count = uint32_t(path.inputs.size());
  for (uint32_t k = 0; k < count && o.held_inputs != 0 && o.queue.size() < output_places(); ++k) {
    const uint32_t i = (o.next_input + k) % count;
    Input& input = path.inputs[i];
    if (!input.held || input.held_output != output) continue;
    tlm::tlm_generic_payload* payload = input.held;
    input.held = nullptr;
    --o.held_inputs;
    admit(path, i, output, *payload, now);
    o.next_input = (i + 1) % count;
  }
}

void Crossbar::run() {
  m_wake_ps = UINT64_MAX;
  const uint64_t now = now_ps();
  step(m_requests, now);
  step(m_responses, now);
  uint64_t next = UINT64_MAX;
  for (const Path* path : {&m_requests, &m_responses}) {
    for (const Input& input : path->inputs) {
      if (input.serialising) next = std::min(next, input.ack_ps);
    }
    for (const Output& o : path->outputs) {
      if (o.sending && !o.blocked) next = std::min(next, o.send_end_ps);
      if (!o.sending && !o.queue.empty()) next = std::min(next, o.queue.front().ready_ps);
    }
  }
  if (next != UINT64_MAX) wake_at(std::max(next, now));
}

void Crossbar::sm_b_transport(int, tlm::tlm_generic_payload& payload, sc_core::sc_time&) {
  payload.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
  SC_REPORT_ERROR(name(),
                  "the GPU memory protocol is approximately-timed only; use "
                  "nb_transport or transport_dbg");
}

// Debug access of any span: one interleave block at a time to the slice that holds it.
unsigned int Crossbar::sm_transport_dbg(int, tlm::tlm_generic_payload& payload) {
  return for_each_block(payload, m_map.interleave_bytes,
                        [this](tlm::tlm_generic_payload& part, uint64_t address) {
                          return (*out[slice_of(address)])->transport_dbg(part);
                        });
}

}  // namespace ohmvp
