#include <catch2/catch.hpp>

#include "modules/common/errors.h"
#include "modules/gpu/functional_unit.h"

using namespace ohmvp;
using namespace ohmvp::gpu;

TEST_CASE("functional unit: latency and initiation interval", "[sm]") {
  FunctionalUnit fp64(8, 4);
  CHECK(fp64.can_issue(0));
  CHECK(fp64.issue(10) == 18);
  CHECK_FALSE(fp64.can_issue(11));
  CHECK_FALSE(fp64.can_issue(13));
  CHECK(fp64.next_free_cycle() == 14);
  CHECK_THROWS_AS(fp64.issue(13), SimulationError);
  CHECK(fp64.can_issue(14));
  CHECK(fp64.issue(14) == 22);  // pipelined: a second result 4 cycles after the first
  CHECK(fp64.issue(20) == 28);
  CHECK(fp64.issued() == 3);
  CHECK_THROWS_AS(FunctionalUnit(0, 1), SimulationError);
}

TEST_CASE("functional unit: a group issues to its first free unit", "[sm]") {
  FunctionalUnitGroup sfu(UnitTiming{18, 8, 2});
  CHECK(sfu.issue(0) == 18);
  CHECK(sfu.can_issue(1));
  CHECK(sfu.issue(1) == 19);
  CHECK_FALSE(sfu.can_issue(2));
  CHECK(sfu.next_free_cycle() == 8);
  CHECK_THROWS_AS(sfu.issue(7), SimulationError);
  CHECK(sfu.issue(8) == 26);
  CHECK(sfu.next_free_cycle() == 9);
  CHECK(sfu.latency() == 18);
}
