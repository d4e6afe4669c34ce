// Host programs of two GPUs side by side, each in a SystemC thread or sc_main, and the yielding GPU
// of memHarvester taking its lent memory back for its own cudaMalloc. One two-GPU platform for the
// whole executable (GPU 0 has one chunk for managed pages, GPU 1 6 MiB of memory); the test cases
// run in file order.
#include <catch2/catch.hpp>
#include <systemc>
#include <vector>

#include "modules/host/kernel_arguments.h"
#include "platforms/catalog.h"
#include "platforms/gpu_platform.h"

namespace {

ohmvp::GpuPlatform& platform() {
  static ohmvp::GpuPlatform instance(
      "gpu_small",
      {"host.pcie.bandwidth_gb_per_s=1", "host.pcie.latency_ns=500", "memory.dram.geometry.rows=16",
       R"(multi_gpu={"gpus": 2, "nvlink": {"bandwidth_gb_per_s": 4, "latency_ns": 200}})",
       R"(uvm={"chunk_bytes": 16384, "gpu_memory_bytes": 16384, "fault_service_ns": 10000,
               "harvest": true})"});
  return instance;
}

uint64_t counter(const char* name) {
  const ohmvp::Counter* found = platform().stats().find_counter("host.uvm", name);
  REQUIRE(found != nullptr);
  return found->value();
}

uint64_t now_ps() {
  return sc_core::sc_time_stamp().value();
}

constexpr uint32_t n = 4096;  // floats: one 16 KiB chunk
constexpr uint64_t chunk = n * 4;
// 16 KiB over 1 GB/s PCIe after its 500 ns latency.
constexpr uint64_t chunk_copy_ps = 500'000 + 16'384'000;

ohmvp::Runtime::ModuleId vecadd_module(ohmvp::Runtime& cuda) {
  return cuda.load_module(ohmvp::ohmvp_home() / "testbenches" / "kernels" / "vecadd.ptx");
}

// Queues c = a + b over n floats.
void launch_vecadd(ohmvp::Runtime& cuda, ohmvp::Runtime::ModuleId module, uint64_t a, uint64_t b,
                   uint64_t c) {
  ohmvp::Runtime::LaunchConfig launch;
  launch.grid = {n / 256, 1, 1};
  launch.block = {256, 1, 1};
  cuda.launch(module, "vecadd", launch,
              ohmvp::KernelArguments(cuda, module, "vecadd").add(a).add(b).add(c).add(n).bytes());
}

std::vector<float> ramp(float scale) {
  std::vector<float> values(n);
  for (uint32_t i = 0; i < n; ++i) values[i] = scale * float(i);
  return values;
}

// Whether `c` holds 2 * scale * i.
bool doubled(ohmvp::Runtime& cuda, uint64_t c, float scale) {
  std::vector<float> got(n);
  cuda.copy_to_host(got.data(), c, chunk);
  for (uint32_t i = 0; i < n; ++i)
    if (got[i] != 2 * scale * float(i)) return false;
  return true;
}

// A managed chunk of GPU 0 holding a ramp.
uint64_t managed_ramp(float scale) {
  ohmvp::Runtime& cuda = platform().runtime(0);
  const uint64_t address = cuda.malloc_managed(chunk);
  cuda.copy_to_device(address, ramp(scale).data(), chunk);
  return address;
}

}  // namespace

TEST_CASE("host threads: two GPUs' host programs run side by side on their own PCIe links") {
  ohmvp::Runtime& gpu0 = platform().runtime(0);
  ohmvp::Runtime& gpu1 = platform().runtime(1);
  const uint64_t start = now_ps();
  uint64_t thread_copied_at = 0;
  bool thread_verified = false, thread_done = false;
  sc_core::sc_spawn(
      [&] {
        const auto module = vecadd_module(gpu1);
        const uint64_t a = gpu1.malloc(chunk), c = gpu1.malloc(chunk);
        gpu1.copy_to_device(a, ramp(2.0f).data(), chunk);
        thread_copied_at = now_ps();
        launch_vecadd(gpu1, module, a, a, c);
        gpu1.synchronize();
        thread_verified = doubled(gpu1, c, 2.0f);
        gpu1.free(a);
        gpu1.free(c);
        thread_done = true;
        sc_core::sc_pause();
      },
      "gpu1_program");
  const auto module = vecadd_module(gpu0);
  const uint64_t a = gpu0.malloc(chunk), c = gpu0.malloc(chunk);
  gpu0.copy_to_device(a, ramp(1.0f).data(), chunk);
  CHECK(now_ps() == start + chunk_copy_ps);
  launch_vecadd(gpu0, module, a, a, c);
  gpu0.synchronize();
  CHECK(doubled(gpu0, c, 1.0f));
  gpu0.run_until([&] { return thread_done; }, "waiting for GPU 1's host program");
  // Neither copy waited for the other: each GPU has its own link.
  CHECK(thread_copied_at == start + chunk_copy_ps);
  CHECK(thread_verified);
  CHECK(platform().stats().find_counter("host1", "kernel_launches")->value() == 1);
  gpu0.free(a);
  gpu0.free(c);
}

