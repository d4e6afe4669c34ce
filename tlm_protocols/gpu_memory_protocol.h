#pragma once

#include <cstdint>
#include <systemc>
#include <tlm>
#include <vector>

#include "modules/gpu/ptx/instruction.h"
#include "modules/gpu/ptx/ptx_types.h"

namespace ohmvp {

// The SM <-> L2 protocol (crossbar and L2 slices). One transaction is one request of one SM to
// one cache line:
// - address: the line-aligned global address;
// - data pointer / length: a buffer of one whole line (length = line bytes), owned by the
//   initiator. Only the sectors in the extension's sector mask are meaningful: a load's
//   response fills them, a store carries them, an atomic's lanes lie in them;
// - byte enables (stores only; nullptr = every byte of the covered sectors): one entry per
//   line byte, TLM_BYTE_ENABLED (0xff) or TLM_BYTE_DISABLED;
// - command: TLM_READ_COMMAND for loads, TLM_WRITE_COMMAND for stores and atomics;
// - response status: written by the L2 slice (OK, or ADDRESS/GENERIC error).
// Phases are the base protocol's four with their rules (one BEGIN_REQ open per socket until
// END_REQ; one BEGIN_RESP until END_RESP or TLM_COMPLETED), in the subset the crossbar uses:
// it answers BEGIN_REQ with END_REQ (at once or later, on the backward path) and sends each
// BEGIN_RESP on the backward path, which the initiators complete at once; it takes no annotated
// delays, and neither early completion nor TLM_UPDATED with BEGIN_RESP. Every request gets a
// response, stores included (the SM counts them for fences). b_transport is not offered;
// transport_dbg is, with plain addresses and no extension.
enum class GpuRequestKind : uint8_t { load, store, atomic };

const char* to_string(GpuRequestKind kind);

// One lane of an atom/red executed at the L2: the read-modify-write of atomic_result() on the
// `type_bytes(type)` little-endian bytes at `offset` in the line.
struct AtomicLane {
  uint32_t offset = 0;                      // byte offset in the line; written by the SM
  gpu::DataType type = gpu::DataType::u32;  // operand type (size and arithmetic); by the SM
  gpu::AtomicOp op = gpu::AtomicOp::add;    // operation; by the SM
  uint64_t b = 0;                           // operand b (low bytes meaningful); by the SM
  uint64_t c = 0;                           // operand c (cas only); by the SM
  uint64_t old_value = 0;                   // value before this lane's update; by the L2 slice
};

// Extension carried by every transaction of the protocol. The initiator (the SM, the copy
// engine) owns it: it is set once on each of its pooled payloads, cleared when the payload is
// destroyed, and every field is written again before each BEGIN_REQ; it is not an auto
// extension.
class GpuMemoryExtension : public tlm::tlm_extension<GpuMemoryExtension> {
 public:
  // What the SM asks for. Default load. Written by the SM.
  GpuRequestKind kind = GpuRequestKind::load;
  // Issuing SM (for statistics and tracing). Default 0. Written by the SM.
  uint32_t sm = 0;
  // Sectors of the line the request covers (bit s = sector s). Default 0 (nothing: an error).
  // Written by the SM; for atomics it must cover every lane.
  uint32_t sector_mask = 0;
  // Atomics only: the lanes in the order they execute (lane order; several may hit one word).
  // Written by the SM; old_value filled by the L2 slice. Default empty.
  std::vector<AtomicLane> lanes;
  // Whether the L2 slice found every sector it needed present. Default false. Written by the
  // L2 slice when it answers.
  bool l2_hit = false;
  // The crossbar's SM-side port the response returns through. Default 0. Written by the
  // crossbar at BEGIN_REQ; no one else.
  uint32_t return_port = 0;

  tlm::tlm_extension_base* clone() const override;
  void copy_from(const tlm::tlm_extension_base& other) override;
};

// The protocol's socket types: a GPU memory socket cannot be bound to a base-protocol socket.
struct gpu_memory_protocol_types {
  using tlm_payload_type = tlm::tlm_generic_payload;
  using tlm_phase_type = tlm::tlm_phase;
};

using GpuMemoryFwTransport = tlm::tlm_fw_transport_if<gpu_memory_protocol_types>;
using GpuMemoryBwTransport = tlm::tlm_bw_transport_if<gpu_memory_protocol_types>;

// Sets `payload` (which carries `extension`) up as a new request of initiator `sm` to the line at
// `line_address`: the command of `kind`, the initiator's line buffer `data` of `line_bytes`, no
// byte enables (every byte of the covered sectors), `sectors`, no atomic lanes, no response yet.
void start_line_request(tlm::tlm_generic_payload& payload, GpuMemoryExtension& extension,
                        GpuRequestKind kind, uint32_t sm, uint64_t line_address, uint8_t* data,
                        uint32_t line_bytes, uint32_t sectors);

// The extension of a protocol transaction; SimulationError when it has none.
GpuMemoryExtension& gpu_extension(const tlm::tlm_generic_payload& payload);

}  // namespace ohmvp
