#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "modules/common/lazy_table.h"
#include "modules/common/sparse_store.h"
#include "modules/common/stats.h"
#include "modules/memory/hetero_config.h"
#include "modules/memory/hetero_request.h"
#include "modules/memory/page_frame_table.h"

namespace ohmvp {

// Paged mode, the Origin platform's GPU memory (OHM_FUNCTIONS.md): DRAM holds pages of a larger
// address space whose home is host memory. A request to a page in DRAM is served there; one to
// a page that is not faults. The fault takes a free frame, or the frame whose page came in
// longest ago (PageFrameTable), waits for the requests already sent to that page, reads it from
// DRAM and writes it back to host memory over PCIe when dirty; after the fault's service time
// (`fault_ns`) the missing page crosses PCIe and is written into the frame, and the page table
// is updated. Requests to the two pages wait meanwhile; requests to other pages proceed. Host
// memory is this mode's own store; every byte it holds has crossed PCIe when it is used.
class PagedMode {
 public:
  PagedMode(const HeteroConfig& config, const HeteroLayout& layout, HeteroBackEnds& back_ends,
            StatsRegistry& stats, const std::string& group);
  ~PagedMode();

  void submit(HeteroRequest& request);
  void request_done(HeteroRequest& request, const uint8_t* data);
  void migration_done(uint64_t token, const uint8_t* data);
  bool idle() const { return m_active_faults == 0 && m_blocked.empty(); }

  const PageFrameTable& table() const { return m_table; }
  // Where an address lives now: true and its DRAM address when its page is in DRAM; else its
  // bytes are in host memory (host()).
  bool locate(uint64_t address, uint64_t& dram_address) const;
  SparseStore& host() { return m_host; }

 private:
  // draining: waiting for requests already sent to the victim; active: the rest.
  enum class Phase : uint8_t { idle, draining, active };
  struct Fault {
    Phase phase = Phase::idle;
    uint64_t page = 0;  // the page brought in
    uint32_t frame = 0;
    bool has_victim = false;  // the frame's page, on its way out
    uint64_t victim = 0;
    bool victim_dirty = false;
    bool victim_out = false;   // the victim's bytes are safe in host memory
    bool victim_read = false;  // the frame's old contents have been read (or need not be)
    bool page_across = false;  // the page has crossed PCIe
    bool filling = false;      // its bytes are being written into the frame
    bool page_in = false;      // mapped: requests to it go to DRAM
    uint32_t outstanding = 0;  // DRAM accesses of the current step
    uint64_t start_ps = 0;
    std::vector<uint8_t> victim_data;
    std::vector<uint8_t> page_data;
    std::deque<HeteroRequest*> waiters;  // for the page or the victim
  };
  struct Stats;
  enum Kind : uint64_t { victim_read = 0, page_write = 1, writeback = 2, fetch = 3 };
  // HeteroRequest::stage bits: the waits a request has been counted for.
  enum WaitCounted : uint8_t { waited_for_fault = 1, waited_for_slot = 2 };

  void route(HeteroRequest& request);
  void issue(HeteroRequest& request);
  Fault* fault_of(uint64_t page);
  Fault* free_fault();
  // False, and nothing started, when no frame can be had now.
  bool start_fault(Fault& f, uint64_t page);
  void evict(Fault& f);
  void fill(Fault& f);
  void release_victim(Fault& f);
  // Lets the waiters of pages the fault no longer holds go on; frees the fault when done.
  void release(Fault& f);
  void retry_blocked();
  uint64_t token(const Fault& f, Kind kind, uint64_t burst) const;
  uint32_t bursts() const { return m_config.page_bytes / 64; }
  uint64_t frame_base(uint32_t frame) const { return uint64_t{frame} * m_config.page_bytes; }

  HeteroConfig m_config;
  HeteroLayout m_layout;
  HeteroBackEnds& m_back;
  PageFrameTable m_table;
  SparseStore m_host;
  LazyTable<uint16_t> m_in_flight;  // per page: requests sent to DRAM, not done
  std::vector<Fault> m_faults;
  uint32_t m_active_faults = 0;
  std::deque<HeteroRequest*> m_blocked;  // faulting while every fault slot is busy
  std::unique_ptr<Stats> m_stats;
};

}  // namespace ohmvp
