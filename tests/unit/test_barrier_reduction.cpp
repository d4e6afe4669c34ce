#include <catch2/catch.hpp>

#include "modules/gpu/simt/barrier_reduction.h"

using namespace ohmvp::gpu;

TEST_CASE("bar.red: the CTA's totals over the warps' shares give each reduction", "[simt]") {
  BarrierReductionShare first{BarrierReduction::popc, 3, 0xffffffffull, 0x0000000full};
  BarrierReductionShare second{BarrierReduction::popc, 3, 0x000000ffull, 0x00000003ull};
  BarrierReductionTotals totals;
  totals.add(first);
  totals.add(second);
  CHECK(totals.threads == 40);
  CHECK(totals.true_threads == 6);
  CHECK(barrier_reduction_value(BarrierReduction::popc, totals) == 6);
  CHECK(barrier_reduction_value(BarrierReduction::and_, totals) == 0);
  CHECK(barrier_reduction_value(BarrierReduction::or_, totals) == 1);

  BarrierReductionTotals none_true;
  none_true.add({BarrierReduction::or_, 1, 0xffull, 0});
  CHECK(barrier_reduction_value(BarrierReduction::or_, none_true) == 0);
  CHECK(barrier_reduction_value(BarrierReduction::and_, none_true) == 0);
  BarrierReductionTotals all_true;
  all_true.add({BarrierReduction::and_, 1, 0xf0ull, 0xf0ull});
  CHECK(barrier_reduction_value(BarrierReduction::and_, all_true) == 1);
}
