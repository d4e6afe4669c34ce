#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <systemc>
#include <tlm>
#include <unordered_map>
#include <vector>

#include "modules/common/stats.h"
#include "modules/common/trace_signal.h"
#include "modules/gpu/cycle_loop.h"
#include "modules/gpu/gpu_config.h"
#include "modules/gpu/launch_state.h"
#include "modules/gpu/ldst_unit.h"
#include "modules/gpu/managed_translation.h"
#include "modules/gpu/release_wheel.h"
#include "modules/gpu/shared_memory_banks.h"
#include "modules/gpu/simt/interpreter.h"
#include "modules/gpu/simt/warp_state.h"
#include "modules/gpu/sm_stats.h"
#include "modules/gpu/sub_core.h"
#include "modules/gpu/tensor_core_timing.h"
#include "modules/gpu/tlb.h"
#include "tlm_protocols/gpu_memory_protocol.h"

namespace ohmvp::gpu {

// One streaming multiprocessor, cycle-level, stepped by the GPU's cycle loop (it has no
// process of its own for issue). Resident CTAs own their shared memory and barrier counts; warp
// slot i belongs to sub-core i % sub_cores; each cycle every sub-core's scheduler picks a warp
// whose next instruction has no register hazard and a free unit, and the interpreter executes
// it at issue (the scoreboard holds its destinations until its latency has passed). Global,
// local and texture accesses go through the LD/ST unit and L1 to the crossbar on `out`;
// shared-memory accesses cost their bank-conflict passes; param/const reads the constant-cache
// latency. A request leaves at the cycle the L1 releases it (after the L1 hit latency): `send`
// delivers it when SystemC time gets there (the crossbar takes no annotated delays).
class Sm : public sc_core::sc_module, public GpuMemoryBwTransport {
 public:
  tlm::tlm_initiator_socket<32, gpu_memory_protocol_types> out;

  struct Callbacks {
    // A CTA of grid `grid` finished (its stores too); its resources are free.
    std::function<void(uint32_t sm, uint32_t grid)> cta_done;
    // A device fault in grid `grid`: stop the launches. `global_address`: see
    // DeviceFault::global_address.
    std::function<void(uint32_t grid, const std::string& message,
                       std::optional<uint64_t> global_address)>
        fault;
  };

  // The GPU-wide latency histograms every SM samples (the memory one alongside its own).
  struct LatencyTotals {
    Histogram& memory;      // issue to completion of a global/local/texture access
    Histogram& load;        // of those, the loads, texture fetches and atomics: issue to data
    Histogram& wmma_load;   // a wmma.load: issue to the fragment written
    Histogram& wmma_store;  // a wmma.store: issue to its last access done
    Histogram& wmma_mma;    // a wmma.mma or mma.sync: issue to D written
  };

  Sm(sc_core::sc_module_name name, uint32_t id, const GpuConfig& config, CycleLoop& loop,
     StatsRegistry& stats, VcdWriter* vcd, LatencyTotals totals, Callbacks callbacks);
  SC_HAS_PROCESS(Sm);

  // The GPU starts a grid with none running: forget what the last ones left (an abort, the
  // results of their last warps).
  void begin_grids();
  // Makes CTA `cta_linear` of `launch` resident from `cycle`; CTAs of several grids may be
  // resident at once (CtaDispatcher decides what fits).
  void start_cta(LaunchState& launch, uint64_t cta_linear, uint64_t cycle);
  // Simulates `cycle`; returns the next cycle with work of its own (CycleLoop::never if none).
  uint64_t step(uint64_t cycle) {
    const uint64_t next = simulate(cycle);
    m_wake_cycle = m_aborted ? 0 : next;
    return next;
  }
  // Whether step(cycle) could change anything: false before the cycle the last step() returned,
  // unless a response or a CTA came in since (stepping it then would only repeat the stall
  // reasons that SubCore::record() carries over the gap). An aborted SM is stepped every cycle.
  bool due(uint64_t cycle) const { return cycle >= m_wake_cycle; }
  bool ldst_head_stalled() const { return m_ldst.head_stalled(); }
  uint64_t wake_cycle() const { return m_wake_cycle; }
  // Drops every warp and CTA (after a fault); accesses in flight still drain.
  void abort();
  // No CTA resident, nothing in flight or waiting to be sent.
  bool idle() const;
  // Requests to managed addresses go through `translation` (null: none are made).
  void set_translation(ManagedTranslation* translation);
  // A request the driver parked on a far fault, sent again now that its page is mapped.
  void replay(LdstUnit::Outbound& request);
  // The driver's answer to a request it served in host memory (a remote mapping).
  void remote_response(LdstUnit::Outbound& request);
  // A TLB shootdown: the driver is about to unmap the pages [address, address + bytes) overlaps.
  void invalidate_translations(uint64_t address, uint64_t bytes);
  // A kernel boundary: the L1 forgets what it holds (it is not coherent with other SMs' stores
  // or the host's copies); a line with a fetch in flight for another grid's loads keeps it for
  // them, as at a fence.
  void invalidate_l1() { m_ldst.invalidate_for_fence(); }

