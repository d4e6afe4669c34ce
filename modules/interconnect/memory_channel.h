#pragma once

#include <cstdint>
#include <tlm>

#include "modules/interconnect/data_bus.h"
#include "tlm_protocols/ddr_protocol.h"

namespace ohmvp {

// What a platform sees of one memory channel, electrical or optical: ddr commands come in from
// the memory controller and go out to the DRAM device, and the channel's data path is a DataBus
// for each device on it (the same wires for both on an electrical channel; on an optical one a
// view that knows whose detector a transfer needs). MemorySystem builds platforms through this
// interface only.
class MemoryChannel {
 public:
  virtual ~MemoryChannel() = default;
  virtual tlm::tlm_target_socket<64, ddr_protocol_types>& ddr_in() = 0;
  virtual tlm::tlm_initiator_socket<64, ddr_protocol_types>& ddr_out() = 0;
  virtual DataBus& data_bus(BusDevice device) = 0;
  // The memory route between the DRAM and the XPoint device on the same light (Ohm-GPU's dual
  // routes), or null where the channel has none (electrical wires, Ohm-base, Auto-rw).
  virtual DataBus* memory_route() { return nullptr; }
  // Time the data path has carried transfers.
  virtual uint64_t busy_ps() const = 0;
  // The module's hierarchical name (its statistics group).
  virtual const char* channel_name() const = 0;
};

}  // namespace ohmvp
