#include <catch2/catch.hpp>

#include <vector>

#include "modules/common/errors.h"
#include "modules/gpu/cta_dispatcher.h"
#include "modules/gpu/occupancy.h"

using namespace ohmvp;
using namespace ohmvp::gpu;
using Catch::Matchers::Contains;

namespace {

const SmLimits volta;  // the Titan V limits are the defaults

Occupancy occupancy(uint32_t threads, uint32_t registers, uint64_t shared = 0,
                    const SmLimits& limits = volta) {
  return compute_occupancy(CtaResources{threads, registers, shared}, limits, 32);
}

using Placed = std::vector<std::pair<uint32_t, uint64_t>>;  // (SM, CTA)

Placed dispatch_all(CtaDispatcher& dispatcher, uint32_t grid) {
  Placed got;
  CtaDispatcher::Assignment a;
  while (dispatcher.next(a)) {
    CHECK(a.grid == grid);
    got.emplace_back(a.sm, a.cta);
  }
  return got;
}

}  // namespace

TEST_CASE("occupancy: PTX registers in 32-bit units", "[sm]") {
  Function f;
  f.register_types = {DataType::pred, DataType::pred, DataType::b32, DataType::u32, DataType::b64,
                      DataType::f64,  DataType::f32,  DataType::b16, DataType::f16};
  CHECK(ptx_registers_per_thread(f) == 9);
  CHECK(ptx_registers_per_thread(Function{}) == 0);
}

TEST_CASE("occupancy: each limit can decide", "[sm]") {
  Occupancy o = occupancy(256, 32);
  CHECK(o.warps_per_cta == 8);
  CHECK(o.registers_per_cta == 8192);
  CHECK(o.ctas_per_sm == 8);
  CHECK(o.limiter == OccupancyLimiter::threads);  // ties name the first limit

  o = occupancy(128, 40);
  CHECK(o.registers_per_cta == 5120);
  CHECK(o.ctas_per_sm == 12);
  CHECK(o.limiter == OccupancyLimiter::registers);

  // 33 registers x 32 threads = 1056, allocated as 1280 per warp.
  o = occupancy(256, 33);
  CHECK(o.registers_per_cta == 10240);
  CHECK(o.ctas_per_sm == 6);

  o = occupancy(64, 10, 20000);
  CHECK(o.shared_bytes_per_cta == 20224);
  CHECK(o.ctas_per_sm == 4);
  CHECK(o.limiter == OccupancyLimiter::shared_memory);

  o = occupancy(32, 8);
  CHECK(o.ctas_per_sm == 32);
  CHECK(o.limiter == OccupancyLimiter::ctas);

  // A partial warp holds a whole warp's thread slots: 33 threads count as 64.
  SmLimits few_ctas = volta;
  few_ctas.max_ctas = 64;
  o = occupancy(33, 0, 0, few_ctas);
  CHECK(o.warps_per_cta == 2);
  CHECK(o.ctas_per_sm == 32);
  CHECK(o.limiter == OccupancyLimiter::threads);

  SmLimits few_warps = volta;
  few_warps.max_threads = 4096;
  o = occupancy(256, 8, 0, few_warps);
  CHECK(o.ctas_per_sm == 8);
  CHECK(o.limiter == OccupancyLimiter::warps);
}

TEST_CASE("occupancy: PTX register counts are capped", "[sm]") {
  // At most 255 per thread: 255 x 32 rounds to 8192 per warp.
  Occupancy o = occupancy(32, 300);
  CHECK(o.registers_per_thread == 255);
  CHECK(o.registers_per_cta == 8192);
  CHECK(o.ctas_per_sm == 8);
  CHECK(o.limiter == OccupancyLimiter::registers);
  // A 1024-thread CTA gets at most 64 per thread, so that one CTA fits.
  o = occupancy(1024, 300);
  CHECK(o.registers_per_thread == 64);
  CHECK(o.ctas_per_sm == 1);
  CHECK(effective_registers_per_thread(300, 1024, volta, 32) == 64);
  CHECK(effective_registers_per_thread(40, 1024, volta, 32) == 40);
  CHECK(effective_registers_per_thread(300, 96, volta, 32) == 255);
}

