#pragma once

#include <cstdint>
#include <systemc>
#include <tlm>

namespace ohmvp {

// DDR-T: the transactional, asynchronous protocol between a memory controller (initiator) and
// an XPoint controller (target). Media latencies are not deterministic, so the memory controller
// sends a tagged request and goes on serving others; the XPoint controller says when read data
// is ready, and the memory controller then pulls it. Completion is out of order, matched by tag.
//
//   memory controller                          XPoint controller
//   REQ (read, tag 7)        --fw-->           END_REQ at once, or later on bw when the read
//                                              buffer was full (backpressure)
//   REQ (write, tag 8, data) --fw-->           END_REQ at once; one write credit consumed
//                            <--bw--  WR_DONE  (tag 8) the write is in the persistent buffer;
//                                              the credit comes back with it
//                            <--bw--  RSP_READY (tag 7) read data is in the read buffer
//   SEND (tag 7)             --fw-->           data copied into the payload, TLM_COMPLETED
//   REQ (swap, tag 9, SwapCommand bytes) ... <--bw-- SWAP_DONE (tag 9)
//
// Every backward message travels on the payload of the request it answers (the target holds a
// reference from REQ until the last message for it), so the initiator recognises it by pointer
// as well as by tag. Times: the initiator sends REQ and SEND with a zero annotated delay at the
// instant they are on the channel; the target sends its messages at the instant they are.
namespace ddr_t {
// Forward: a new request; the extension says which (read, write, swap). A write carries its
// data (payload data pointer, length = size) and needs a write credit.
TLM_DECLARE_EXTENDED_PHASE(REQ);
// Backward: read data for the tag is in the read buffer; the initiator should SEND.
TLM_DECLARE_EXTENDED_PHASE(RSP_READY);
// Forward: pull the read data of the tag; the target copies it into the payload's data pointer
// and answers TLM_COMPLETED. The transfer time on the channel is the initiator's to model.
TLM_DECLARE_EXTENDED_PHASE(SEND);
// Backward: the write of the tag is persistent (in the persistent write buffer); one write
// credit is returned.
TLM_DECLARE_EXTENDED_PHASE(WR_DONE);
// Backward: the swap of the tag has finished (see swap_cmd.h).
TLM_DECLARE_EXTENDED_PHASE(SWAP_DONE);
}  // namespace ddr_t

enum class DdrTCommand : uint8_t { read, write, swap };

const char* to_string(DdrTCommand command);

// Payload extension of the ddr_t protocol. Every field is written by the initiator (the memory
// controller) before REQ and left unchanged until the transaction ends; the XPoint controller
// only reads it. The payload's own command and address are not used by the target: the
// extension is the DDR-T command.
class DdrTExtension : public tlm::tlm_extension<DdrTExtension> {
 public:
  // Which request. Default read.
  DdrTCommand command = DdrTCommand::read;
  // Matches backward messages and SEND to the request. Unique among the initiator's
  // outstanding requests on one target (reusing a live tag is a protocol error). Default 0.
  uint16_t tag = 0;
  // Byte address in the XPoint device's space (read, write). Default 0.
  uint64_t address = 0;
  // Bytes to read or write; the access must not cross an internal media line. For a swap, the
  // size of the encoded SwapCommand. Default 64 (one channel burst).
  uint32_t size = 64;
  // A write whose data crosses the channel's data wires after its REQ: the instant its last byte
  // reaches the XPoint end (its slot's end plus the channel's flight and SerDes). 0: the data is
  // there with the REQ (a snarfed write). Default 0.
  uint64_t data_ready_ps = 0;

  tlm::tlm_extension_base* clone() const override;
  void copy_from(const tlm::tlm_extension_base& other) override;
};

// The ddr_t protocol's socket types: distinct from ddr_protocol_types and the base protocol, so
// a DDR-T socket cannot be bound to a ddr (DRAM) socket or a base-protocol one.
struct ddr_t_protocol_types {
  using tlm_payload_type = tlm::tlm_generic_payload;
  using tlm_phase_type = tlm::tlm_phase;
};

using DdrTFwTransport = tlm::tlm_fw_transport_if<ddr_t_protocol_types>;
using DdrTBwTransport = tlm::tlm_bw_transport_if<ddr_t_protocol_types>;
template <unsigned int BusWidth = 64>
using DdrTTargetSocket = tlm::tlm_target_socket<BusWidth, ddr_t_protocol_types>;
template <unsigned int BusWidth = 64>
using DdrTInitiatorSocket = tlm::tlm_initiator_socket<BusWidth, ddr_t_protocol_types>;

}  // namespace ohmvp