TEST_CASE("host threads: a yielding GPU takes back a free lent chunk before a removable one") {
  ohmvp::Runtime& gpu0 = platform().runtime(0);
  ohmvp::Runtime& gpu1 = platform().runtime(1);
  const auto module = vecadd_module(gpu0);
  const uint64_t x = managed_ramp(1.0f), y = managed_ramp(3.0f), z = managed_ramp(5.0f);
  const uint64_t c = gpu0.malloc(chunk);
  for (uint64_t block : {x, y, z}) {  // each evicts the one before to GPU 1
    launch_vecadd(gpu0, module, block, block, c);
    gpu0.synchronize();
  }
  CHECK(counter("chunks_harvested") == 2);
  gpu0.free(x);  // its lent chunk is free (once the background write-backs are done)
  CHECK(counter("harvest_write_backs") == 2);  // y's chunk is removable
  // GPU 1 allocates until its memory is full; then it takes lent chunks back.
  std::vector<uint64_t> taken;
  while (counter("chunks_reclaimed") == 0) taken.push_back(gpu1.malloc(chunk));
  // The free chunk went back: y is still on GPU 1, and comes back from there.
  const uint64_t from_peer = counter("pages_from_peer");
  launch_vecadd(gpu0, module, y, y, c);
  gpu0.synchronize();
  CHECK(doubled(gpu0, c, 3.0f));
  CHECK(counter("pages_from_peer") == from_peer + 4);
  // z, evicted for y, went to the chunk y left on GPU 1 (the batch spared y's chunk while y was to
  // come back from it); once written back, it goes back without a copy.
  const uint64_t to_host = counter("pages_to_host");
  CHECK_NOTHROW(taken.push_back(gpu1.malloc(chunk)));
  CHECK(counter("chunks_reclaimed") == 2);
  CHECK(counter("pages_to_host") == to_host);
  CHECK_THROWS_AS(gpu1.malloc(chunk), ohmvp::OutOfDeviceMemory);  // nothing lent is left
  // GPU 1's own counts: two chunks lent (x's and y's; z reused y's), both taken back.
  CHECK(platform().stats().find_counter("host1", "chunks_lent")->value() == 2);
  CHECK(platform().stats().find_counter("host1", "chunks_taken_back")->value() == 2);
  // z's bytes are in host memory.
  launch_vecadd(gpu0, module, z, z, c);
  gpu0.synchronize();
  CHECK(doubled(gpu0, c, 5.0f));
  gpu1.free(taken.back());
  taken.pop_back();
  gpu0.free(y);
  gpu0.free(z);
  gpu0.free(c);
  for (uint64_t address : taken) gpu1.free(address);
}

TEST_CASE("host threads: a yielding GPU waits for a lent chunk's write-back to take it back") {
  ohmvp::Runtime& gpu0 = platform().runtime(0);
  ohmvp::Runtime& gpu1 = platform().runtime(1);
  // GPU 1 keeps one chunk of room, which the next harvest borrows.
  std::vector<uint64_t> taken;
  try {
    for (;;) taken.push_back(gpu1.malloc(chunk));
  } catch (const ohmvp::OutOfDeviceMemory&) {
  }
  gpu1.free(taken.back());
  taken.pop_back();
  const auto module = vecadd_module(gpu0);
  const uint64_t x = managed_ramp(7.0f), y = managed_ramp(9.0f);
  const uint64_t c = gpu0.malloc(chunk);
  launch_vecadd(gpu0, module, x, x, c);
  gpu0.synchronize();
  const uint64_t harvested = counter("chunks_harvested");
  const uint64_t written_back = counter("harvest_write_backs");
  uint64_t harvest_seen_at = 0, malloc_returned_at = 0, written_back_then = 0;
  bool done = false;
  sc_core::sc_spawn(
      [&] {
        while (counter("chunks_harvested") == harvested) sc_core::wait(10, sc_core::SC_NS);
        harvest_seen_at = now_ps();
        taken.push_back(gpu1.malloc(chunk));  // the borrowed chunk is not written back yet
        malloc_returned_at = now_ps();
        written_back_then = counter("harvest_write_backs");
        done = true;
        sc_core::sc_pause();
      },
      "gpu1_malloc");
  launch_vecadd(gpu0, module, y, y, c);  // evicts x to GPU 1
  gpu0.synchronize();
  CHECK(doubled(gpu0, c, 9.0f));
  gpu0.run_until([&] { return done; }, "waiting for GPU 1's cudaMalloc");
  CHECK(written_back_then == written_back + 1);
  // At least the write-back's own PCIe time passed (it crosses GPU 1's link after NVLink).
  CHECK(malloc_returned_at - harvest_seen_at >= chunk_copy_ps);
  CHECK(counter("chunks_reclaimed") == 3);
  // x's bytes were written back before GPU 1 took the chunk.
  launch_vecadd(gpu0, module, x, x, c);
  gpu0.synchronize();
  CHECK(doubled(gpu0, c, 7.0f));
  for (uint64_t address : taken) gpu1.free(address);
}

TEST_CASE("host threads: the harvesting GPU's cudaMalloc evicts its managed chunk to a neighbour") {
  ohmvp::Runtime& gpu0 = platform().runtime(0);
  const auto module = vecadd_module(gpu0);
  const uint64_t x = managed_ramp(11.0f), c = gpu0.malloc(chunk);
  launch_vecadd(gpu0, module, x, x, c);  // x takes GPU 0's one chunk for managed pages
  gpu0.synchronize();
  const uint64_t harvested = counter("chunks_harvested"), to_malloc = counter("chunks_to_malloc");
  std::vector<uint64_t> taken;
  try {
    for (;;) taken.push_back(gpu0.malloc(chunk));
  } catch (const ohmvp::OutOfDeviceMemory&) {
  }
  // The chunk went to cudaMalloc once x's pages had gone to GPU 1 over NVLink.
  CHECK(counter("chunks_to_malloc") == to_malloc + 1);
  CHECK(counter("chunks_harvested") == harvested + 1);
  std::vector<float> got(n);
  gpu0.copy_to_host(got.data(), x, chunk);
  CHECK(got == ramp(11.0f));
  for (uint64_t address : taken) gpu0.free(address);
  gpu0.free(x);
  gpu0.free(c);
}
