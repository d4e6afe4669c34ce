#pragma once

#include <cstdint>

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
  uint8_t stage = 0;  // the mode's progress through a multi-step request
};

// What a mode needs from the manager: its back ends (DRAM and XPoint, or DRAM and the host link)
// and a way to answer a request.
class HeteroBackEnds {
 public:
  virtual ~HeteroBackEnds() = default;
  virtual void dram_read(uint64_t address, uint32_t length, bool migration, uint64_t token) = 0;
  virtual void dram_write(uint64_t address, const uint8_t* data, const uint8_t* enable,
                          uint32_t length, bool migration, uint64_t token) = 0;
  virtual void xpoint_read(uint64_t address, uint32_t length, bool migration, uint64_t token) = 0;
  virtual void xpoint_write(uint64_t address, const uint8_t* data, uint32_t length, bool migration,
                            uint64_t token) = 0;
  // Auto-read/write: an XPoint write of migration data the XPoint controller snarfed from a DRAM
  // burst that just crossed the channel; the command goes out, the data does not cross again.
  virtual void xpoint_snarfed_write(uint64_t address, const uint8_t* data, uint32_t length,
                                    uint64_t token) = 0;
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
