// memHarvester on a three-GPU platform: GPU 0 runs the kernels on managed memory with room for
// one chunk; the chunks it evicts go to its neighbours' memory over NVLink (in turn), are written
// back to host memory in the background, come back over NVLink on a fault, and are reclaimed
// without a copy once written back. One platform for the whole executable; the test cases run in
// file order.
#include <catch2/catch.hpp>
#include <vector>

#include "modules/host/kernel_arguments.h"
#include "platforms/catalog.h"
#include "platforms/gpu_platform.h"

namespace {

ohmvp::GpuPlatform& platform() {
  static ohmvp::GpuPlatform instance(
      "gpu_small",
      {"host.pcie.bandwidth_gb_per_s=1", "host.pcie.latency_ns=500",
       R"(multi_gpu={"gpus": 3, "nvlink": {"bandwidth_gb_per_s": 4, "latency_ns": 200}})",
       R"(uvm={"chunk_bytes": 16384, "gpu_memory_bytes": 16384, "fault_service_ns": 10000,
               "harvest": true, "harvest_bytes": 16384})"});
  return instance;
}

uint64_t counter(const char* name) {
  const ohmvp::Counter* found = platform().stats().find_counter("host.uvm", name);
  REQUIRE(found != nullptr);
  return found->value();
}

constexpr uint32_t n = 4096;  // floats: one 16 KiB chunk

// c = a + b over n floats on GPU 0.
void vecadd(uint64_t a, uint64_t b, uint64_t c) {
  ohmvp::Runtime& cuda = platform().runtime();
  static const auto module =
      cuda.load_module(ohmvp::ohmvp_home() / "testbenches" / "kernels" / "vecadd.ptx");
  ohmvp::Runtime::LaunchConfig launch;
  launch.grid = {n / 256, 1, 1};
  launch.block = {256, 1, 1};
  cuda.launch(module, "vecadd", launch,
              ohmvp::KernelArguments(cuda, module, "vecadd").add(a).add(b).add(c).add(n).bytes());
  cuda.synchronize();
}

uint64_t managed_ramp(float scale) {
  ohmvp::Runtime& cuda = platform().runtime();
  const uint64_t address = cuda.malloc_managed(n * 4);
  std::vector<float> values(n);
  for (uint32_t i = 0; i < n; ++i) values[i] = scale * float(i);
  cuda.copy_to_device(address, values.data(), n * 4);
  return address;
}

void check_doubled(uint64_t c, float scale) {
  std::vector<float> got(n);
  platform().runtime().copy_to_host(got.data(), c, n * 4);
  for (uint32_t i = 0; i < n; ++i) REQUIRE(got[i] == 2 * scale * float(i));
}

}  // namespace

TEST_CASE("harvest: an evicted chunk goes to a neighbour and comes back over NVLink") {
  ohmvp::Runtime& cuda = platform().runtime();
  const uint64_t x = managed_ramp(1.0f), y = managed_ramp(3.0f), c = cuda.malloc(n * 4);
  vecadd(x, x, c);  // x's block takes GPU 0's one chunk
  check_doubled(c, 1.0f);
  CHECK(counter("chunks_harvested") == 0);
  vecadd(y, y, c);  // y's block evicts x's, which goes to the first neighbour
  check_doubled(c, 3.0f);
  CHECK(counter("chunks_harvested") == 1);
  CHECK(counter("bytes_over_nvlink") == 16384);
  CHECK(counter("harvest_write_backs") == 1);  // in the background, during the kernel
  const uint64_t to_host = counter("pages_to_host");
  vecadd(x, x, c);  // x's block comes back from the neighbour; y's goes to the second one
  check_doubled(c, 1.0f);
  CHECK(counter("pages_from_peer") == 4);
  CHECK(counter("chunks_harvested") == 2);
  CHECK(counter("bytes_over_nvlink") == 3 * 16384);
  // Only write-backs went to host memory: y's block (4 pages) and none of x's, fetched back.
  CHECK(counter("pages_to_host") == to_host + 4);
  cuda.free(c);
}

TEST_CASE("harvest: written-back chunks are reclaimed and the host reads harvested bytes") {
  ohmvp::Runtime& cuda = platform().runtime();
  // Four blocks in turn through one GPU chunk and two neighbour chunks: every harvest after the
  // first two reclaims a neighbour's chunk whose block is written back.
  std::vector<uint64_t> blocks;
  for (int b = 0; b < 4; ++b) blocks.push_back(managed_ramp(float(b + 5)));
  const uint64_t c = cuda.malloc(n * 4);
  const uint64_t harvested = counter("chunks_harvested");
  for (int round = 0; round < 2; ++round) {
    for (int b = 0; b < 4; ++b) {
      vecadd(blocks[size_t(b)], blocks[size_t(b)], c);
      check_doubled(c, float(b + 5));
    }
  }
  CHECK(counter("chunks_harvested") - harvested >= 6);
  // The host reads every block, wherever it lies: on GPU 0, on a neighbour, in host memory.
  for (int b = 0; b < 4; ++b) {
    std::vector<float> got(n);
    cuda.copy_to_host(got.data(), blocks[size_t(b)], n * 4);
    for (uint32_t i = 0; i < n; ++i) REQUIRE(got[i] == float(b + 5) * float(i));
  }
  // A kernel after the host's reads finds every page in host memory again.
  const uint64_t from_peer = counter("pages_from_peer");
  vecadd(blocks[0], blocks[0], c);
  check_doubled(c, 5.0f);
  CHECK(counter("pages_from_peer") == from_peer);
}
