#pragma once

#include <deque>
#include <functional>
#include <memory>
#include <queue>
#include <systemc>
#include <tlm>
#include <vector>

#include "modules/common/sim_time.h"
#include "modules/common/stats.h"
#include "modules/common/trace_signal.h"
#include "modules/gpu/l2_slice_config.h"
#include "modules/gpu/mshr_table.h"
#include "modules/gpu/sector_cache.h"
#include "modules/interconnect/interleave_map.h"
#include "tlm_protocols/gpu_memory_protocol.h"

namespace ohmvp::gpu {

// One L2 slice: the cache in front of one memory channel. GPU memory protocol target on `in`
// (from the crossbar, global addresses), approximately-timed base-protocol initiator on `out`
// (bound straight to the channel's memory controller, channel-local addresses). A sectored
// write-back, write-allocate cache that holds the data: loads are answered from it, stores
// write it (byte-granular dirty, no fetch), atomics run on it; misses fetch the missing sectors
// through MSHRs, where later requests to the line wait. Sleeps whenever nothing is in flight.
class L2Slice : public sc_core::sc_module,
                public GpuMemoryFwTransport,
                public tlm::tlm_bw_transport_if<>,
                public tlm::tlm_mm_interface {
 public:
  tlm::tlm_target_socket<32, gpu_memory_protocol_types> in;
  tlm::tlm_initiator_socket<> out;

  // `map` and `channel`: the interleave this slice's lines follow (its addresses are those with
  // map.channel_of() == channel). `memory_burst_bytes`: the largest aligned request the memory
  // controller takes (MemorySystemConfig::burst_bytes()).
  L2Slice(sc_core::sc_module_name name, const L2SliceConfig& config, sc_core::sc_time clock_period,
          const InterleaveMap& map, uint32_t channel, uint32_t memory_burst_bytes,
          StatsRegistry& stats, VcdWriter* vcd);
  ~L2Slice() override;
  SC_HAS_PROCESS(L2Slice);

  // Writes every dirty line back, then calls `done` once the controller has taken the last
  // write (waits first for outstanding misses). The lines stay valid and clean.
  void flush(std::function<void()> done);
  bool idle() const;
  const SectorCache& cache() const { return m_cache; }
  uint32_t mshr_occupancy() const { return m_mshrs.occupancy(); }
  // Requests so far that found every sector they needed, and those that did not.
  uint64_t hits() const;
  uint64_t misses() const;

  // Front side (GPU memory protocol).
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& payload, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override;
  void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) override;
  bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) override { return false; }
  // Reads see the cached bytes over memory's; writes go to memory and to the cached copy.
  unsigned int transport_dbg(tlm::tlm_generic_payload& payload) override;

  // Back side (base protocol).
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& payload, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override;
  void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}
  void free(tlm::tlm_generic_payload* payload) override;

 private:
  // A request to memory: a fill read or a write-back.
  struct Transfer : tlm::tlm_generic_payload {
    explicit Transfer(tlm::tlm_mm_interface* mm) : tlm::tlm_generic_payload(mm) {}
    std::vector<uint8_t> data;
    std::vector<uint8_t> enables;
    uint32_t mshr = 0;     // fills: the MSHR entry
    uint32_t sectors = 0;  // fills: the line's sectors it brings
    uint32_t line_offset = 0;
  };
  struct Miss {
    SectorCache::LineIndex line = 0;
    uint32_t reads_outstanding = 0;
    uint64_t start_ps = 0;
  };
  struct Response {
    uint64_t time_ps;
    uint64_t sequence;
    tlm::tlm_generic_payload* payload;
    bool operator>(const Response& o) const {
      return time_ps != o.time_ps ? time_ps > o.time_ps : sequence > o.sequence;
    }
  };
  struct Stats;

  void run();
  bool process(tlm::tlm_generic_payload& payload, uint64_t now, bool replay, uint64_t accepted_ps);
  uint32_t needed_sectors(const GpuMemoryExtension& extension) const;
  void count_kind(GpuRequestKind kind);
  void execute(tlm::tlm_generic_payload& payload, GpuMemoryExtension& extension,
               SectorCache::LineIndex line);
  void debug_overlay(bool read, uint64_t local, uint8_t* data, uint32_t length,
                     const uint8_t* enables);
  void execute_atomics(GpuMemoryExtension& extension, SectorCache::LineIndex line);
  void fetch(uint32_t mshr, uint64_t line_address, uint32_t sectors);
  void write_back(const DirtyLine& line);
  Transfer* new_transfer(tlm::tlm_command command, uint64_t address, uint32_t length);
  void fill_arrived(Transfer& transfer);
  void complete_fills(uint64_t now);
  void send_transfers();
  void accept_pending(uint64_t now);
  void respond_at(uint64_t time_ps, tlm::tlm_generic_payload& payload);
  void send_due_responses(uint64_t now);
  void check_flush();
  void validate(const tlm::tlm_generic_payload& payload, const GpuMemoryExtension& e) const;
  void wake_at(uint64_t time_ps);
  uint64_t now_ps() const { return kernel_now_ps(); }
  uint64_t edge_at_or_after(uint64_t t) const {
    return (t + m_period_ps - 1) / m_period_ps * m_period_ps;
  }

  L2SliceConfig m_config;
  uint64_t m_period_ps;
  InterleaveMap m_map;
  uint32_t m_channel;
  uint32_t m_chunk_bytes;  // memory request granularity inside a line
  SectorCache m_cache;
  MshrTable m_mshrs;
  std::vector<Miss> m_misses;                        // by MSHR entry
  std::vector<uint32_t> m_filled;                    // MSHR entries whose last read arrived
  std::vector<std::vector<uint64_t>> m_accepted_ps;  // by MSHR entry: its waiters' acceptance
  std::vector<void*> m_waiters;                      // scratch
  std::vector<uint64_t> m_waiters_accepted_ps;       // scratch
  DirtyLine m_victim;                                // scratch
  std::vector<uint8_t> m_line_buffer;                // scratch

  tlm::tlm_generic_payload* m_pending = nullptr;  // a request waiting to be accepted
  uint64_t m_next_accept_ps = 0;

  std::vector<std::unique_ptr<Transfer>> m_transfers;
  std::vector<Transfer*> m_free_transfers;
  std::deque<Transfer*> m_to_send;
  Transfer* m_unaccepted = nullptr;  // sent, END_REQ (or the write's response) not yet back
  uint32_t m_writes_in_flight = 0;
  uint32_t m_reads_in_flight = 0;

  std::priority_queue<Response, std::vector<Response>, std::greater<Response>> m_responses;
  uint64_t m_sequence = 0;
  bool m_waiting_end_resp = false;

  std::function<void()> m_flush_done;
  bool m_flush_requested = false;
  bool m_flush_draining = false;

  sc_core::sc_event m_wake;
  uint64_t m_wake_ps = UINT64_MAX;
  std::unique_ptr<Stats> m_stats;
  TraceSignal m_trace_mshrs;
};

}  // namespace ohmvp::gpu