TEST_CASE("occupancy: a CTA that cannot fit is a ConfigError", "[sm]") {
  CHECK_THROWS_WITH(compute_occupancy({0, 8, 0}, volta, 32, "vecadd"),
                    Contains("vecadd: a CTA needs at least one thread"));
  CHECK_THROWS_WITH(
      compute_occupancy({1025, 8, 0}, volta, 32, "vecadd"),
      Contains("vecadd: a CTA of 1025 threads exceeds the limit of 1024 threads per CTA"));
  CHECK_THROWS_WITH(compute_occupancy({64, 8, 100000}, volta, 32, "tiled"),
                    Contains("tiled: a CTA of 64 threads needs 100000 bytes of shared memory; "
                             "at most 98304 per CTA"));
  SmLimits tiny = volta;
  tiny.max_warps = 4;
  CHECK_THROWS_WITH(compute_occupancy({256, 8, 0}, tiny, 32, "k"),
                    Contains("k: a CTA of 256 threads does not fit on an SM: limited by warps"));
}

TEST_CASE("CTA dispatcher: breadth-first over SMs, refilling freed slots", "[sm]") {
  CtaDispatcher dispatcher(3, volta, 32);
  const Occupancy two_per_sm = occupancy(1024, 32);  // 1024 threads: two fit an SM
  REQUIRE(two_per_sm.ctas_per_sm == 2);
  dispatcher.add_grid(7, 8, two_per_sm);
  CHECK(dispatch_all(dispatcher, 7) == Placed{{0, 0}, {1, 1}, {2, 2}, {0, 3}, {1, 4}, {2, 5}});
  CHECK(dispatcher.resident(0) == 2);
  CHECK_FALSE(dispatcher.all_dispatched());

  CtaDispatcher::Assignment a;
  dispatcher.finished(1, 7);
  REQUIRE(dispatcher.next(a));
  CHECK(a.sm == 1);
  CHECK(a.cta == 6);
  CHECK_FALSE(dispatcher.next(a));

  dispatcher.finished(0, 7);
  dispatcher.finished(2, 7);
  REQUIRE(dispatcher.next(a));
  CHECK(a.sm == 2);  // the search starts after SM 1, the last one served
  CHECK(a.cta == 7);
  CHECK(dispatcher.all_dispatched());
  CHECK_FALSE(dispatcher.next(a));
  CHECK_THROWS_AS(dispatcher.remove_grid(7), SimulationError);  // five CTAs are unfinished

  CHECK(dispatcher.resident(0) == 1);
  CHECK(dispatcher.resident(1) == 2);
  CHECK(dispatcher.resident(2) == 2);
  for (uint32_t sm : {0u, 1u, 1u, 2u, 2u}) dispatcher.finished(sm, 7);
  CHECK(dispatcher.grid_done(7));
  CHECK_THROWS_AS(dispatcher.finished(0, 7), SimulationError);
  dispatcher.remove_grid(7);
  CHECK_FALSE(dispatcher.has_grid(7));

  // The next grid starts again at SM 0.
  dispatcher.add_grid(8, 1, occupancy(64, 32));
  REQUIRE(dispatcher.next(a));
  CHECK(a.sm == 0);
  CHECK(a.cta == 0);
  CHECK(a.grid == 8);
}

TEST_CASE("CTA dispatcher: a later grid fills the room the earlier ones leave", "[sm]") {
  CtaDispatcher dispatcher(3, volta, 32);
  dispatcher.add_grid(1, 4, occupancy(1024, 32));  // two a SM
  dispatcher.add_grid(2, 10, occupancy(256, 32));  // eight a SM alone, by threads
  CtaDispatcher::Assignment a;
  Placed first, second;
  while (dispatcher.next(a)) (a.grid == 1 ? first : second).emplace_back(a.sm, a.cta);
  CHECK(first == Placed{{0, 0}, {1, 1}, {2, 2}, {0, 3}});
  // SM 0 is full; SMs 1 and 2 have 1024 threads left: four CTAs of the second grid each.
  CHECK(second == Placed{{1, 0}, {2, 1}, {1, 2}, {2, 3}, {1, 4}, {2, 5}, {1, 6}, {2, 7}});
  CHECK_FALSE(dispatcher.all_dispatched());
  dispatcher.finished(0, 1);  // a CTA of the first grid frees 1024 threads on SM 0
  CHECK(dispatch_all(dispatcher, 2) == Placed{{0, 8}, {0, 9}});
  CHECK(dispatcher.all_dispatched());
  CHECK(dispatcher.resident(0) == 3);
  CHECK_THROWS_AS(dispatcher.finished(0, 3), SimulationError);  // no such grid
  CHECK_THROWS_AS(dispatcher.add_grid(2, 1, occupancy(32, 32)), SimulationError);
}

