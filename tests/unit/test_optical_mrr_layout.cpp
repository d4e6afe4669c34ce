#include <catch2/catch.hpp>

#include "modules/optical/link_budget.h"
#include "modules/optical/mrr_layout.h"

using namespace ohmvp;

namespace {

MrrCounts counts_of(OhmPlatform platform, HeteroMode mode) {
  return count_mrrs(MrrLayoutShape::paper_default(mode), functions_of(platform, mode));
}

MrrCounts general(HeteroMode mode) {
  return count_mrrs(MrrLayoutShape::paper_default(mode), all_functions());
}

}  // namespace

TEST_CASE("MRR layout: the general layout gives DRAM 3+3 and XPoint 2+3 arrays", "[optical][mrr]") {
  CHECK(arrays_per_endpoint(EndpointKind::dram, all_functions()) == std::make_pair(3u, 3u));
  CHECK(arrays_per_endpoint(EndpointKind::xpoint, all_functions()) == std::make_pair(2u, 3u));
  CHECK(arrays_per_endpoint(EndpointKind::memory_controller, all_functions()) ==
        std::make_pair(2u, 1u));
  const std::vector<OhmFunction> base = functions_of(OhmPlatform::ohm_base, HeteroMode::planar);
  for (EndpointKind kind :
       {EndpointKind::memory_controller, EndpointKind::dram, EndpointKind::xpoint})
    CHECK(arrays_per_endpoint(kind, base) == std::make_pair(1u, 1u));
}

TEST_CASE("MRR layout: counts per platform and mode", "[optical][mrr]") {
  // 6 controllers + 24 devices, one 16-ring array each way.
  const MrrCounts base = counts_of(OhmPlatform::ohm_base, HeteroMode::planar);
  CHECK(base.modulators == 480);
  CHECK(base.detectors == 480);
  CHECK(base.half_coupled == 0);
  CHECK(base.forward_rings == 480);
  CHECK(base.backward_rings == 480);
  // Ohm-BW planar: controller and XPoint half-coupled transmitters (6 + 12 arrays), DRAM swap
  // transmitters (12), XPoint half-coupled detectors (12).
  const MrrCounts bw_planar = counts_of(OhmPlatform::ohm_bw, HeteroMode::planar);
  CHECK(bw_planar.modulators == 480 + (6 + 12 + 12) * 16);
  CHECK(bw_planar.detectors == 480 + 12 * 16);
  // Two-level: auto-read/write and reverse write add receivers only, as in Table 3 where Ohm-BW's
  // two-level modulators equal Ohm-base's.
  const MrrCounts bw_two_level = counts_of(OhmPlatform::ohm_bw, HeteroMode::two_level);
  const MrrCounts base_two_level = counts_of(OhmPlatform::ohm_base, HeteroMode::two_level);
  CHECK(bw_two_level.modulators == base_two_level.modulators);
  CHECK(published_mrr_counts(OhmPlatform::ohm_bw, HeteroMode::two_level).modulators ==
        published_mrr_counts(OhmPlatform::ohm_base, HeteroMode::two_level).modulators);
  // 6 DRAM x 2 half-coupled receivers + 18 XPoint x 2.
  CHECK(bw_two_level.detectors == 480 + (12 + 36) * 16);
  CHECK(counts_of(OhmPlatform::ohm_wom, HeteroMode::two_level).total() == bw_two_level.total());
}

TEST_CASE("MRR layout: mode-specific savings against the general layout", "[optical][mrr]") {
  CHECK(general(HeteroMode::planar).total() == 2400);
  CHECK(general(HeteroMode::two_level).total() == 2304);
  CHECK(saving(counts_of(OhmPlatform::ohm_bw, HeteroMode::planar), general(HeteroMode::planar)) ==
        Approx(1.0 - 1632.0 / 2400.0));
  CHECK(saving(counts_of(OhmPlatform::ohm_bw, HeteroMode::two_level),
               general(HeteroMode::two_level)) == Approx(1.0 - 1728.0 / 2304.0));
  // Against the paper's unoptimised four pairs per device.
  const MrrCounts four = count_four_pair_layout(MrrLayoutShape::paper_default(HeteroMode::planar));
  CHECK(four.total() == 2 * (6 + 4 * 24) * 16);
  CHECK(saving(counts_of(OhmPlatform::ohm_bw, HeteroMode::planar), four) ==
        Approx(1.0 - 1632.0 / 3264.0));
}

TEST_CASE("MRR layout: the paper's Table 3 arithmetic", "[optical][mrr]") {
  const auto total = [](OhmPlatform p, HeteroMode m) {
    const PublishedMrrCounts c = published_mrr_counts(p, m);
    return static_cast<double>(c.modulators + c.detectors);
  };
  const double bw_planar = total(OhmPlatform::ohm_bw, HeteroMode::planar);
  const double bw_two_level = total(OhmPlatform::ohm_bw, HeteroMode::two_level);
  // The 58% / 42% savings are each mode's Ohm-BW layout against the two together (12,608).
  CHECK(bw_planar + bw_two_level == 12608);
  CHECK(1.0 - bw_planar / (bw_planar + bw_two_level) == Approx(0.58).margin(0.005));
  CHECK(1.0 - bw_two_level / (bw_planar + bw_two_level) == Approx(0.42).margin(0.005));
  // "41% more MRRs than Ohm-base", over both modes.
  const double base = total(OhmPlatform::ohm_base, HeteroMode::planar) +
                      total(OhmPlatform::ohm_base, HeteroMode::two_level);
  CHECK((bw_planar + bw_two_level) / base - 1.0 == Approx(0.41).margin(0.005));
  CHECK(k_mrr_cost_usd * (bw_planar + bw_two_level - base) == Approx(4.0));
  CHECK(mrr_cost_usd(counts_of(OhmPlatform::ohm_base, HeteroMode::planar)) ==
        Approx(960 * 4.0 / 3648.0));
}

TEST_CASE("MRR layout: a platform's budget carries the general layout of its devices",
          "[optical][mrr]") {
  // The shipped platforms' devices: 6 controllers, one DRAM and one XPoint each, 16-ring arrays.
  MrrLayoutShape shape;
  shape.dram_per_channel = 1;
  shape.xpoint_per_channel = 1;
  const OpticalChannelConfig c;
  const PlatformBudget base = platform_budget(OhmPlatform::ohm_base, HeteroMode::planar, c, shape);
  const PlatformBudget bw = platform_budget(OhmPlatform::ohm_bw, HeteroMode::planar, c, shape);
  // General: controller 2 + 1 arrays, DRAM 3 + 3, XPoint 2 + 3, per virtual channel.
  CHECK(base.general_mrrs.total() == 6 * (3 + 6 + 5) * 16);
  CHECK(bw.general_mrrs.total() == base.general_mrrs.total());
  CHECK(base.mrrs.total() == 576);
  CHECK(saving(base.mrrs, base.general_mrrs) == Approx(1.0 - 576.0 / 1344.0));
  CHECK(saving(bw.mrrs, bw.general_mrrs) == Approx(1.0 - 960.0 / 1344.0));
}
