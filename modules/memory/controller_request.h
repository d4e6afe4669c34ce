#pragma once

#include <cstdint>
#include <vector>

#include "tlm_protocols/ddr_protocol.h"

namespace tlm {
class tlm_generic_payload;
}

namespace ohmvp {

// One request inside the memory controller. Reads keep the initiator's payload until they are
// answered; writes are posted, so the controller keeps its own copy of the data and byte mask.
struct ControllerRequest {
  tlm::tlm_generic_payload* payload = nullptr;  // reads only
  DramAddress address;
  uint64_t burst_address = 0;  // channel address of the burst this request falls in
  uint32_t offset = 0;         // first byte inside the burst
  uint32_t length = 0;
  uint64_t arrival_ps = 0;
  uint64_t sequence = 0;  // arrival order, the tie-breaker of every scheduler
  bool is_write = false;
  bool memory_route = false;  // its burst goes between DRAM and XPoint (DramAccessExtension)
  bool preset = false;        // an Ohm-GPU bank preset: opens its row, moves no data
  // How the bank was found when the request got its first command: for the row statistics.
  enum class RowState : uint8_t { hit, miss, conflict } row_state = RowState::hit;
  // Requests to the same burst are served in arrival order: a request waits while an older one
  // to its burst is queued.
  bool blocked = false;
  ControllerRequest* next_same_burst = nullptr;
  std::vector<uint8_t> data;     // writes: burst-sized image of the bytes to write
  std::vector<uint8_t> enabled;  // writes: 0xff where data holds a byte to write, else 0
};

// Requests come from a free list; their buffers are sized once.
class ControllerRequestPool {
 public:
  explicit ControllerRequestPool(uint32_t burst_bytes) : m_burst_bytes(burst_bytes) {}
  ControllerRequestPool(const ControllerRequestPool&) = delete;
  ControllerRequestPool& operator=(const ControllerRequestPool&) = delete;
  ~ControllerRequestPool() {
    for (auto* r : m_all) delete r;
  }

  ControllerRequest* acquire() {
    if (m_free.empty()) {
      auto* r = new ControllerRequest;
      r->data.resize(m_burst_bytes);
      r->enabled.resize(m_burst_bytes);
      m_all.push_back(r);
      return r;
    }
    ControllerRequest* r = m_free.back();
    m_free.pop_back();
    return r;
  }
  void release(ControllerRequest* r) {
    r->payload = nullptr;
    r->blocked = false;
    r->memory_route = false;
    r->preset = false;
    r->next_same_burst = nullptr;
    m_free.push_back(r);
  }

 private:
  uint32_t m_burst_bytes;
  std::vector<ControllerRequest*> m_all;
  std::vector<ControllerRequest*> m_free;
};

}  // namespace ohmvp
