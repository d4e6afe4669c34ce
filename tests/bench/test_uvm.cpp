// The unified-memory driver on the default GPU platform: managed memory in host memory until a
// kernel touches it, far faults serviced in batches (service time, PCIe, the copy engine through
// the L2s), eviction of whole chunks when GPU memory is oversubscribed, and the bytes intact
// through all of it. One platform for the whole executable; the test cases run in file order.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstring>
#include <fstream>
#include <vector>

#include <unistd.h>

#include "modules/common/errors.h"
#include "modules/host/kernel_arguments.h"
#include "platforms/catalog.h"
#include "platforms/gpu_platform.h"

namespace {

// PCIe at 1 GB/s (1 byte per ns) and 500 ns per copy; 4 KiB pages in 16 KiB chunks, at most two
// of them on the GPU; 10 us to service a batch; TLBs of two entries, page walks of 100 cycles;
// 6 MiB of device memory.
ohmvp::GpuPlatform& platform() {
  static ohmvp::GpuPlatform instance(
      "gpu_small",
      {"host.pcie.bandwidth_gb_per_s=1", "host.pcie.latency_ns=500", "memory.dram.geometry.rows=16",
       "gpu.tlb.entries=2", "gpu.tlb.page_walk_cycles=100",
       R"(uvm={"chunk_bytes": 16384, "gpu_memory_bytes": 32768,
                         "fault_service_ns": 10000})"});
  return instance;
}

uint64_t now_ps() {
  return sc_core::sc_time_stamp().value();
}

uint64_t counter(const char* name, const char* group = "host.uvm") {
  const ohmvp::Counter* found = platform().stats().find_counter(group, name);
  REQUIRE(found != nullptr);
  return found->value();
}

const ohmvp::Histogram& fault_latency() {
  const ohmvp::Histogram* found = platform().stats().find_histogram("host.uvm", "fault_latency");
  REQUIRE(found != nullptr);
  return *found;
}

ohmvp::Runtime::ModuleId vecadd_module() {
  static const ohmvp::Runtime::ModuleId module = platform().runtime().load_module(
      ohmvp::ohmvp_home() / "testbenches" / "kernels" / "vecadd.ptx");
  return module;
}

// Runs vecadd to its end; returns the simulated time it took.
uint64_t vecadd(uint64_t a, uint64_t b, uint64_t c, uint32_t n) {
  const uint64_t start = sc_core::sc_time_stamp().value();
  ohmvp::Runtime& cuda = platform().runtime();
  ohmvp::Runtime::LaunchConfig launch;
  launch.grid = {(n + 255) / 256, 1, 1};
  launch.block = {256, 1, 1};
  cuda.launch(
      vecadd_module(), "vecadd", launch,
      ohmvp::KernelArguments(cuda, vecadd_module(), "vecadd").add(a).add(b).add(c).add(n).bytes());
  cuda.synchronize();
  return sc_core::sc_time_stamp().value() - start;
}

std::vector<float> ramp(uint32_t n, float scale) {
  std::vector<float> v(n);
  for (uint32_t i = 0; i < n; ++i) v[i] = scale * float(i % 1000);
  return v;
}

uint64_t copy_engine_page_write_ps = 0;

}  // namespace

TEST_CASE("uvm: the host reads and writes managed memory where it is, in no simulated time") {
  ohmvp::Runtime& cuda = platform().runtime();
  vecadd_module();  // ends elaboration
  const uint64_t a = cuda.malloc_managed(6000);
  CHECK(a % 16384 == 0);
  std::vector<uint8_t> bytes(6000);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = uint8_t(i * 13);
  const uint64_t start = now_ps();
  cuda.copy_to_device(a, bytes.data(), bytes.size());
  std::vector<uint8_t> back(bytes.size());
  cuda.copy_to_host(back.data(), a, back.size());
  CHECK(back == bytes);
  cuda.memset(a + 100, 7, 10);
  cuda.copy_to_host(back.data(), a, back.size());
  CHECK(back[105] == 7);
  CHECK(now_ps() == start);
  CHECK(counter("far_faults") == 0);
  CHECK_THROWS_AS(cuda.copy_to_host(back.data(), a + 5000, 1001), std::invalid_argument);
  cuda.free(a);
  CHECK_THROWS_AS(cuda.free(a), std::invalid_argument);
  CHECK_THROWS_AS(cuda.copy_to_host(back.data(), a, 1), std::invalid_argument);
}

