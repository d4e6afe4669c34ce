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
  CtaDispatcher dispatcher(3);
  dispatcher.start_grid(8, 2);
  std::vector<std::pair<uint32_t, uint64_t>> got;
  CtaDispatcher::Assignment a;
  while (dispatcher.next(a)) got.emplace_back(a.sm, a.cta);
  CHECK(got ==
        std::vector<std::pair<uint32_t, uint64_t>>{{0, 0}, {1, 1}, {2, 2}, {0, 3}, {1, 4}, {2, 5}});
  CHECK(dispatcher.free_slots(0) == 0);
  CHECK_FALSE(dispatcher.all_dispatched());

  dispatcher.finished(1);
  REQUIRE(dispatcher.next(a));
  CHECK(a.sm == 1);
  CHECK(a.cta == 6);
  CHECK_FALSE(dispatcher.next(a));

  dispatcher.finished(0);
  dispatcher.finished(2);
  REQUIRE(dispatcher.next(a));
  CHECK(a.sm == 2);  // the search starts after SM 1, the last one served
  CHECK(a.cta == 7);
  CHECK(dispatcher.all_dispatched());
  CHECK_FALSE(dispatcher.next(a));
  CHECK(dispatcher.completed() == 3);
  CHECK_THROWS_AS(dispatcher.start_grid(4, 2), SimulationError);

  CHECK(dispatcher.resident(0) == 1);
  CHECK(dispatcher.resident(1) == 2);
  CHECK(dispatcher.resident(2) == 2);
  for (uint32_t sm : {0u, 1u, 1u, 2u, 2u}) dispatcher.finished(sm);
  CHECK(dispatcher.grid_done());
  CHECK_THROWS_AS(dispatcher.finished(0), SimulationError);

  // The next grid starts again at SM 0.
  dispatcher.start_grid(1, 4);
  REQUIRE(dispatcher.next(a));
  CHECK(a.sm == 0);
  CHECK(a.cta == 0);
}

TEST_CASE("CTA dispatcher: an empty grid is done at once", "[sm]") {
  CtaDispatcher dispatcher(2);
  dispatcher.start_grid(0, 1);
  CtaDispatcher::Assignment a;
  CHECK_FALSE(dispatcher.next(a));
  CHECK(dispatcher.grid_done());
  CHECK_THROWS_AS(CtaDispatcher(0), SimulationError);
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
