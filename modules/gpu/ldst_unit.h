#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <queue>
#include <systemc>
#include <tlm>
#include <vector>

#include "modules/common/trace_signal.h"
#include "modules/gpu/coalescer.h"
#include "modules/gpu/gpu_config.h"
#include "modules/gpu/mshr_table.h"
#include "modules/gpu/scoreboard.h"
#include "modules/gpu/sector_cache.h"
#include "modules/gpu/simt/memory_request.h"
#include "modules/gpu/sm_stats.h"
#include "tlm_protocols/gpu_memory_protocol.h"

namespace ohmvp::gpu {

// One warp's global/local/texture access in flight: a copy of the interpreter's descriptor (the
// warp goes on issuing independent instructions meanwhile), its line requests and how far each
// has got. Pooled by the LD/ST unit.
struct MemoryOp {
  struct Waiter {
    MemoryOp* op;
    uint16_t request;
  };
  uint32_t warp = 0;  // the SM's warp slot
  const InstructionRegisters* registers = nullptr;
  uint64_t issue_cycle = 0;
  MemoryRequest request;
  size_t request_count = 0;
  std::array<CoalescedRequest, Coalescer::k_max_requests> requests{};
  std::array<LanePlacement, Coalescer::k_max_lanes> placements{};
  std::array<uint64_t, Coalescer::k_max_requests> request_lanes{};  // lanes with a piece in each
  std::array<Waiter, Coalescer::k_max_requests> waiters{};
  size_t next_request = 0;  // the next line request the L1 takes
  size_t pieces_left = 0;   // line requests not yet complete
  bool error = false;       // L2 answered an error (address outside memory)
  Opcode opcode = Opcode::ld;  // the instruction (a wmma.load/store's latency is kept apart)
  // A wmma.load/store goes as one op per run (one LD/ST of up to 16 bytes per lane, as Volta
  // expands it): each part names the whole op, which no line request belongs to and which
  // completes when its last part does.
  MemoryOp* whole = nullptr;
  uint32_t run = 0;         // a part: which run (or texture tap) of the whole it moves
  uint32_t parts_left = 0;  // the whole: parts not yet complete
  // A filtered texture fetch goes as one part per tap; the whole keeps its taps and the texels
  // its parts bring (made on first use, kept with the pooled op).
  std::unique_ptr<TextureTaps> taps;
};

// The SM's shared LD/ST path for global, local and texture accesses: coalesced line requests
// enter the L1 one per cycle in order, the first `units.ldst.latency` cycles after issue; loads
// hit (done after the hit latency) or miss into the MSHRs, which fetch the missing sectors from
// L2 (a miss on a line in flight merges, or fetches the sectors its fetches lack); loads that must
// see other SMs' writes (MemoryRequest::l2_only) go to L2 without the L1; stores update a
// present line and always go on to L2 (write-through, no allocation); atomics go to L2 and
// invalidate the L1's copy of their sectors, as a store does on a line with a fetch in flight
// (the loads waiting on the fetch came first and may not see it). Whatever goes to L2 leaves once
// the L1's tag pipeline has seen it, the hit latency after it entered. Everything sent carries its
// bytes. Requests are handed to the SM for sending with the cycle they leave; responses come back
// with the cycle they arrive.
class LdstUnit : public tlm::tlm_mm_interface {
 public:
  // An L2 request leaving the SM. Derives from the payload so a response finds its record.
  struct Outbound : tlm::tlm_generic_payload {
    explicit Outbound(tlm::tlm_mm_interface* mm, uint32_t line_bytes);
    // The extension is a member, not heap memory the payload may free.
    ~Outbound() override { clear_extension(&extension); }
    GpuMemoryExtension extension;
    std::vector<uint8_t> data;
    std::vector<uint8_t> enables;
    // Stores, atomics and loads past the L1: the op; other loads: none (the MSHR has waiters).
    MemoryOp* op = nullptr;
    uint16_t request = 0;
    uint32_t mshr = 0;
    uint64_t send_cycle = 0;
    bool translated = false;  // a managed address the driver turned into a frame address
    bool walked = false;      // its page-table walk is over: the driver translates it now
  };

  LdstUnit(uint32_t sm, const GpuConfig& config, SmStats& stats);

  // Called when an op's last piece completed at `cycle` (its data is in op.request.data).
  void on_op_done(std::function<void(MemoryOp&, uint64_t)> callback) {
    m_op_done = std::move(callback);
  }
  // Called for each request ready to leave (in order).
  void on_send(std::function<void(Outbound&)> callback) { m_send = std::move(callback); }

  bool can_accept() const { return m_queue.size() < m_queue_capacity; }
  MemoryOp& new_op();
  // Coalesces `op.request` and queues its line requests behind earlier ops.
  void accept(MemoryOp& op);
  void release(MemoryOp& op);

