#include "modules/gpu/sm_stats.h"

namespace ohmvp::gpu {

const char* stall_name(StallReason reason) {
  switch (reason) {
    case StallReason::issued:
      return "issued";
    case StallReason::no_ready_warp:
      return "no_ready_warp";
    case StallReason::scoreboard:
      return "scoreboard";
    case StallReason::structural:
      return "structural";
    case StallReason::memory:
      return "memory";
    case StallReason::barrier:
      return "barrier";
  }
  return "?";
}

SubCoreStats::SubCoreStats(StatsRegistry& stats, const std::string& group) {
  for (size_t r = 0; r < k_stall_reasons; ++r) {
    const auto reason = StallReason(r);
    const std::string name =
        reason == StallReason::issued ? "issue_cycles" : std::string("stall_") + stall_name(reason);
    const std::string what =
        reason == StallReason::issued
            ? "cycles the sub-core issued a warp instruction"
            : std::string("cycles without issue because: ") + stall_name(reason);
    m_cycles[r] = &stats.counter(group, name, "cycles", what);
  }
}

SmStats::SmStats(StatsRegistry& stats, const std::string& group)
    : active_cycles(
          stats.counter(group, "active_cycles", "cycles", "cycles with at least one resident CTA")),
      warp_instructions(
          stats.counter(group, "warp_instructions", "instructions", "warp instructions issued")),
      thread_instructions(stats.counter(group, "thread_instructions", "instructions",
                                        "lanes whose guard held, over issued instructions")),
      active_lanes(stats.counter(group, "active_lanes", "lanes",
                                 "active lanes at issue, over issued instructions")),
      path_yields(stats.counter(group, "path_yields", "yields",
                                "times a path yielded to lanes of its warp elsewhere: after a run "
                                "of backward branches, or at a barrier or warp-synchronous "
                                "instruction that waits for them (independent thread scheduling)")),
      ctas(stats.counter(group, "ctas", "CTAs", "CTAs run to completion")),
      l1_hits(stats.counter(group, "l1_hits", "accesses", "L1 line accesses that hit")),
      l1_misses(stats.counter(group, "l1_misses", "accesses",
                              "L1 line accesses that missed at least one sector")),
      l1_mshr_merges(stats.counter(group, "l1_mshr_merges", "accesses",
                                   "L1 misses merged into an outstanding miss")),
      l1_added_fetches(stats.counter(group, "l1_added_fetches", "accesses",
                                     "L1 misses that fetched more sectors of a line in flight")),
      l1_stall_cycles(
          stats.counter(group, "l1_stall_cycles", "cycles",
                        "cycles the LD/ST unit waited for an MSHR, a cache way or a fill")),
      l1_bypasses(stats.counter(group, "l1_bypasses", "accesses",
                                "line loads sent to L2 past the L1: .cg, .cv, volatile, or "
                                "relaxed/acquire at GPU or system scope")),
      l1_fence_invalidations(
          stats.counter(group, "l1_fence_invalidations", "fences",
                        "fences and acquiring loads and atomics at GPU or system "
                        "scope that emptied the L1")),
      tlb_hits(stats.counter(group, "tlb_hits", "requests",
                             "requests to managed pages whose translation the TLB held")),
      tlb_misses(stats.counter(group, "tlb_misses", "requests",
                               "requests to managed pages that waited for a page-table walk")),
      page_walks(stats.counter(group, "page_walks", "walks", "page-table walks started")),
      tlb_invalidations(stats.counter(group, "tlb_invalidations", "entries",
                                      "TLB entries dropped as the driver unmapped their pages")),
      stores(stats.counter(group, "stores", "requests", "line stores sent to L2")),
      atomics(stats.counter(group, "atomics", "requests", "line atomics sent to L2")),
      shared_accesses(
          stats.counter(group, "shared_accesses", "instructions", "shared-memory warp accesses")),
      shared_passes(
          stats.counter(group, "shared_passes", "passes",
                        "shared-memory bank-array passes (1 per access without conflict)")),
      const_accesses(stats.counter(group, "const_accesses", "instructions",
                                   "param and const space warp reads")),
      hmma(stats.counter(group, "hmma", "instructions",
                         "HMMA steps of the tensor-core matrix multiplies issued")),
      tensor_busy_cycles(stats.counter(group, "tensor_busy_cycles", "cycles",
                                       "cycles the sub-cores' tensor cores were taken, summed")),
      tensor_multiply_adds(stats.counter(group, "tensor_multiply_adds", "operations",
                                         "multiply-adds (m x n x k) of the matrix multiplies")),
      memory_latency(stats.histogram(group, "memory_latency", "cycles",
                                     "issue to completion of a global/local/texture access")),
      load_latency(
          stats.histogram(group, "load_latency", "cycles",
                          "issue to data of a global/local load, texture fetch or atomic")) {}

}  // namespace ohmvp::gpu