TEST_CASE("uvm: the copy engine writes a page through the L2s") {
  ohmvp::Runtime& cuda = platform().runtime();
  const uint64_t d = cuda.malloc(4096);
  std::vector<uint8_t> page(4096);
  for (size_t i = 0; i < page.size(); ++i) page[i] = uint8_t(i * 3 + 1);
  const uint64_t start = now_ps();
  uint64_t end = 0;
  platform().gpu().copy_engine().write(d, page, [&end] {
    end = now_ps();
    sc_core::sc_pause();
  });
  sc_core::sc_start();
  REQUIRE(end > start);
  copy_engine_page_write_ps = end - start;
  std::vector<uint8_t> back(4096);
  cuda.copy_to_host(back.data(), d, back.size());
  CHECK(back == page);
  cuda.free(d);
}

TEST_CASE("uvm: a far fault waits for the batch's service time, PCIe and the copy engine") {
  ohmvp::Runtime& cuda = platform().runtime();
  const uint64_t a = cuda.malloc_managed(4), b = cuda.malloc_managed(4), c = cuda.malloc(4);
  const float x = 1.5f, y = 2.25f;
  cuda.copy_to_device(a, &x, 4);
  cuda.copy_to_device(b, &y, 4);
  const uint64_t link_busy = counter("pcie_link_busy", "host");
  vecadd(a, b, c, 1);
  // The link carried the two pages (migrations are not copies: pcie_busy is the copies' alone).
  CHECK(counter("pcie_link_busy", "host") - link_busy == 2 * (500 + 4096) * 1000);
  float sum = 0;
  cuda.copy_to_host(&sum, c, 4);
  CHECK(sum == 3.75f);
  // One batch of two faults, a page each (the prefetcher has nothing more to bring). The first
  // fault waits 10 us, then both pages cross PCIe one after the other (500 + 4096 ns each) and
  // the second is written into its chunk, in the copy engine's time for a page to within a core
  // clock (the crossbar and the L2 work on clock edges, which the write meets at another phase).
  CHECK(counter("far_faults") == 2);
  CHECK(counter("fault_batches") == 1);
  CHECK(counter("pages_to_gpu") == 2);
  CHECK(counter("pages_prefetched") == 0);
  CHECK(counter("chunks_allocated") == 2);
  CHECK(fault_latency().count() == 2);
  const int64_t write_ps =
      int64_t(fault_latency().max()) - int64_t(10'000'000 + 2 * (500 + 4096) * 1000);
  const int64_t period_ps = int64_t(platform().gpu().clock_period().value());
  CHECK(write_ps > int64_t(copy_engine_page_write_ps) - period_ps);
  CHECK(write_ps < int64_t(copy_engine_page_write_ps) + period_ps);
  cuda.free(a);
  cuda.free(b);
  cuda.free(c);
}

