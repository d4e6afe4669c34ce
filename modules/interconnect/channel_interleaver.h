#pragma once

#include <tlm_utils/simple_initiator_socket.h>
#include <deque>
#include <memory>
#include <systemc>
#include <tlm>
#include <vector>

#include "modules/interconnect/interleave_map.h"

namespace ohmvp {

// Spreads one address space over N memory channels in blocks of `interleave_bytes`:
// channel = (address / interleave) mod N, and the channel sees the address with that digit
// removed. The payload carries the channel's address while the channel holds it, and the global
// one again when its response reaches the initiator (BEGIN_RESP or TLM_COMPLETED). Phases pass
// through; responses from different channels are serialised so that only one BEGIN_RESP is
// open towards the initiator at a time (one held back keeps a reference, TLM-2.0 14.5).
class ChannelInterleaver : public sc_core::sc_module, public tlm::tlm_fw_transport_if<> {
 public:
  using OutSocket = tlm_utils::simple_initiator_socket_tagged<ChannelInterleaver>;

  tlm::tlm_target_socket<> in;
  std::vector<std::unique_ptr<OutSocket>> out;

  ChannelInterleaver(sc_core::sc_module_name name, uint32_t channels, uint64_t interleave_bytes);

  const InterleaveMap& map() const { return m_map; }
  uint32_t channel_of(uint64_t address) const { return m_map.channel_of(address); }
  uint64_t local_address(uint64_t address) const { return m_map.local_address(address); }
  uint64_t global_address(uint32_t channel, uint64_t local) const {
    return m_map.global_address(channel, local);
  }

  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& payload, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override;
  void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) override;
  bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) override { return false; }
  unsigned int transport_dbg(tlm::tlm_generic_payload& payload) override;

 private:
  struct Held {
    int channel;
    tlm::tlm_generic_payload* payload;
  };
  tlm::tlm_sync_enum nb_transport_bw(int channel, tlm::tlm_generic_payload& payload,
                                     tlm::tlm_phase& phase, sc_core::sc_time& delay);
  void invalidate_direct_mem_ptr(int, sc_dt::uint64, sc_dt::uint64) {}
  tlm::tlm_sync_enum forward_response(int channel, tlm::tlm_generic_payload& payload,
                                      tlm::tlm_phase& phase, sc_core::sc_time& delay);
  void send_held_response();
  // Runs `access` on the channels a span of bytes covers, one interleave block at a time.
  template <class Access>
  unsigned for_each_block(tlm::tlm_generic_payload& payload, Access access);

  InterleaveMap m_map;
  bool m_response_open = false;
  int m_response_channel = 0;
  std::deque<Held> m_held;
};

}  // namespace ohmvp
