// memHarvester's parallel fetch on a two-GPU platform: the pages a batch brings from host memory
// split between GPU 0's PCIe link and the yielding GPU's, which relays them over NVLink, so the
// two links carry them at once. One platform for the whole executable; the test cases run in
// file order.
#include <catch2/catch.hpp>
#include <functional>
#include <utility>
#include <vector>

#include "modules/host/kernel_arguments.h"
#include "platforms/catalog.h"
#include "platforms/gpu_platform.h"

namespace {

// PCIe at 1 GB/s (1 byte per ns) and 500 ns per transfer on each GPU's link; NVLink at 4 GB/s
// and 200 ns; 4 KiB pages in 16 KiB chunks, two of them on GPU 0, one lent by GPU 1.
ohmvp::GpuPlatform& platform() {
  static ohmvp::GpuPlatform instance(
      "gpu_small",
      {"host.pcie.bandwidth_gb_per_s=1", "host.pcie.latency_ns=500",
       R"(multi_gpu={"gpus": 2, "nvlink": {"bandwidth_gb_per_s": 4, "latency_ns": 200}})",
       R"(uvm={"chunk_bytes": 16384, "gpu_memory_bytes": 32768, "fault_service_ns": 10000,
               "harvest": true, "harvest_bytes": 16384, "parallel_fetch": true})"});
  return instance;
}

constexpr uint64_t chunk = 16384;
constexpr uint64_t pcie_ps = (500 + chunk) * 1000;        // a chunk over either PCIe link
constexpr uint64_t nvlink_ps = (200 + chunk / 4) * 1000;  // a chunk over NVLink

uint64_t now_ps() {
  return sc_core::sc_time_stamp().value();
}

uint64_t counter(const char* group, const char* name) {
  const ohmvp::Counter* found = platform().stats().find_counter(group, name);
  REQUIRE(found != nullptr);
  return found->value();
}

// Runs the simulation until `start` calls the callback it is given; returns the time that took.
template <typename Start>
uint64_t timed(Start start) {
  const uint64_t begin = now_ps();
  uint64_t end = 0;
  start([&end] {
    end = now_ps();
    sc_core::sc_pause();
  });
  sc_core::sc_start();
  REQUIRE(end >= begin);
  return end - begin;
}

// The copy engine of GPU `g` writes a chunk of fresh device memory, then reads it back: the times
// each takes.
std::pair<uint64_t, uint64_t> copy_engine_times(uint32_t g) {
  ohmvp::Runtime& cuda = platform().runtime(g);
  ohmvp::gpu::CopyEngine& engine = platform().gpu(g).copy_engine();
  const uint64_t memory = cuda.malloc(chunk);
  const uint64_t write = timed([&](std::function<void()> done) {
    engine.write(memory, std::vector<uint8_t>(chunk, 7), std::move(done));
  });
  const uint64_t read = timed([&](std::function<void()> done) {
    engine.read(memory, chunk, [done](std::vector<uint8_t>&) { done(); });
  });
  cuda.free(memory);
  return {write, read};
}

}  // namespace

TEST_CASE("parallel fetch: a prefetch's two blocks cross both PCIe links at once") {
  ohmvp::Runtime& cuda = platform().runtime();
  const uint64_t gpu0_write = copy_engine_times(0).first;
  const auto [gpu1_write, gpu1_read] = copy_engine_times(1);
  constexpr uint32_t n = 2 * chunk / 4;  // floats: two VA blocks
  const uint64_t x = cuda.malloc_managed(n * 4), y = cuda.malloc(n * 4);
  std::vector<float> values(n);
  for (uint32_t i = 0; i < n; ++i) values[i] = float(i) * 0.25f;
  cuda.copy_to_device(x, values.data(), n * 4);
  const uint64_t busy0 = counter("host", "pcie_link_busy");
  const uint64_t busy1 = counter("host1", "pcie_link_busy");
  const uint64_t start = now_ps();
  cuda.prefetch_managed(x, n * 4, false);
  const uint64_t took = now_ps() - start;
  // The first block takes GPU 0's link, the second the link with fewer bytes so far: GPU 1's,
  // through a chunk of its memory and NVLink. Each link carries one block.
  CHECK(counter("host.uvm", "pages_to_gpu") == 8);
  CHECK(counter("host.uvm", "pages_relayed") == 4);
  CHECK(counter("host.uvm", "bytes_over_nvlink") == chunk);
  CHECK(counter("host", "pcie_link_busy") - busy0 == pcie_ps);
  CHECK(counter("host1", "pcie_link_busy") - busy1 == pcie_ps);
  // The relayed block is the later one: GPU 1's link, its copy engine writing and reading the
  // staging chunk, NVLink, GPU 0's copy engine writing the block, in turn; each of the three
  // copy-engine steps as long as on fresh memory to within a core clock (the crossbar and the L2s
  // work on clock edges that a step meets at another phase), so the whole to within three. GPU 0's
  // own block (PCIe and one write) is in by then: the two links overlap.
  const int64_t relay = int64_t(pcie_ps + gpu1_write + gpu1_read + nvlink_ps + gpu0_write);
  const int64_t period = int64_t(platform().gpu().clock_period().value());
  CAPTURE(took, relay, period, gpu0_write, gpu1_write, gpu1_read);
  CHECK(int64_t(took) > relay - 3 * period);
  CHECK(int64_t(took) < relay + 3 * period);
  CHECK(took < 2 * pcie_ps);
  // The bytes arrived: a kernel adds them without a fault.
  const uint64_t faults = counter("host.uvm", "far_faults");
  const auto module =
      cuda.load_module(ohmvp::ohmvp_home() / "testbenches" / "kernels" / "vecadd.ptx");
  ohmvp::Runtime::LaunchConfig launch;
  launch.grid = {n / 256, 1, 1};
  launch.block = {256, 1, 1};
  cuda.launch(module, "vecadd", launch,
              ohmvp::KernelArguments(cuda, module, "vecadd").add(x).add(x).add(y).add(n).bytes());
  cuda.synchronize();
  CHECK(counter("host.uvm", "far_faults") == faults);
  std::vector<float> got(n);
  cuda.copy_to_host(got.data(), y, n * 4);
  for (uint32_t i = 0; i < n; ++i) REQUIRE(got[i] == 2 * values[i]);
}
