#pragma once

#include <cstdint>

#include "modules/memory/channel_usage.h"

namespace tlm {
class tlm_generic_payload;
}

namespace ohmvp {

// A front request inside the heterogeneous-memory manager (at most one 64-byte burst). Write
// data and byte enables are copied in on arrival; `line` is the mode's scratch burst.
struct HeteroRequest {
  tlm::tlm_generic_payload* payload = nullptr;
  uint32_t id = 0;  // its index in the manager's pool
  uint64_t address = 0;
  uint32_t length = 0;
  bool is_write = false;
  bool masked = false;
  uint64_t arrival_ps = 0;
  uint8_t data[64];
  uint8_t enable[64];  // 0xff: write the byte (all 0xff when not masked)
  uint8_t line[64];
  uint64_t page = 0;  // planar and paged: its logical page; two-level: its XPoint line
  bool answered = false;
  uint8_t stage = 0;        // the mode's progress through a multi-step request
  bool to_dram = false;     // planar: sent to DRAM, not to XPoint
  bool line_ready = false;  // two-level reverse write: `line` holds the fill
};

// What a mode needs from the manager: its back ends (DRAM and XPoint, or DRAM and the host link)
// and a way to answer a request. `traffic` says what an access is for; Traffic::memory_route
// (Ohm-GPU's SWAP-CMD and reverse write on the optical channel) puts a DRAM burst on the memory
// route between the devices, and keeps an XPoint read's data at the XPoint end (it goes on to
// DRAM over that route).
class HeteroBackEnds {
 public:
  virtual ~HeteroBackEnds() = default;
  virtual void dram_read(uint64_t address, uint32_t length, Traffic traffic, uint64_t token) = 0;
  virtual void dram_write(uint64_t address, const uint8_t* data, const uint8_t* enable,
                          uint32_t length, Traffic traffic, uint64_t token) = 0;
  virtual void xpoint_read(uint64_t address, uint32_t length, Traffic traffic, uint64_t token) = 0;
  virtual void xpoint_write(uint64_t address, const uint8_t* data, uint32_t length, Traffic traffic,
                            uint64_t token) = 0;
  // An XPoint write of migration data the XPoint controller already has: snarfed from a DRAM
  // burst that crossed the channel (auto-read/write), or come over the memory route. The
  // command goes out, the data does not cross again.
  virtual void xpoint_snarfed_write(uint64_t address, const uint8_t* data, uint32_t length,
                                    uint64_t token) = 0;
  // SWAP-CMD's bank preset: the DRAM controller opens the row holding `address` and keeps its
  // bank on it until dram_release; done when the row is open.
  virtual void dram_preset(uint64_t address, uint64_t token) = 0;
  virtual void dram_release(uint64_t address, uint64_t token) = 0;
  // A control message of `bytes` over the data route between the controller and the XPoint
  // controller (SWAP-CMD, its completion, a reverse write's handshake); done when across, with
  // the message's bytes when `data` gave them (else no data: a message timed, not read).
  virtual void control_message(const uint8_t* data, uint32_t bytes, uint64_t token) = 0;
  // Paged mode: moves `bytes` between host memory and the GPU over PCIe (to the device when
  // `to_device`), starting no earlier than `not_before_ps`; done with `token` and no data (the
  // mode keeps the host's bytes itself).
  virtual void host_transfer(bool to_device, uint32_t bytes, uint64_t not_before_ps,
                             uint64_t token) = 0;
  // The request is done: read data is in its payload. Called once per request.
  virtual void answer(HeteroRequest& request) = 0;
  // The mode is done with the request (it may have been answered earlier).
  virtual void retire(HeteroRequest& request) = 0;
  virtual void migration_in_flight(uint32_t count) = 0;
};

// A back-end token: the request's id, or with the migration bit a mode's own meaning.
constexpr uint64_t migration_token = uint64_t{1} << 63;

// Copies `request`'s bytes into the 64-byte `line` at the request's offset, honouring its byte
// enables.
void merge_into_line(const HeteroRequest& request, uint8_t* line);

}  // namespace ohmvp