  // Where each resident warp is: its launch, the function and pc of its next instruction, and
  // whether it waits at a barrier.
  void for_each_warp_position(const std::function<void(const LaunchState&, uint32_t function,
                                                       uint32_t pc, bool at_barrier)>& visit) const;

  uint32_t id() const { return m_id; }
  const SmStats& stats() const { return m_stats; }
  uint32_t sub_core_count() const { return m_sub_core_count; }
  const SubCoreStats& sub_core_stats(uint32_t sub_core) const {
    return m_sub_cores[sub_core]->stats();
  }

  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& payload, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override;
  void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}

 private:
  struct Cta {
    LaunchState* launch = nullptr;
    bool resident = false;
    uint64_t linear = 0;
    uint32_t live_warps = 0;  // warps that have not finished
    uint32_t memory_in_flight = 0;
    std::array<uint32_t, cta_barriers> arrived{};           // warps that arrived at each barrier
    std::array<uint32_t, cta_barriers> expected_threads{};  // bar.sync's count; 0: every live warp
    std::vector<uint8_t> shared;
    ExecutionContext context;
  };
  struct Warp {
    std::unique_ptr<WarpState> state;  // made when the slot first starts a warp, then kept
    LaunchState* launch = nullptr;     // its CTA's
    bool resident = false;
    bool at_barrier = false;
    uint32_t generation = 0;  // bumped when the slot takes a new warp
    uint32_t barrier = 0;
    BarrierReductionShare reduction;  // bar.red's share, written back when the barrier opens
    uint32_t cta = 0;
    uint32_t memory_in_flight = 0;
    uint32_t acquires_in_flight = 0;  // of those, loads and atomics with acquire semantics
    uint64_t ready_cycle = 0;  // earliest issue (one instruction per warp per cycle, branches)
    // The next instruction and its registers, looked up when the pc changes (issue, start).
    const Instruction* next = nullptr;
    const InstructionRegisters* next_registers = nullptr;
    const IssueTraits* next_traits = nullptr;
    // The scoreboard's release count when the next instruction last had a hazard: the hazard
    // holds until a register is released.
    uint64_t hazard_seen_at = UINT64_MAX;
    // The next instruction had no hazard: none comes until the warp issues (only its own issue
    // reserves registers).
    bool hazard_free = false;
  };
  // A sub-core whose scheduler found no warp to issue: until cycle `until` (the earliest its
  // stalled warps' ready cycles and busy units allow) it would find none again, for the same
  // reasons, unless something it waits on happens first (a register released, an access
  // done, a barrier opened, a warp added or removed, room made in the LD/ST unit's queue),
  // which clears `valid`.
  struct IdleSubCore {
    bool valid = false;
    uint64_t until = 0;
    StallReason first = StallReason::no_ready_warp;  // what SubCore::record() is told
  };

  uint32_t sub_core_of(uint32_t warp) const { return warp % m_sub_core_count; }
  uint32_t scheduler_slot(uint32_t warp) const { return warp / m_sub_core_count; }
  uint32_t warp_of(uint32_t sub_core, uint32_t slot) const {
    return slot * m_sub_core_count + sub_core;
  }

