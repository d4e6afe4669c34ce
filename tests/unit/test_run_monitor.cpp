// How long a run may go without progress before its monitor calls it a stall.
#include <catch2/catch.hpp>

#include "modules/common/config_document.h"
#include "platforms/platform_config.h"
#include "platforms/run_monitor.h"
#include "tests/unit/platform_config_fixture.h"

using namespace ohmvp;

TEST_CASE("run monitor: a stall is a millisecond, or ten of the memory's longest operations") {
  const sc_core::sc_time period = monitor_period();
  CHECK(period == sc_core::sc_time(10, sc_core::SC_US));
  CHECK(stall_looks(period, 0) == 100);
  CHECK(stall_looks(period, 100'000'000) == 100);  // 100 us: ten fit in the millisecond
  CHECK(stall_looks(period, 100'000'001) == 101);
  CHECK(stall_looks(period, 1'000'000'000) == 1000);  // 1 ms operations: 10 ms

  // DDR4-2400: the refresh cycle, tRFC 350 ns, is its longest.
  const PlatformConfig ddr4 = test::parse_shipped("ddr4_2400");
  CHECK(ddr4.memory.longest_operation_ps() == 350'000);
  // XPoint's media write (763 ns) on a hetero platform; a paged one's fault service (45 us).
  CHECK(test::parse_shipped("hetero_planar").memory.longest_operation_ps() == 763'000);
  CHECK(test::parse_shipped("origin_planar").memory.longest_operation_ps() == 45'000'000);
  nlohmann::json slow = test::load_platform("hetero_planar").json();
  slow["memory"]["xpoint"]["read_ns"] = 1e6;
  CHECK(parse_platform(ConfigDocument(slow)).memory.longest_operation_ps() == 1'000'000'000);
}