  // A response of the L2 that arrives at `cycle`.
  void response(Outbound& outbound, uint64_t cycle);

  // Runs `cycle`: completions due, then one line request into the L1. Returns the next cycle
  // with work (UINT64_MAX: none until a response arrives).
  uint64_t step(uint64_t cycle);
  bool idle() const { return m_queue.empty() && m_in_flight == 0 && m_hits.empty(); }
  // The queue's head could not enter the L1. What it waits for (an MSHR, a merge slot, a way, a
  // fill) only a response frees, so the unit has nothing to do until one arrives; the cycles it
  // waits count as l1_stall_cycles once it enters.
  bool head_stalled() const { return m_stalled_since != k_not_stalled; }
  uint32_t mshr_occupancy() const { return m_mshrs.occupancy(); }
  // A fence at GPU or system scope, or a kernel boundary: what the L1 holds may be older than
  // what other SMs wrote before it, so the loads after it read the L2.
  void invalidate_for_fence();

  void free(tlm::tlm_generic_payload* payload) override;

 private:
  struct Arrival {
    uint64_t cycle;
    uint64_t sequence;
    Outbound* outbound;
    bool operator>(const Arrival& o) const {
      return cycle != o.cycle ? cycle > o.cycle : sequence > o.sequence;
    }
  };
  struct PieceDone {
    uint64_t cycle;
    uint64_t sequence;
    MemoryOp* op;
    bool operator>(const PieceDone& o) const {
      return cycle != o.cycle ? cycle > o.cycle : sequence > o.sequence;
    }
  };

  bool take(MemoryOp& op, size_t request, uint64_t cycle);
  bool take_load(MemoryOp& op, size_t request, uint64_t cycle);
  // A load of a line whose MSHR `entry` has fetches in flight.
  bool take_load_into(MemoryOp& op, size_t request, uint32_t entry, uint64_t cycle);
  void fetch(uint32_t entry, uint32_t sectors, uint64_t cycle);
  void take_store(MemoryOp& op, size_t request, uint64_t cycle);
  bool take_atomic(MemoryOp& op, size_t request, uint64_t cycle);
  // Copies each piece of `request` into its lane's data with read(offset in line, bytes, to).
  template <class Read>
  void copy_lanes(MemoryOp& op, size_t request, const Read& read);
  void copy_lanes_from_l1(MemoryOp& op, size_t request, SectorCache::LineIndex line);
  // The MSHR entry whose fetches fill `line` (present in the L1 at `line_address`), or npos.
  uint32_t entry_filling(std::optional<SectorCache::LineIndex> line, uint64_t line_address) const;
  // The sectors of `line` that a load may not take from it until its fetch drains.
  uint32_t stale_sectors(SectorCache::LineIndex line, uint64_t line_address) const;
  void arrive(Outbound& outbound, uint64_t cycle);
  void piece_done(MemoryOp& op, uint64_t cycle);
  Outbound& new_outbound(GpuRequestKind kind, uint64_t line, uint32_t sectors, uint64_t cycle);

  uint32_t m_sm;
  uint32_t m_line_bytes;
  uint32_t m_hit_latency;
  uint32_t m_pipeline_latency;  // units.ldst.latency: issue to the L1
  size_t m_queue_capacity;
  SmStats& m_stats;
  SectorCache m_l1;
  MshrTable m_mshrs;
  std::vector<SectorCache::LineIndex> m_mshr_line;  // the L1 line each entry fills
  // Sectors a store, an atomic or a fence changed since the entry's fetch left.
  std::vector<uint32_t> m_mshr_stale;
  std::vector<bool> m_mshr_failed;     // a fetch of the entry was answered with an error
  std::vector<void*> m_released;       // scratch
  DirtyLine m_victim;                  // scratch (write-through: unused bytes)
  Coalescer m_coalescer;

  std::vector<std::unique_ptr<MemoryOp>> m_ops;
  std::vector<MemoryOp*> m_free_ops;
  std::deque<MemoryOp*> m_queue;  // ops whose line requests have not all entered the L1

  std::vector<std::unique_ptr<Outbound>> m_outbound;
  std::vector<Outbound*> m_free_outbound;
  uint32_t m_in_flight = 0;  // requests sent and not yet answered

  std::priority_queue<Arrival, std::vector<Arrival>, std::greater<Arrival>> m_arrivals;
  std::priority_queue<PieceDone, std::vector<PieceDone>, std::greater<PieceDone>> m_hits;
  uint64_t m_sequence = 0;
  static constexpr uint64_t k_not_stalled = UINT64_MAX;
  uint64_t m_stalled_since = k_not_stalled;  // see head_stalled()

  std::function<void(MemoryOp&, uint64_t)> m_op_done;
  std::function<void(Outbound&)> m_send;
};

}  // namespace ohmvp::gpu
