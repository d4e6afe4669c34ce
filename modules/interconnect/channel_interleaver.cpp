#include "modules/interconnect/channel_interleaver.h"

#include "tlm_protocols/payload_pieces.h"

#include <algorithm>
#include <vector>

namespace ohmvp {

ChannelInterleaver::ChannelInterleaver(sc_core::sc_module_name name, uint32_t channels,
                                       uint64_t interleave_bytes)
    : sc_module(name), in("in"), m_map{channels, interleave_bytes} {
  in.bind(*this);
  for (uint32_t c = 0; c < channels; ++c) {
    out.push_back(std::make_unique<OutSocket>(("out_" + std::to_string(c)).c_str()));
    out.back()->register_nb_transport_bw(this, &ChannelInterleaver::nb_transport_bw, int(c));
    out.back()->register_invalidate_direct_mem_ptr(
        this, &ChannelInterleaver::invalidate_direct_mem_ptr, int(c));
  }
}

tlm::tlm_sync_enum ChannelInterleaver::nb_transport_fw(tlm::tlm_generic_payload& payload,
                                                       tlm::tlm_phase& phase,
                                                       sc_core::sc_time& delay) {
  if (phase == tlm::END_RESP) {
    // The initiator closed the open response: pass END_RESP on, then open the next one.
    const int channel = m_response_channel;
    m_response_open = false;
    payload.set_address(local_address(payload.get_address()));
    const tlm::tlm_sync_enum status = (*out[channel])->nb_transport_fw(payload, phase, delay);
    payload.set_address(global_address(channel, payload.get_address()));
    send_held_response();
    return status;
  }
  const uint64_t global = payload.get_address();
  const uint32_t channel = channel_of(global);
  if (global % m_map.interleave_bytes + payload.get_data_length() > m_map.interleave_bytes) {
    payload.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return tlm::TLM_COMPLETED;
  }
  payload.set_address(local_address(global));
  const tlm::tlm_sync_enum status = (*out[channel])->nb_transport_fw(payload, phase, delay);
  if (status == tlm::TLM_COMPLETED || phase == tlm::BEGIN_RESP) payload.set_address(global);
  return status;
}

tlm::tlm_sync_enum ChannelInterleaver::nb_transport_bw(int channel,
                                                       tlm::tlm_generic_payload& payload,
                                                       tlm::tlm_phase& phase,
                                                       sc_core::sc_time& delay) {
  if (phase != tlm::BEGIN_RESP) {
    payload.set_address(global_address(channel, payload.get_address()));
    const tlm::tlm_sync_enum status = in->nb_transport_bw(payload, phase, delay);
    payload.set_address(local_address(payload.get_address()));
    return status;
  }
  if (m_response_open) {
    // Kept past the call: the target may release its reference meanwhile (TLM-2.0 14.5).
    if (payload.has_mm()) payload.acquire();
    m_held.push_back(Held{channel, &payload});
    return tlm::TLM_ACCEPTED;
  }
  // The initiator's answer (its phase and delay too) goes back to the target as it is.
  return forward_response(channel, payload, phase, delay);
}

tlm::tlm_sync_enum ChannelInterleaver::forward_response(int channel,
                                                        tlm::tlm_generic_payload& payload,
                                                        tlm::tlm_phase& phase,
                                                        sc_core::sc_time& delay) {
  payload.set_address(global_address(channel, payload.get_address()));
  const tlm::tlm_sync_enum status = in->nb_transport_bw(payload, phase, delay);
  if (status == tlm::TLM_ACCEPTED) {
    m_response_open = true;
    m_response_channel = channel;
  }
  return status;
}

void ChannelInterleaver::send_held_response() {
  while (!m_response_open && !m_held.empty()) {
    const Held held = m_held.front();
    m_held.pop_front();
    tlm::tlm_phase phase = tlm::BEGIN_RESP;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    if (forward_response(held.channel, *held.payload, phase, delay) != tlm::TLM_ACCEPTED) {
      // The initiator completed it at once: close the response towards its channel.
      tlm::tlm_phase end = tlm::END_RESP;
      sc_core::sc_time end_delay = sc_core::SC_ZERO_TIME;
      held.payload->set_address(local_address(held.payload->get_address()));
      (*out[held.channel])->nb_transport_fw(*held.payload, end, end_delay);
    }
    if (held.payload->has_mm()) held.payload->release();
  }
}

template <class Access>
unsigned ChannelInterleaver::for_each_block(tlm::tlm_generic_payload& payload, Access access) {
  return ohmvp::for_each_block(payload, m_map.interleave_bytes,
                               [&](tlm::tlm_generic_payload& part, uint64_t global) {
                                 part.set_address(local_address(global));
                                 return access(*out[channel_of(global)], part);
                               });
}

void ChannelInterleaver::b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) {
  sc_core::sc_time longest = delay;
  for_each_block(payload, [&](OutSocket& socket, tlm::tlm_generic_payload& part) {
    sc_core::sc_time part_delay = delay;
    socket->b_transport(part, part_delay);
    longest = std::max(longest, part_delay);
    return part.is_response_ok() ? part.get_data_length() : 0u;
  });
  delay = longest;
}

unsigned int ChannelInterleaver::transport_dbg(tlm::tlm_generic_payload& payload) {
  return for_each_block(payload, [](OutSocket& socket, tlm::tlm_generic_payload& part) {
    return socket->transport_dbg(part);
  });
}

}  // namespace ohmvp