TEST_CASE("uvm: cudaMemPrefetchAsync moves pages with no fault and no service time") {
  ohmvp::Runtime& cuda = platform().runtime();
  const uint32_t n = 1024;  // one page of floats
  const uint64_t a = cuda.malloc_managed(n * 4), c = cuda.malloc(n * 4);
  cuda.copy_to_device(a, ramp(n, 0.5f).data(), n * 4);
  const uint64_t faults = counter("far_faults"), batches = counter("fault_batches");
  const uint64_t start = now_ps();
  cuda.prefetch_managed(a, n * 4, false);
  // PCIe (500 + 4096 ns), then the copy engine's write of the page, to within a core clock.
  const int64_t write_ps = int64_t(now_ps() - start) - int64_t((500 + 4096) * 1000);
  const int64_t period_ps = int64_t(platform().gpu().clock_period().value());
  CHECK(write_ps > int64_t(copy_engine_page_write_ps) - period_ps);
  CHECK(write_ps < int64_t(copy_engine_page_write_ps) + period_ps);
  CHECK(counter("host_prefetch_pages") == 1);
  CHECK(counter("fault_batches") == batches);
  // The kernel finds the page there: no fault.
  vecadd(a, a, c, n);
  CHECK(counter("far_faults") == faults);
  std::vector<float> got(n);
  cuda.copy_to_host(got.data(), c, n * 4);
  const std::vector<float> expected = ramp(n, 1.0f);
  CHECK(got == expected);
  // To host memory: the page goes back, and a prefetch of what is there moves nothing.
  const uint64_t to_host = counter("pages_to_host");
  cuda.prefetch_managed(a, n * 4, true);
  CHECK(counter("pages_to_host") == to_host + 1);
  const uint64_t back = now_ps();
  cuda.prefetch_managed(a, n * 4, true);
  CHECK(now_ps() == back);
  CHECK_THROWS_AS(cuda.prefetch_managed(c, 4, false), std::invalid_argument);  // not managed
  cuda.free(a);
  cuda.free(c);
}

TEST_CASE("uvm: a prefetch on a stream runs beside kernels on others, faulting ones included") {
  ohmvp::Runtime& cuda = platform().runtime();
  const uint32_t n = 1024;  // one page of floats
  const uint64_t a = cuda.malloc_managed(n * 4), b = cuda.malloc_managed(n * 4);
  const uint64_t c = cuda.malloc(n * 4), d = cuda.malloc(n * 4);
  cuda.copy_to_device(a, ramp(n, 0.5f).data(), n * 4);
  cuda.copy_to_device(b, ramp(n, 0.25f).data(), n * 4);
  const uint64_t batches = counter("fault_batches"), pages = counter("pages_to_gpu");
  const uint64_t prefetched = counter("host_prefetch_pages");
  const auto s1 = cuda.create_stream(), s2 = cuda.create_stream();
  const auto launch = [&cuda](uint64_t x, uint64_t out, uint32_t count,
                              ohmvp::Runtime::StreamId s) {
    ohmvp::Runtime::LaunchConfig config;
    config.grid = {(count + 255) / 256, 1, 1};
    config.block = {256, 1, 1};
    cuda.launch(vecadd_module(), "vecadd", config,
                ohmvp::KernelArguments(cuda, vecadd_module(), "vecadd")
                    .add(x)
                    .add(x)
                    .add(out)
                    .add(count)
                    .bytes(),
                s);
  };
  const size_t first = platform().gpu().launch_log().size();
  // Stream 1's kernel faults on b (a batch of 10 us); stream 2 prefetches a, then adds it. The
  // prefetch returns at once; its batch and the fault's take turns in the driver.
  launch(b, d, n, s1);
  const uint64_t start = now_ps();
  cuda.prefetch_managed_async(a, n * 4, false, s2);
  CHECK(now_ps() == start);
  CHECK_FALSE(cuda.stream_query(s2));
  launch(a, c, n, s2);
  cuda.synchronize();
  CHECK(counter("host_prefetch_pages") == prefetched + 1);
  // b's page came by one batch of faults; a's was there when its kernel came.
  CHECK(counter("fault_batches") == batches + 1);
  CHECK(counter("pages_to_gpu") == pages + 2);
  const auto& log = platform().gpu().launch_log();
  REQUIRE(log.size() == first + 2);
  // Stream 2's kernel ran while stream 1's waited for its fault.
  // The log lists launches as they end: stream 2's first, while stream 1's waited for its fault.
  CHECK(log[first + 1].start_cycle < log[first].start_cycle);
  CHECK(log[first].end_cycle < log[first + 1].end_cycle);
  std::vector<float> got(n);
  cuda.copy_to_host(got.data(), c, n * 4);
  CHECK(got == ramp(n, 1.0f));
  cuda.copy_to_host(got.data(), d, n * 4);
  CHECK(got == ramp(n, 0.5f));
  // To host memory it waits, as the synchronous call does; a range not managed is refused.
  const uint64_t to_host = counter("pages_to_host");
  cuda.prefetch_managed_async(a, n * 4, true, s2);
  CHECK(counter("pages_to_host") == to_host + 1);
  CHECK_THROWS_AS(cuda.prefetch_managed_async(c, 4, false, s2), std::invalid_argument);
  for (const uint64_t freed : {a, b, c, d}) cuda.free(freed);
}

