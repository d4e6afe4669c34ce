#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "modules/common/stats.h"

namespace ohmvp::gpu {

// Why a sub-core issued nothing in a cycle. Classified from the warp its scheduler would pick
// first: no_ready_warp (no resident warp has an instruction to issue), scoreboard (a source or
// destination register waits for an arithmetic result), structural (the functional unit is
// still busy with an earlier instruction), memory (a register waits for a load, or the LD/ST
// queue or MSHRs are full, or a fence/barrier/exit waits for its warp's accesses to complete),
// barrier (every candidate warp waits at bar.sync).
enum class StallReason : uint8_t { issued, no_ready_warp, scoreboard, structural, memory, barrier };
constexpr size_t k_stall_reasons = 6;
const char* stall_name(StallReason reason);

// The counters of one sub-core, registered under "<sm group>.sub<i>".
struct SubCoreStats {
  SubCoreStats(StatsRegistry& stats, const std::string& group);
  void record(StallReason reason, uint64_t cycles) { m_cycles[size_t(reason)]->inc(cycles); }
  uint64_t cycles(StallReason reason) const { return m_cycles[size_t(reason)]->value(); }

 private:
  std::array<Counter*, k_stall_reasons> m_cycles{};
};

// The statistics of one SM, registered under its group ("gpu.sm3").
struct SmStats {
  SmStats(StatsRegistry& stats, const std::string& group);

  Counter& active_cycles;
  Counter& warp_instructions;
  Counter& thread_instructions;
  Counter& active_lanes;
  Counter& path_yields;  // times a path yielded to lanes of its warp elsewhere (docs/gpu_simt.md)
  Counter& ctas;
  Counter& l1_hits;    // line accesses whose sectors were all present
  Counter& l1_misses;  // line accesses that went to L2 for at least one sector
  Counter& l1_mshr_merges;
  Counter& l1_added_fetches;  // misses that sent one more fetch on their line's MSHR entry
  Counter& l1_stall_cycles;   // cycles the LD/ST unit could not take its next line access
  Counter& l1_bypasses;       // line loads sent to L2 past the L1 (.cg/.cv, volatile, ...)
  Counter& l1_fence_invalidations;  // fences, acquiring ld/atom at GPU or system scope: L1 emptied
  Counter& tlb_hits;                // managed-page requests whose page the TLB held
  Counter& tlb_misses;         // those that waited for a page walk (their own or one in flight)
  Counter& page_walks;         // page-table walks started
  Counter& tlb_invalidations;  // entries dropped because the driver unmapped their page
  Counter& stores;            // line writes sent to L2
  Counter& atomics;           // line atomics sent to L2
  Counter& shared_accesses;
  Counter& shared_passes;  // bank-array passes (accesses + conflict passes)
  Counter& const_accesses;
  Counter& hmma;                  // HMMA steps of the wmma.mma / mma.sync issued
  Counter& tensor_busy_cycles;    // sub-core tensor-core cycles taken, summed over sub-cores
  Counter& tensor_multiply_adds;  // m x n x k of every matrix multiply issued
  Histogram& memory_latency;      // cycles from issue to completion of a global/local access
  Histogram& load_latency;        // of those, the loads, texture fetches and atomics
};

}  // namespace ohmvp::gpu