TEST_CASE("CTA dispatcher: a CTA that does not fit holds back the later grids", "[sm]") {
  CtaDispatcher dispatcher(1, volta, 32);
  dispatcher.add_grid(1, 1, occupancy(128, 32, 64 * 1024));  // 64 KiB of the 96 KiB
  dispatcher.add_grid(2, 1, occupancy(128, 32, 48 * 1024));  // does not fit beside it
  dispatcher.add_grid(3, 1, occupancy(32, 32));              // would, but waits its turn
  CHECK(dispatch_all(dispatcher, 1) == Placed{{0, 0}});
  dispatcher.finished(0, 1);
  dispatcher.remove_grid(1);
  CtaDispatcher::Assignment a;
  REQUIRE(dispatcher.next(a));
  CHECK(a.grid == 2);
  REQUIRE(dispatcher.next(a));
  CHECK(a.grid == 3);
  CHECK(dispatcher.resident(0) == 2);
  dispatcher.clear();  // a device fault: every grid and CTA is forgotten
  CHECK(dispatcher.resident(0) == 0);
  CHECK_FALSE(dispatcher.has_grid(2));
  CHECK_FALSE(dispatcher.next(a));
}

TEST_CASE("CTA dispatcher: registers and CTA slots are shared between grids", "[sm]") {
  SmLimits limits = volta;
  limits.max_ctas = 3;
  CtaDispatcher dispatcher(1, limits, 32);
  dispatcher.add_grid(1, 1, occupancy(512, 64, 0, limits));   // 32768 registers, half the file
  dispatcher.add_grid(2, 2, occupancy(256, 128, 0, limits));  // 32768 each: one fits beside
  dispatcher.add_grid(3, 4, occupancy(32, 0, 0, limits));
  CtaDispatcher::Assignment a;
  CHECK((dispatcher.next(a) && a.grid == 1));
  CHECK((dispatcher.next(a) && a.grid == 2 && a.cta == 0));
  CHECK_FALSE(dispatcher.next(a));  // grid 2's second CTA: no registers left
  dispatcher.finished(0, 1);
  CHECK((dispatcher.next(a) && a.grid == 2 && a.cta == 1));
  CHECK((dispatcher.next(a) && a.grid == 3));
  CHECK_FALSE(dispatcher.next(a));  // three CTAs: the SM's limit
}

TEST_CASE("CTA dispatcher: a cooperative grid waits for the SMs to empty, then goes whole",
          "[sm]") {
  CtaDispatcher dispatcher(2, volta, 32);
  dispatcher.add_grid(1, 1, occupancy(32, 32));
  dispatcher.add_grid(2, 4, occupancy(1024, 32), true);  // two a SM: all four at once
  dispatcher.add_grid(3, 1, occupancy(32, 32));
  CtaDispatcher::Assignment a;
  CHECK((dispatcher.next(a) && a.grid == 1));
  CHECK_FALSE(dispatcher.next(a));  // room for a CTA of grid 2, but not for all four
  dispatcher.finished(0, 1);
  CHECK(dispatch_all(dispatcher, 2) == Placed{{0, 0}, {1, 1}, {0, 2}, {1, 3}});
  dispatcher.add_grid(4, 1, occupancy(32, 32), true);
  dispatcher.finished(0, 2);
  CHECK((dispatcher.next(a) && a.grid == 3));  // into the room grid 2 left
  CHECK_FALSE(dispatcher.next(a));             // grid 4 waits for the SMs to empty
}