TEST_CASE("uvm: oversubscribed GPU memory evicts whole chunks and the bytes survive") {
  ohmvp::Runtime& cuda = platform().runtime();
  const uint32_t n = 8192;  // 32 KiB a buffer: two chunks each, six against the GPU's two
  const uint64_t a = cuda.malloc_managed(n * 4), b = cuda.malloc_managed(n * 4),
                 c = cuda.malloc_managed(n * 4);
  const std::vector<float> x = ramp(n, 0.5f), y = ramp(n, 0.25f);
  cuda.copy_to_device(a, x.data(), n * 4);
  cuda.copy_to_device(b, y.data(), n * 4);
  const uint64_t evicted_before = counter("chunks_evicted");
  vecadd(a, b, c, n);
  std::vector<float> sum(n), x_back(n);
  cuda.copy_to_host(sum.data(), c, n * 4);
  cuda.copy_to_host(x_back.data(), a, n * 4);
  for (uint32_t i = 0; i < n; ++i) REQUIRE(sum[i] == x[i] + y[i]);
  CHECK(x_back == x);
  CHECK(counter("chunks_allocated") == 2);  // the limit: the chunks freed above are reused
  CHECK(counter("chunks_evicted") - evicted_before >= 4);
  // Every page of the three buffers came to the GPU at least once, and everything evicted or
  // read back by the host went back.
  CHECK(counter("pages_to_gpu") >= 2 + 24);
  CHECK(counter("bytes_to_host") == counter("pages_to_host") * 4096);
  cuda.free(a);
  cuda.free(b);
  cuda.free(c);
}

