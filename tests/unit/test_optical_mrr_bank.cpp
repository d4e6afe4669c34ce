#include <catch2/catch.hpp>

#include "modules/optical/mrr_bank.h"

using namespace ohmvp;
using Catch::Matchers::Contains;

namespace {

MrrArrayId dram_half_receiver(uint32_t index) {
  return {{EndpointKind::dram, index}, false, OpticalPath::forward, MrrCoupling::half};
}

MrrArrayId xpoint_receiver(uint32_t index) {
  return {{EndpointKind::xpoint, index}, false, OpticalPath::forward, MrrCoupling::full};
}

}  // namespace

TEST_CASE("MRR bank: one array per endpoint and role of the layout", "[optical][mrr]") {
  const MrrLayoutShape shape = MrrLayoutShape::paper_default(HeteroMode::planar);
  const MrrBank base(shape, functions_of(OhmPlatform::ohm_base, HeteroMode::planar));
  CHECK(base.array_count() == 2 * (6 + 24));
  CHECK(base.has(xpoint_receiver(11)));
  CHECK_FALSE(base.has(xpoint_receiver(12)));
  CHECK_FALSE(base.has(dram_half_receiver(0)));
  const MrrBank auto_rw(shape, functions_of(OhmPlatform::auto_rw, HeteroMode::planar));
  CHECK(auto_rw.has(dram_half_receiver(0)));
  CHECK(auto_rw.array(dram_half_receiver(0)).size() == 16);
  CHECK(auto_rw.array(dram_half_receiver(0)).state(0) == MrrCoupling::off_resonance);
}

TEST_CASE("MRR bank: a snarf's settings cost the half-coupling tuning once", "[optical][mrr]") {
  const MrrTuningConfig tuning;
  const MrrLayoutShape shape = MrrLayoutShape::paper_default(HeteroMode::planar);
  MrrBank bank(shape, functions_of(OhmPlatform::auto_rw, HeteroMode::planar));
  const MrrArrayId controller_tx{
      {EndpointKind::memory_controller, 0}, true, OpticalPath::forward, MrrCoupling::full};
  const std::vector<MrrSetting> snarf = {{controller_tx, MrrCoupling::full},
                                         {dram_half_receiver(0), MrrCoupling::half},
                                         {xpoint_receiver(0), MrrCoupling::full}};
  CHECK(bank.apply(tuning, snarf) == 500);  // the slowest: into half-coupling
  CHECK(bank.retunings() == 3 * 16);
  CHECK(bank.apply(tuning, snarf) == 0);  // already there
  CHECK(bank.apply(tuning, {{dram_half_receiver(0), MrrCoupling::off_resonance},
                            {xpoint_receiver(0), MrrCoupling::off_resonance}}) == 500);
  CHECK(bank.apply(tuning, {{xpoint_receiver(0), MrrCoupling::full}}) == 100);
}

TEST_CASE("MRR bank: settings the layout cannot take are refused by name", "[optical][mrr]") {
  const MrrTuningConfig tuning;
  const MrrLayoutShape shape = MrrLayoutShape::paper_default(HeteroMode::planar);
  MrrBank base(shape, functions_of(OhmPlatform::ohm_base, HeteroMode::planar));
  CHECK_THROWS_WITH(base.apply(tuning, {{dram_half_receiver(3), MrrCoupling::half}}),
                    Contains("no dram 3 receiver (forward path, half-coupling array)"));
  CHECK_THROWS_WITH(base.apply(tuning, {{xpoint_receiver(0), MrrCoupling::half}}),
                    Contains("xpoint 0 receiver") && Contains("cannot be set half"));
  // Nothing was retuned by the refused settings.
  CHECK(base.retunings() == 0);
}