TEST_CASE("CTA dispatcher: a grid of greater priority takes the room that frees first", "[sm]") {
  CtaDispatcher dispatcher(1, volta, 32);
  dispatcher.add_grid(1, 4, occupancy(1024, 32));  // two a SM
  CtaDispatcher::Assignment a;
  CHECK(dispatch_all(dispatcher, 1) == Placed{{0, 0}, {0, 1}});
  dispatcher.add_grid(2, 2, occupancy(1024, 32), false, 0);   // equal: after grid 1
  dispatcher.add_grid(3, 1, occupancy(1024, 32), false, -2);  // before both
  dispatcher.add_grid(4, 1, occupancy(1024, 32), false, -1);  // between
  dispatcher.add_grid(5, 1, occupancy(1024, 32), false, -2);  // after grid 3, its equal
  dispatcher.finished(0, 1);
  CHECK((dispatcher.next(a) && a.grid == 3 && a.cta == 0));
  CHECK_FALSE(dispatcher.next(a));
  dispatcher.finished(0, 1);
  CHECK((dispatcher.next(a) && a.grid == 5));
  dispatcher.finished(0, 3);
  CHECK((dispatcher.next(a) && a.grid == 4));
  dispatcher.finished(0, 5);
  CHECK((dispatcher.next(a) && a.grid == 1 && a.cta == 2));  // grid 1's rest, then grid 2
  dispatcher.finished(0, 4);
  CHECK((dispatcher.next(a) && a.grid == 1 && a.cta == 3));
  CHECK_FALSE(dispatcher.next(a));
  dispatcher.finished(0, 1);
  CHECK((dispatcher.next(a) && a.grid == 2 && a.cta == 0));
}

TEST_CASE("CTA dispatcher: a waiting grid of greater priority holds back the lesser ones", "[sm]") {
  CtaDispatcher dispatcher(1, volta, 32);
  dispatcher.add_grid(1, 1, occupancy(128, 32, 64 * 1024));  // 64 KiB of the 96 KiB
  CHECK(dispatch_all(dispatcher, 1) == Placed{{0, 0}});
  dispatcher.add_grid(2, 1, occupancy(32, 32), false, 0);               // would fit
  dispatcher.add_grid(3, 1, occupancy(128, 32, 48 * 1024), false, -1);  // does not
  CtaDispatcher::Assignment a;
  CHECK_FALSE(dispatcher.next(a));
  dispatcher.finished(0, 1);
  CHECK((dispatcher.next(a) && a.grid == 3));
  CHECK((dispatcher.next(a) && a.grid == 2));
}

TEST_CASE("CTA dispatcher: an empty grid is done at once", "[sm]") {
  CtaDispatcher dispatcher(2, volta, 32);
  dispatcher.add_grid(0, 0, occupancy(32, 32));
  CtaDispatcher::Assignment a;
  CHECK_FALSE(dispatcher.next(a));
  CHECK(dispatcher.grid_done(0));
  CHECK_THROWS_AS(CtaDispatcher(0, volta, 32), SimulationError);
}

TEST_CASE(
    "occupancy: __launch_bounds__' minimum blocks and __maxnreg__ cap registers as ptxas "
    "does",
    "[gpu]") {
  Function kernel;  // volta: 65536 registers, allocated 256 a warp
  CHECK(bounded_registers_per_thread(kernel, 137, 256, volta, 32) == 137);
  kernel.max_registers = 32;
  CHECK(bounded_registers_per_thread(kernel, 137, 256, volta, 32) == 32);
  kernel.max_registers = 0;
  kernel.max_threads = 256;
  kernel.min_ctas_per_sm = 4;  // 4 x 256 threads: 64 registers each
  CHECK(bounded_registers_per_thread(kernel, 137, 128, volta, 32) == 64);
  CtaResources cta;
  cta.threads = 256;
  cta.registers_per_thread = bounded_registers_per_thread(kernel, 137, 256, volta, 32);
  CHECK(compute_occupancy(cta, volta, 32, "k").ctas_per_sm == 4);
}