TEST_CASE("uvm: a TLB miss waits for the page walk, and unmapping shoots the entries down") {
  ohmvp::Runtime& cuda = platform().runtime();
  // Three pages in one chunk, on the GPU before the kernels (no faults); c in device memory.
  const uint64_t x = cuda.malloc_managed(3 * 4096), c = cuda.malloc(4);
  const float values[3] = {1.5f, 2.25f, 4.0f};
  for (uint32_t p = 0; p < 3; ++p) cuda.copy_to_device(x + p * 4096, &values[p], 4);
  cuda.prefetch_managed(x, 3 * 4096, false);
  const uint64_t faults = counter("far_faults");
  // SM 0's counts since the start of this test case.
  const uint64_t misses = counter("tlb_misses", "gpu.sm0"), hits = counter("tlb_hits", "gpu.sm0"),
                 walks = counter("page_walks", "gpu.sm0");
  const auto sm0 = [](const char* name, uint64_t before) {
    return counter(name, "gpu.sm0") - before;
  };
  // A one-CTA grid always starts on SM 0. Its first kernel walks for page 0 (both loads of x[0]
  // share the walk: one L2 request); the second finds the entry.
  vecadd(x, x, c, 1);
  CHECK(sm0("tlb_misses", misses) == 1);
  CHECK(sm0("page_walks", walks) == 1);
  CHECK(sm0("tlb_hits", hits) == 0);
  const uint64_t hit_ps = vecadd(x, x, c, 1);
  CHECK(sm0("tlb_hits", hits) == 1);
  // Pages 1 and 2 take the TLB's two entries; page 0 walks again: the kernel takes exactly the
  // walk's 100 core cycles longer (everything it reads hits in the L2 both times).
  vecadd(x + 4096, x + 2 * 4096, c, 1);
  CHECK(sm0("page_walks", walks) == 3);
  const uint64_t miss_ps = vecadd(x, x, c, 1);
  CHECK(sm0("page_walks", walks) == 4);
  CHECK(sm0("tlb_misses", misses) == 4);
  CHECK(miss_ps - hit_ps == 100 * platform().gpu().clock_period().value());
  float sum = 0;
  cuda.copy_to_host(&sum, c, 4);
  CHECK(sum == 3.0f);
  CHECK(counter("far_faults") == faults);
  // The host reads page 0: the driver unmaps it and drops its entry (and only its), so the next
  // kernel walks, faults, and walks again when its request is replayed (the replay translates
  // afresh).
  const uint64_t dropped = counter("tlb_invalidations", "gpu.sm0");
  cuda.copy_to_host(&sum, x, 4);
  CHECK(sm0("tlb_invalidations", dropped) == 1);
  vecadd(x, x, c, 1);
  CHECK(counter("far_faults") == faults + 1);
  CHECK(sm0("page_walks", walks) == 6);
  CHECK(sm0("tlb_hits", hits) == 1);
  cuda.copy_to_host(&sum, c, 4);
  CHECK(sum == 3.0f);
  cuda.free(x);
  cuda.free(c);
}

TEST_CASE("uvm: a cudaMalloc that finds no room takes managed memory back, evicting it") {
  ohmvp::Runtime& cuda = platform().runtime();
  const uint32_t n = 4096;  // one 16 KiB chunk of floats
  const uint64_t m = cuda.malloc_managed(n * 4), c = cuda.malloc(n * 4);
  const std::vector<float> x = ramp(n, 0.5f);
  cuda.copy_to_device(m, x.data(), n * 4);
  vecadd(m, m, c, n);  // m's four pages come to the GPU
  const uint64_t given = counter("chunks_to_malloc"), evicted = counter("chunks_evicted"),
                 to_host = counter("pages_to_host");
  // Fill device memory 16 KiB at a time. The driver's free chunk goes first, at once; then m's
  // chunk is evicted for a cudaMalloc, which returns once its pages are in host memory (the copy
  // engine's reads, then 500 ns + 16,384 ns of PCIe); then nothing is left.
  std::vector<uint64_t> blocks;
  uint64_t longest_ps = 0;
  for (;;) {
    const uint64_t start = now_ps();
    try {
      blocks.push_back(cuda.malloc(n * 4));
    } catch (const ohmvp::OutOfDeviceMemory&) {
      break;
    }
    longest_ps = std::max(longest_ps, now_ps() - start);
  }
  CHECK(counter("chunks_to_malloc") == given + 2);
  CHECK(counter("chunks_evicted") == evicted + 1);
  CHECK(counter("pages_to_host") == to_host + 4);
  CHECK(longest_ps > (500 + 16384) * 1000);
  CHECK(longest_ps < (500 + 16384 + 2000) * 1000);
  // m's bytes are in host memory, intact; with a block freed, the driver takes a chunk again and
  // the kernel runs on m.
  std::vector<float> back(n);
  cuda.copy_to_host(back.data(), m, n * 4);
  CHECK(back == x);
  cuda.free(blocks.back());
  blocks.pop_back();
  vecadd(m, m, c, n);
  cuda.copy_to_host(back.data(), c, n * 4);
  CHECK(back == ramp(n, 1.0f));
  for (uint64_t block : blocks) cuda.free(block);
  cuda.free(m);
  cuda.free(c);
}