  uint64_t simulate(uint64_t cycle);
  void response_arrived(LdstUnit::Outbound& outbound, const sc_core::sc_time& delay);
  StallReason check(uint32_t warp, uint64_t cycle);
  bool has_hazard(Warp& warp, uint32_t w);
  void report_access_waits(uint32_t s, uint64_t cycle);
  void fetch_next(Warp& warp);
  void issue(uint32_t sub_core, uint32_t warp, uint64_t cycle);
  void issue_memory(uint32_t warp, const InstructionRegisters& registers, Opcode op,
                    uint64_t cycle);
  // A wmma.load/store that took `cycles` from issue to completion.
  void sample_fragment_latency(Opcode op, uint64_t cycles);
  uint32_t shared_passes(const Warp& warp, const Instruction& instruction, uint64_t lanes);
  uint32_t fragment_shared_passes(const WarpState& state, const Instruction& instruction,
                                  uint64_t lanes);
  void issue_parts(uint32_t warp, MemoryOp& whole, uint64_t cycle);
  void arrive_at_barrier(uint32_t warp, const StepResult& result, uint64_t cycle);
  void check_barriers(Cta& cta, uint32_t cta_index, uint64_t cycle);
  void finish_warp(uint32_t warp, uint64_t cycle);
  void maybe_finish_cta(uint32_t cta_index);
  void memory_done(MemoryOp& op, uint64_t cycle);
  // A fence, or an acquiring ld/atom, at GPU or system scope: the L1 drops what other SMs may
  // have written since (LdstUnit::invalidate_for_fence), counted as l1_fence_invalidations.
  void empty_l1_for_ordering();
  void raise_fault(const Warp& warp, const DeviceFault& fault);
  void schedule_release(uint32_t warp, const InstructionRegisters& registers, uint64_t cycle);
  void queue_send(LdstUnit::Outbound& outbound);
  void send();
  // The next request due to leave for the crossbar: one whose page walk is over, else the head of
  // the send queue; none (and the send process woken when one will be) if neither is due yet.
  LdstUnit::Outbound* next_to_send();
  // Turns a managed request's address into its frame's: true when it may go on; false when it
  // waits for a page walk or the driver parked it on a far fault.
  bool translate(LdstUnit::Outbound& request);
  // A TLB miss: `request` waits for the walk of `page`, started now unless one is in flight.
  void walk(LdstUnit::Outbound& request, uint64_t page);

  uint32_t m_id;
  const GpuConfig& m_config;
  CycleLoop& m_loop;
  Callbacks m_callbacks;
  uint32_t m_sub_core_count;
  SmStats m_stats;
  LatencyTotals m_totals;
  std::vector<std::unique_ptr<SubCore>> m_sub_cores;
  LdstUnit m_ldst;
  SharedMemoryBanks m_banks;
  TensorCoreTiming m_tensor;
  uint64_t m_shared_free_cycle = 0;  // the bank array takes the next access from here

  std::vector<Cta> m_ctas;
  std::vector<Warp> m_warps;
  std::vector<Scoreboard> m_scoreboards;  // by warp slot
  // The schedulers want to know when a warp first waits on a load (two-level scheduling): by
  // warp slot, the registers that loads, atomics and texture fetches in flight will write, and
  // the warps simulate() found waiting on them while a scheduler picked (reported after it).
  bool m_reports_access_waits = false;
  std::vector<Scoreboard> m_load_boards;
  std::vector<uint32_t> m_access_waits;
  uint32_t m_resident_ctas = 0;
  uint64_t m_warp_age = 0;
  uint64_t m_next_wake = 0;         // scratch of step(): earliest cycle a stalled warp may go
  std::vector<IdleSubCore> m_idle;  // by sub-core
  uint64_t m_wake_cycle = 0;        // see due()
  uint64_t m_active_since = 0;      // cycle the SM last went from no CTA to some
  ReleaseWheel m_releases;
  bool m_aborted = false;
  std::array<uint64_t, 64> m_lane_addresses{};  // scratch

  std::deque<LdstUnit::Outbound*> m_to_send;
  ManagedTranslation* m_translation = nullptr;
  uint64_t m_managed_base = 0, m_managed_bytes = 0;
  std::optional<Tlb> m_tlb;  // none while there is no translation or the config has no entries
  struct Walking {
    uint64_t ready_cycle;
    uint64_t order;  // ties broken by when the request missed
    LdstUnit::Outbound* request;
    bool operator>(const Walking& other) const {
      return ready_cycle != other.ready_cycle ? ready_cycle > other.ready_cycle
                                              : order > other.order;
    }
  };
  std::vector<Walking> m_walking;  // a min-heap on (ready_cycle, order)
  uint64_t m_walk_order = 0;
  std::unordered_map<uint64_t, uint64_t> m_walk_ready;  // page -> end cycle of its walk in flight
  bool m_port_busy = false;  // BEGIN_REQ sent, END_REQ not yet back
  sc_core::sc_event m_send_event;

  TraceSignal m_trace_mshrs;
};

}  // namespace ohmvp::gpu
