#pragma once

#include <cstdint>
#include <systemc>
#include <tlm>
#include <vector>

#include "modules/optical/mrr_bank.h"
#include "modules/optical/optical_ids.h"
#include "modules/optical/transfer_timing.h"

namespace ohmvp {

// The optical protocol: one transfer of bits on a virtual channel's wavelengths, from one
// endpoint's transmitter array to one (or, on a dual route, more) receiver arrays. Endpoints are
// the memory controllers, DRAM devices and XPoint devices on the waveguide.
//
// Phases are the base protocol's four, approximately timed, with these meanings:
//   BEGIN_REQ  (forward, transmitter -> channel) the transmitter has the bits ready; the payload
//              carries their bytes (data pointer, length) and an OpticalExtension.
//   END_REQ    (backward, channel -> transmitter) the virtual channel is granted: the photonic
//              demultiplexer has enabled the destination's detector and disabled the others;
//              the MRRs listed in `couplings` are tuned. Transfers on one route of a virtual
//              channel are serialised; on a dual-route platform a memory route shares the light
//              with the data route (dual_route_mode.h); virtual channels never conflict.
//   BEGIN_RESP (backward) the last bit has reached the destination's SerDes register buffer
//              (tuning + serialisation + propagation + SerDes, transfer_timing.h).
//   END_RESP   (forward) the transmitter has seen the delivery.
// A register buffer that cannot take the bytes holds BEGIN_RESP back (backpressure).

// How the bits are on the light: plain on-off keying, or one of the two WOM generations
// (wom_code.h) when a dual route shares the light.
enum class OpticalEncoding : uint8_t { nrz, wom_first, wom_second };

// How transfer_timing() counts the light bits of a transfer in `encoding`: either WOM
// generation takes 3 cells per 2 data bits.
constexpr LightCoding light_coding_of(OpticalEncoding encoding) {
  return encoding == OpticalEncoding::nrz ? LightCoding::nrz : LightCoding::wom;
}

const char* to_string(OpticalEncoding encoding);

// Payload extension of the optical protocol. Every field is written by the transmitting side
// (the memory controller, or the XPoint controller on a memory route) before BEGIN_REQ and
// left unchanged until END_RESP; the channel and the receivers only read it.
class OpticalExtension : public tlm::tlm_extension<OpticalExtension> {
 public:
  // Who modulates the light. Default: memory controller 0.
  OpticalEndpoint source;
  // Who the transfer is for (the receiver whose detector the demultiplexer enables). Default:
  // memory controller 0; a real transfer always sets it.
  OpticalEndpoint destination;
  // The transmitter's virtual channel (its memory controller's). Default 0.
  VirtualChannelId virtual_channel{0};
  // Data route or memory route (transfer_timing.h). Default data_route.
  OpticalRoutePurpose route = OpticalRoutePurpose::data_route;
  // Every MRR array on the way whose state matters: the source's transmitter, half-coupled
  // receivers that snarf, the destination's receiver (MrrBank::apply retunes the arrays not yet
  // in their state and gives the tuning time). Default empty: the arrays are already set.
  std::vector<MrrSetting> couplings;
  // Default nrz. A WOM generation costs 3 light cells per 2 data bits.
  OpticalEncoding encoding = OpticalEncoding::nrz;
  // Data bits of the transfer (the payload's bytes x 8 unless part of a byte is sent). Default
  // 512 (64 bytes).
  uint64_t bit_count = 512;

  tlm::tlm_extension_base* clone() const override;
  void copy_from(const tlm::tlm_extension_base& other) override;
};

// The optical protocol's socket types: distinct from the ddr, ddr_t and base protocols.
struct optical_protocol_types {
  using tlm_payload_type = tlm::tlm_generic_payload;
  using tlm_phase_type = tlm::tlm_phase;
};

using OpticalFwTransport = tlm::tlm_fw_transport_if<optical_protocol_types>;
using OpticalBwTransport = tlm::tlm_bw_transport_if<optical_protocol_types>;
template <unsigned int BusWidth = 64>
using OpticalTargetSocket = tlm::tlm_target_socket<BusWidth, optical_protocol_types>;
template <unsigned int BusWidth = 64>
using OpticalInitiatorSocket = tlm::tlm_initiator_socket<BusWidth, optical_protocol_types>;

}  // namespace ohmvp