TEST_CASE("uvm: read-mostly pages keep their host copy until a write") {
  ohmvp::Runtime& cuda = platform().runtime();
  const uint32_t n = 1024;  // one page of floats
  const uint64_t m = cuda.malloc_managed(n * 4), c = cuda.malloc(n * 4);
  const std::vector<float> x = ramp(n, 0.5f), twice = ramp(n, 1.0f);
  std::vector<float> back(n);
  cuda.copy_to_device(m, x.data(), n * 4);
  cuda.advise_managed(m, n * 4, ohmvp::ManagedAdvice::set_read_mostly);
  CHECK_THROWS_AS(cuda.advise_managed(c, 4, ohmvp::ManagedAdvice::set_read_mostly),
                  std::invalid_argument);  // not managed
  const uint64_t to_gpu = counter("pages_to_gpu"), to_host = counter("pages_to_host"),
                 duplicated = counter("pages_duplicated"),
                 collapsed = counter("duplicates_collapsed"), dropped = counter("pages_dropped");
  vecadd(m, m, c, n);  // m's page comes to the GPU as a duplicate
  CHECK(counter("pages_to_gpu") == to_gpu + 1);
  CHECK(counter("pages_duplicated") == duplicated + 1);
  // A host read moves nothing, in no time, and the page stays: the next kernel does not fault.
  const uint64_t start = now_ps();
  cuda.copy_to_host(back.data(), m, n * 4);
  CHECK(now_ps() == start);
  CHECK(back == x);
  CHECK(counter("pages_to_host") == to_host);
  const uint64_t faults = counter("far_faults");
  vecadd(m, m, c, n);
  CHECK(counter("far_faults") == faults);
  // A GPU write faults once (the loads before it do not), moves nothing and makes the GPU's copy
  // the only one, which a host read then brings back.
  vecadd(m, m, m, n);
  CHECK(counter("far_faults") > faults);
  CHECK(counter("duplicates_collapsed") == collapsed + 1);
  CHECK(counter("pages_to_gpu") == to_gpu + 1);
  cuda.copy_to_host(back.data(), m, n * 4);
  CHECK(back == twice);
  CHECK(counter("pages_to_host") == to_host + 1);
  // Read again, duplicated again; a host write drops the GPU's copy without a transfer, and the
  // next kernel brings the new bytes.
  vecadd(m, m, c, n);
  CHECK(counter("pages_duplicated") == duplicated + 2);
  cuda.copy_to_device(m, x.data(), n * 4);
  CHECK(counter("pages_dropped") == dropped + 1);
  CHECK(counter("pages_to_host") == to_host + 1);
  vecadd(m, m, c, n);
  cuda.copy_to_host(back.data(), c, n * 4);
  CHECK(back == twice);
  // Evicting the duplicate moves nothing either: two more buffers take both chunks.
  const uint64_t p = cuda.malloc_managed(4 * n * 4), q = cuda.malloc_managed(4 * n * 4);
  const uint64_t evicted = counter("chunks_evicted");
  vecadd(p, q, c, n);
  CHECK(counter("chunks_evicted") == evicted + 1);
  CHECK(counter("pages_dropped") == dropped + 2);
  CHECK(counter("pages_to_host") == to_host + 1);
  // Unset, a duplicate is the GPU's only copy again: a host read copies it back.
  vecadd(m, m, c, n);
  cuda.advise_managed(m, n * 4, ohmvp::ManagedAdvice::unset_read_mostly);
  const uint64_t before_read = counter("pages_to_host");
  cuda.copy_to_host(back.data(), m, n * 4);
  CHECK(back == x);
  CHECK(counter("pages_to_host") == before_read + 1);
  cuda.free(p);
  cuda.free(q);
  cuda.free(m);
  cuda.free(c);
}

