#pragma once

#include <cstdint>

#include "modules/gpu/ptx/instruction.h"

namespace ohmvp::gpu {

class WarpState;

// One warp's share of a bar.red (__syncthreads_count/and/or): the threads that took part, those
// whose predicate held, and the register each of them receives the CTA's result in once the
// barrier opens. `op` is none for the other barriers.
struct BarrierReductionShare {
  BarrierReduction op = BarrierReduction::none;
  uint32_t destination = no_register;
  uint64_t lanes = 0;
  uint64_t true_lanes = 0;
};

// The CTA's count over the shares of the warps a barrier releases.
struct BarrierReductionTotals {
  uint64_t true_threads = 0;
  uint64_t threads = 0;
  void add(const BarrierReductionShare& share) {
    true_threads += static_cast<uint64_t>(__builtin_popcountll(share.true_lanes));
    threads += static_cast<uint64_t>(__builtin_popcountll(share.lanes));
  }
};

// The value bar.red gives every thread: .popc the number of threads whose predicate held,
// .and 1 when it held for all, .or 1 when it held for any.
uint64_t barrier_reduction_value(BarrierReduction op, const BarrierReductionTotals& totals);

// Writes the share's value (from the CTA's totals) into its destination register of its lanes;
// nothing for a barrier that does not reduce.
void write_barrier_reduction(WarpState& warp, const BarrierReductionShare& share,
                             const BarrierReductionTotals& totals);

}  // namespace ohmvp::gpu
