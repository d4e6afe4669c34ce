#include "modules/gpu/simt/barrier_reduction.h"

#include "modules/gpu/simt/warp_state.h"

namespace ohmvp::gpu {

uint64_t barrier_reduction_value(BarrierReduction op, const BarrierReductionTotals& totals) {
  switch (op) {
    case BarrierReduction::popc:
      return totals.true_threads;
    case BarrierReduction::and_:
      return totals.true_threads == totals.threads ? 1 : 0;
    case BarrierReduction::or_:
      return totals.true_threads > 0 ? 1 : 0;
    case BarrierReduction::none:
      break;
  }
  return 0;
}

void write_barrier_reduction(WarpState& warp, const BarrierReductionShare& share,
                             const BarrierReductionTotals& totals) {
  if (share.op == BarrierReduction::none || share.destination == no_register) return;
  const uint64_t value = barrier_reduction_value(share.op, totals);
  for (uint64_t lanes = share.lanes; lanes != 0; lanes &= lanes - 1)
    warp.reg(share.destination, static_cast<uint32_t>(__builtin_ctzll(lanes))) = value;
}

}  // namespace ohmvp::gpu