TEST_CASE("uvm: accessed-by and host-preferred pages are used in host memory over PCIe") {
  ohmvp::Runtime& cuda = platform().runtime();
  const uint32_t n = 1024;  // one page of floats
  const uint64_t m = cuda.malloc_managed(n * 4), c = cuda.malloc(n * 4);
  const std::vector<float> x = ramp(n, 0.5f);
  std::vector<float> back(n);
  cuda.copy_to_device(m, x.data(), n * 4);
  cuda.advise_managed(m, n * 4, ohmvp::ManagedAdvice::set_accessed_by);
  const uint64_t faults = counter("far_faults"), to_gpu = counter("pages_to_gpu"),
                 to_host = counter("pages_to_host"), remote = counter("remote_accesses"),
                 remote_bytes = counter("remote_bytes"), link = counter("pcie_link_busy", "host");
  // Accessed by the GPU: mapped in host memory, no fault. One thread's two loads of m[0] make one
  // request for one sector: a read request of 24 bytes on the wire towards host memory, and a
  // completion of 32 + 20 back, at 1 GB/s of payload in 256-byte packets, so 276/256 GB/s on the
  // wire (and it arrives 500 ns later: accesses overlap their latency).
  vecadd(m, m, c, 1);
  CHECK(counter("far_faults") == faults);
  CHECK(counter("remote_accesses") == remote + 1);
  CHECK(counter("remote_bytes") == remote_bytes + 32);
  CHECK(counter("pcie_link_busy", "host") - link == 22261 + 48232);
  // The whole page: its 32 lines of four sectors each, read in host memory.
  vecadd(m, m, c, n);
  CHECK(counter("remote_bytes") == remote_bytes + 32 + 4096);
  cuda.copy_to_host(back.data(), c, n * 4);
  CHECK(back == ramp(n, 1.0f));
  // Stores go to host memory too: the host reads them there without a migration.
  vecadd(c, c, m, n);
  cuda.copy_to_host(back.data(), m, n * 4);
  CHECK(back == ramp(n, 2.0f));
  CHECK(counter("pages_to_gpu") == to_gpu);
  CHECK(counter("pages_to_host") == to_host);
  CHECK(counter("far_faults") == faults);
  // Preferred location host memory instead: the first access faults and the batch maps the page
  // there, moving nothing; later kernels use it there without a fault.
  cuda.advise_managed(m, n * 4, ohmvp::ManagedAdvice::unset_accessed_by);
  cuda.advise_managed(m, n * 4, ohmvp::ManagedAdvice::set_preferred_location_host);
  const uint64_t mapped = counter("pages_mapped_in_host");
  vecadd(m, m, c, n);
  CHECK(counter("far_faults") > faults);
  CHECK(counter("pages_mapped_in_host") == mapped + 1);
  CHECK(counter("pages_to_gpu") == to_gpu);
  const uint64_t faulted = counter("far_faults");
  vecadd(m, m, c, n);
  CHECK(counter("far_faults") == faulted);
  cuda.copy_to_host(back.data(), c, n * 4);
  CHECK(back == ramp(n, 4.0f));
  // A prefetch brings it to the GPU all the same; unset, the next eviction or host access leaves
  // it in host memory unmapped, and a fault migrates it as usual.
  cuda.prefetch_managed(m, n * 4, false);
  CHECK(counter("pages_to_gpu") == to_gpu + 1);
  cuda.advise_managed(m, n * 4, ohmvp::ManagedAdvice::unset_preferred_location);
  cuda.copy_to_host(back.data(), m, n * 4);
  CHECK(back == ramp(n, 2.0f));
  vecadd(m, m, c, n);
  CHECK(counter("pages_to_gpu") == to_gpu + 2);
  cuda.free(m);
  cuda.free(c);
}

TEST_CASE("uvm: the tree prefetcher's pages count as used once a request reaches them") {
  ohmvp::Runtime& cuda = platform().runtime();
  const uint32_t n = 4096;  // a chunk of floats: four pages
  const uint64_t a = cuda.malloc_managed(n * 4), b = cuda.malloc_managed(n * 4),
                 c = cuda.malloc(n * 4);
  cuda.copy_to_device(a, ramp(n, 1.0f).data(), n * 4);
  cuda.copy_to_device(b, ramp(n, 2.0f).data(), n * 4);
  const uint64_t prefetched = counter("pages_prefetched"), used = counter("pages_prefetched_used");
  // Three of each block's four pages fault: more than 51% of the block, so the fourth comes too.
  vecadd(a, b, c, 3 * 1024);
  CHECK(counter("pages_prefetched") - prefetched == 2);
  CHECK(counter("pages_prefetched_used") == used);
  const uint64_t faults = counter("far_faults");
  vecadd(a, b, c, n);
  CHECK(counter("far_faults") == faults);
  CHECK(counter("pages_prefetched_used") - used == 2);
  vecadd(a, b, c, n);  // counted once
  CHECK(counter("pages_prefetched_used") - used == 2);
  std::vector<float> sum(n);
  cuda.copy_to_host(sum.data(), c, n * 4);
  CHECK(sum[n - 1] == 3.0f * float((n - 1) % 1000));
  cuda.free(a);
  cuda.free(b);
  cuda.free(c);
}

TEST_CASE("uvm: a prefetched page evicted before a request reached it was not used") {
  ohmvp::Runtime& cuda = platform().runtime();
  const uint32_t n = 4096;  // a chunk of floats: four pages; the GPU holds two chunks
  const uint64_t a = cuda.malloc_managed(n * 4), b = cuda.malloc_managed(n * 4),
                 d = cuda.malloc_managed(n * 4), e = cuda.malloc_managed(n * 4),
                 c = cuda.malloc(n * 4);
  const uint64_t prefetched = counter("pages_prefetched"), used = counter("pages_prefetched_used");
  vecadd(a, b, c, 3 * 1024);  // the fourth pages of a and b come unasked
  CHECK(counter("pages_prefetched") - prefetched == 2);
  const uint64_t evicted = counter("chunks_evicted");
  vecadd(d, e, c, n);  // d and e take both chunks: a's and b's go, their fourth pages untouched
  CHECK(counter("chunks_evicted") - evicted == 2);
  vecadd(a, b, c, n);  // every page of a and b faults back
  CHECK(counter("pages_prefetched_used") == used);
  for (const uint64_t buffer : {a, b, d, e, c}) cuda.free(buffer);
}

TEST_CASE("uvm: an access past a managed allocation is a device fault") {
  ohmvp::Runtime& cuda = platform().runtime();
  const uint64_t a = cuda.malloc_managed(256 * 4), c = cuda.malloc(512 * 4);
  CHECK_THROWS_AS(vecadd(a, a, c, 300), ohmvp::DeviceFaultError);  // a[256..299]: past its end
  cuda.reset();
}

namespace {

uint64_t resident_bytes() {  // this process's resident set (Linux)
  std::ifstream statm("/proc/self/statm");
  uint64_t pages = 0, resident = 0;
  statm >> pages >> resident;
  return resident * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

}  // namespace

TEST_CASE("uvm: a large managed allocation takes host memory only where it is used") {
  ohmvp::Runtime& cuda = platform().runtime();
  const uint64_t before = resident_bytes();
  const uint64_t bytes = uint64_t{4} << 30;
  const uint64_t m = cuda.malloc_managed(bytes);
  const std::vector<float> x = ramp(1024, 3.0f);
  cuda.copy_to_device(m + bytes - 4096, x.data(), 4096);  // the last page, in host memory
  std::vector<float> back(1024);
  cuda.copy_to_host(back.data(), m + bytes - 4096, 4096);
  CHECK(back == x);
  cuda.copy_to_host(back.data(), m + bytes / 2, 4096);  // never written: zero
  CHECK(back == std::vector<float>(1024, 0.0f));
  CHECK(resident_bytes() - before < (uint64_t{64} << 20));
  cuda.free(m);
}
