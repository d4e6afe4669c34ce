// The runtime's streams, events and asynchronous copies on the small GPU platform: exact copy
// times (PCIe in parts, then the copy engine), copies overlapping kernels of other streams, the
// order streams and events promise, partial lines, and faults. One platform for the whole
// executable (SystemC elaborates once); the test cases run in file order.
#include <catch2/catch.hpp>
#include <cstring>
#include <vector>

#include "modules/common/errors.h"
#include "modules/common/hex_text.h"
#include "modules/host/kernel_arguments.h"
#include "platforms/catalog.h"
#include "platforms/gpu_platform.h"

namespace {

using ohmvp::Runtime;

ohmvp::GpuPlatform& platform() {
  // PCIe: 1 GB/s (1 byte per ns) and 500 ns per copy, so link times are easy to state exactly.
  static ohmvp::GpuPlatform instance(
      "gpu_small", {"host.pcie.bandwidth_gb_per_s=1", "host.pcie.latency_ns=500"});
  return instance;
}

uint64_t now_ps() {
  return sc_core::sc_time_stamp().value();
}

// How long the copy engine takes to write one part (4 KiB) into an idle GPU's L2s, from `start`
// (the time now is a whole number of core cycles past it: the same clock phase).
uint64_t part_write_ps(uint64_t address, uint64_t& start) {
  std::vector<uint8_t> bytes(Runtime::async_copy_part_bytes, 1);
  start = now_ps();
  uint64_t end = 0;
  platform().gpu().copy_engine().write(address, bytes, [&end] {
    end = now_ps();
    sc_core::sc_pause();
  });
  sc_core::sc_start();
  return end - start;
}

// Lets time pass until `ahead` from now falls on the GPU clock's phase at `reference`, so that a
// copy engine's write `ahead` from now takes what one from `reference` took.
void align_with(uint64_t reference, uint64_t ahead) {
  const uint64_t period = platform().gpu().config().core_period_ps();
  const uint64_t wait = (period - (now_ps() + ahead - reference) % period) % period;
  if (wait > 0) sc_core::sc_start(sc_core::sc_time::from_value(wait));
}

// The device's bytes at `address`, copied back synchronously.
std::vector<uint8_t> read_back(uint64_t address, size_t bytes) {
  std::vector<uint8_t> back(bytes);
  platform().runtime().copy_to_host(back.data(), address, bytes);
  return back;
}

std::vector<uint8_t> pattern(size_t bytes, uint8_t seed) {
  std::vector<uint8_t> out(bytes);
  for (size_t i = 0; i < bytes; ++i) out[i] = static_cast<uint8_t>(i * 13 + seed);
  return out;
}

struct Vecadd {
  Runtime& cuda;
  Runtime::ModuleId module;
  explicit Vecadd(Runtime& runtime)
      : cuda(runtime),
        module(
            runtime.load_module(ohmvp::ohmvp_home() / "testbenches" / "kernels" / "vecadd.ptx")) {}
  void launch(uint64_t a, uint64_t b, uint64_t out, uint32_t n, Runtime::StreamId stream) {
    Runtime::LaunchConfig config;
    config.grid = {(n + 255) / 256, 1, 1};
    config.block = {256, 1, 1};
    cuda.launch(
        module, "vecadd", config,
        ohmvp::KernelArguments(cuda, module, "vecadd").add(a).add(b).add(out).add(n).bytes(),
        stream);
  }
};

}  // namespace

TEST_CASE("streams: an asynchronous copy returns at once and takes PCIe then the copy engine") {
  Runtime& cuda = platform().runtime();
  // Two buffers whose lines fall in the same L2 slices and sets, both empty.
  const uint64_t device = cuda.malloc(1 << 20), scratch = device + (1 << 19);
  uint64_t measured = 0;
  const uint64_t write_ps = part_write_ps(scratch, measured);
  REQUIRE(write_ps > 0);
  const auto stream = cuda.create_stream();
  const auto bytes = pattern(Runtime::async_copy_part_bytes, 3);
  const auto before = cuda.create_event(), after = cuda.create_event();
  align_with(measured, (500 + 4096) * 1000);
  const uint64_t start = now_ps();
  cuda.record_event(before, stream);
  cuda.copy_to_device_async(device, bytes.data(), bytes.size(), stream);
  cuda.record_event(after, stream);
  CHECK(now_ps() == start);
  CHECK_FALSE(cuda.stream_query(stream));
  CHECK_FALSE(cuda.event_query(after));
  CHECK_THROWS_WITH(cuda.event_elapsed_ms(before, after), Catch::Contains("has not completed"));
  cuda.stream_synchronize(stream);
  // One part: the link's latency and its bytes at 1 byte/ns, then the engine's write.
  CHECK(now_ps() - start == (500 + 4096) * 1000 + write_ps);
  CHECK(cuda.stream_query(stream));
  CHECK(cuda.event_query(after));
  CHECK(cuda.event_elapsed_ms(before, after) == Approx(((500 + 4096) * 1000 + write_ps) / 1e9));

  CHECK(read_back(device, bytes.size()) == bytes);
  cuda.destroy_stream(stream);
  cuda.free(device);
}

TEST_CASE("streams: a copy in parts streams over the link; the engine writes each as it lands") {
  Runtime& cuda = platform().runtime();
  const uint64_t device = cuda.malloc(1 << 20);
  uint64_t measured = 0;
  // Where the last part goes, in lines of the same L2 sets, as empty as it finds them.
  const uint64_t write_ps = part_write_ps(device + (1 << 19) + 2 * 4096, measured);
  const auto stream = cuda.create_stream();
  const auto bytes = pattern(3 * 4096, 5);
  align_with(measured, (500 + 3 * 4096) * 1000);
  const uint64_t start = now_ps();
  cuda.copy_to_device_async(device, bytes.data(), bytes.size(), stream);
  cuda.stream_synchronize(stream);
  // The last part lands when the whole copy has crossed; the earlier ones were written meanwhile.
  CHECK(now_ps() - start == (500 + 3 * 4096) * 1000 + write_ps);
  // Back the other way, asynchronously too: the engine reads, the link carries the parts.
  std::vector<uint8_t> back(bytes.size());
  const uint64_t back_start = now_ps();
  cuda.copy_to_host_async(back.data(), device, back.size(), stream);
  CHECK(back == std::vector<uint8_t>(bytes.size(), 0));  // not there yet
  cuda.stream_synchronize(stream);
  CHECK(back == bytes);
  CHECK(now_ps() - back_start > (500 + 3 * 4096) * 1000);
  cuda.free(device);
}

TEST_CASE("streams: partial lines keep the bytes around the copy, memset_async fills") {
  Runtime& cuda = platform().runtime();
  const uint64_t device = cuda.malloc(2048);
  cuda.memset(device, 0xaa, 2048);
  const auto stream = cuda.create_stream();
  const auto bytes = pattern(1000, 9);
  cuda.copy_to_device_async(device + 3, bytes.data(), bytes.size(), stream);
  cuda.memset_async(device + 1500, 0x11, 37, stream);
  std::vector<uint8_t> back(2048);
  cuda.copy_to_host_async(back.data(), device, back.size(), stream);
  cuda.stream_synchronize(stream);
  std::vector<uint8_t> expected(2048, 0xaa);
  std::memcpy(expected.data() + 3, bytes.data(), bytes.size());
  std::memset(expected.data() + 1500, 0x11, 37);
  CHECK(back == expected);
  // An odd range read back asynchronously.
  std::vector<uint8_t> middle(501);
  cuda.copy_to_host_async(middle.data(), device + 999, middle.size(), stream);
  cuda.stream_synchronize(stream);
  CHECK(std::equal(middle.begin(), middle.end(), expected.begin() + 999));
  cuda.free(device);
}

TEST_CASE("streams: cuMemsetD16/D32Async repeat their element and take the byte memset's time") {
  Runtime& cuda = platform().runtime();
  const uint64_t device = cuda.malloc(8192);
  const auto stream = cuda.create_stream();
  cuda.memset(device, 0xaa, 8192);
  cuda.memset_elements_async(device + 2, 0x1234, 2, 5, stream);
  cuda.memset_elements_async(device + 16, 0xdeadbeef, 4, 3, stream);
  cuda.stream_synchronize(stream);
  std::vector<uint8_t> expected(8192, 0xaa);
  for (size_t i = 0; i < 5; ++i) expected[2 + 2 * i] = 0x34, expected[3 + 2 * i] = 0x12;
  for (size_t i = 0; i < 3; ++i) std::memcpy(expected.data() + 16 + 4 * i, "\xef\xbe\xad\xde", 4);
  CHECK(read_back(device, 8192) == expected);
  CHECK_THROWS_WITH(cuda.memset_elements_async(device + 2, 0, 4, 1, stream),
                    "memset of 4-byte elements: the destination " + ohmvp::hex_text(device + 2) +
                        " is not aligned to them");
  CHECK_THROWS_WITH(cuda.memset_elements_async(device, 0, 8, 1, stream),
                    "memset: elements of 8 bytes; expected 1, 2 or 4 (cuMemsetD8, D16, D32)");
  CHECK_THROWS_WITH(cuda.memset_elements_async(device, 0, 4, 2049, stream),
                    Catch::Contains("memset of 8196 bytes at device address"));
  // Two parts of 4 KiB either way, their lines already in the L2s: the same writes, the same time.
  const uint64_t reference = now_ps();
  const auto timed = [&](unsigned element_bytes) {
    align_with(reference, 0);
    const uint64_t start = now_ps();
    cuda.memset_elements_async(device, 0x01010101, element_bytes, 8192 / element_bytes, stream);
    cuda.stream_synchronize(stream);
    return now_ps() - start;
  };
  const uint64_t bytewise = timed(1);
  CHECK(bytewise > 0);
  CHECK(timed(2) == bytewise);
  CHECK(timed(4) == bytewise);
  CHECK(read_back(device, 8192) == std::vector<uint8_t>(8192, 1));
  // Managed memory: set as the synchronous fill sets it.
  const uint64_t managed = cuda.malloc_managed(64);
  cuda.memset_elements_async(managed, 0x0201, 2, 32, stream);
  std::vector<uint8_t> pairs(64);
  for (size_t i = 0; i < 64; ++i) pairs[i] = static_cast<uint8_t>(1 + i % 2);
  CHECK(read_back(managed, 64) == pairs);
  cuda.free(managed);
  cuda.free(device);
}

TEST_CASE("streams: a device-to-device copy reads each part, then writes it") {
  Runtime& cuda = platform().runtime();
  // Four regions whose lines fall in the same L2 slices and sets.
  const uint64_t device = cuda.malloc(1 << 21);
  const uint64_t source = device, destination = device + (1 << 19);
  const uint64_t read_scratch = device + 2 * (1 << 19), write_scratch = device + 3 * (1 << 19);
  const auto bytes = pattern(Runtime::async_copy_part_bytes, 21);
  cuda.copy_to_device(source, bytes.data(), bytes.size());
  // Both sources' lines in the L2s first: the reads below hit, so DRAM's state does not enter.
  auto& engine = platform().gpu().copy_engine();
  for (const uint64_t address : {source, read_scratch}) {
    engine.read(address, Runtime::async_copy_part_bytes,
                [](std::vector<uint8_t>&) { sc_core::sc_pause(); });
    sc_core::sc_start();
  }
  // The engine's read of a part and, as it comes, the part's write to lines the L2s lack.
  const uint64_t measured = now_ps();
  uint64_t chain_ps = 0;
  engine.read(read_scratch, Runtime::async_copy_part_bytes, [&](std::vector<uint8_t>& data) {
    engine.write(write_scratch, std::move(data), [&] {
      chain_ps = now_ps() - measured;
      sc_core::sc_pause();
    });
  });
  sc_core::sc_start();
  REQUIRE(chain_ps > 0);
  // The runtime's copy of one part takes that, no more.
  const auto stream = cuda.create_stream();
  align_with(measured, 0);
  const uint64_t start = now_ps();
  cuda.copy_on_device_async(destination, source, bytes.size(), stream);
  CHECK(now_ps() == start);
  cuda.stream_synchronize(stream);
  CHECK(now_ps() - start == chain_ps);
  CHECK(read_back(destination, bytes.size()) == bytes);

  // Three parts and a partial line at each end; the bytes around stay.
  const auto more = pattern(3 * 4096 + 100, 4);
  cuda.copy_to_device(source, more.data(), more.size());
  cuda.memset(destination, 0x5a, 4 * 4096);
  cuda.copy_on_device_async(destination + 7, source + 1, 3 * 4096 + 50, stream);
  cuda.stream_synchronize(stream);
  std::vector<uint8_t> expected(4 * 4096, 0x5a);
  std::copy(more.begin() + 1, more.begin() + 1 + 3 * 4096 + 50, expected.begin() + 7);
  CHECK(read_back(destination, expected.size()) == expected);

  // In stream order behind a kernel: the copy reads what the kernel wrote.
  Vecadd vecadd(cuda);
  std::vector<float> ones(1024, 1.0f);
  cuda.copy_to_device(source, ones.data(), 4096);
  vecadd.launch(source, source, write_scratch, 1024, stream);
  cuda.copy_on_device_async(read_scratch, write_scratch, 4096, stream);
  cuda.stream_synchronize(stream);
  std::vector<float> twos(1024);
  cuda.copy_to_host(twos.data(), read_scratch, 4096);
  CHECK(twos == std::vector<float>(1024, 2.0f));

  // Overlapping ranges are refused; managed memory is copied as the synchronous call does.
  CHECK_THROWS_WITH(cuda.copy_on_device_async(source + 64, source, 128, stream),
                    Catch::Contains("overlap; a device copy's may not"));
  CHECK_THROWS_WITH(cuda.copy_on_device(source, source + 64, 128),
                    Catch::Contains("overlap; a device copy's may not"));
  CHECK_THROWS_AS(cuda.copy_on_device_async(source, 16, 128, stream), std::invalid_argument);
  const uint64_t managed = cuda.malloc_managed(4096);
  cuda.copy_on_device_async(managed, source, 4096, stream);
  std::vector<float> back(1024);
  cuda.copy_to_host(back.data(), managed, 4096);
  CHECK(back == ones);
  cuda.free(managed);
  cuda.free(device);
}

TEST_CASE("streams: a copy on one stream overlaps a kernel on another") {
  Runtime& cuda = platform().runtime();
  Vecadd vecadd(cuda);
  const uint32_t n = 64 * 1024;
  std::vector<float> a(n), b(n);
  for (uint32_t i = 0; i < n; ++i) {
    a[i] = float(i);
    b[i] = 0.5f * float(i);
  }
  const uint64_t da = cuda.malloc(n * 4), db = cuda.malloc(n * 4), dc = cuda.malloc(n * 4);
  const uint64_t other = cuda.malloc(n * 4);
  cuda.copy_to_device(da, a.data(), n * 4);
  cuda.copy_to_device(db, b.data(), n * 4);
  const auto upload = pattern(n * 4, 1);

  // Each alone, one after the other.
  uint64_t start = now_ps();
  vecadd.launch(da, db, dc, n, Runtime::default_stream);
  cuda.synchronize();
  const uint64_t kernel_ps = now_ps() - start;
  const auto s1 = cuda.create_stream(), s2 = cuda.create_stream();
  start = now_ps();
  cuda.copy_to_device_async(other, upload.data(), upload.size(), s2);
  cuda.synchronize();
  const uint64_t copy_ps = now_ps() - start;
  REQUIRE(copy_ps > (500 + n * 4) * 1000);

  // Both at once, on two streams.
  cuda.memset(dc, 0, n * 4);
  start = now_ps();
  vecadd.launch(da, db, dc, n, s1);
  cuda.copy_to_device_async(other, upload.data(), upload.size(), s2);
  cuda.synchronize();
  const uint64_t both_ps = now_ps() - start;
  CHECK(both_ps >= std::max(kernel_ps, copy_ps));
  CHECK(both_ps < copy_ps + kernel_ps / 10);  // the kernel runs while the copy crosses
  std::vector<float> c(n);
  cuda.copy_to_host(c.data(), dc, n * 4);
  bool sums = true;
  for (uint32_t i = 0; i < n; ++i) sums = sums && c[i] == a[i] + b[i];
  CHECK(sums);
  CHECK(read_back(other, n * 4) == upload);
  for (const uint64_t d : {da, db, dc, other}) cuda.free(d);
}

TEST_CASE("streams: work on a stream runs in order; events order work across streams") {
  Runtime& cuda = platform().runtime();
  Vecadd vecadd(cuda);
  const uint32_t n = 1000;
  std::vector<float> a(n), b(n), c(n);
  for (uint32_t i = 0; i < n; ++i) {
    a[i] = 2.0f * float(i);
    b[i] = 1.0f;
  }
  const uint64_t da = cuda.malloc(n * 4), db = cuda.malloc(n * 4), dc = cuda.malloc(n * 4);
  const uint64_t dd = cuda.malloc(n * 4);
  const auto s1 = cuda.create_stream(), s2 = cuda.create_stream();
  // s1: upload, add, download, all queued at once; the kernel sees the copies' bytes.
  cuda.copy_to_device_async(da, a.data(), n * 4, s1);
  cuda.copy_to_device_async(db, b.data(), n * 4, s1);
  vecadd.launch(da, db, dc, n, s1);
  const auto added = cuda.create_event();
  cuda.record_event(added, s1);
  // s2 waits for the sum before adding it to itself.
  cuda.stream_wait_event(s2, added);
  vecadd.launch(dc, dc, dd, n, s2);
  cuda.copy_to_host_async(c.data(), dd, n * 4, s2);
  cuda.stream_synchronize(s2);
  bool doubled = true;
  for (uint32_t i = 0; i < n; ++i) doubled = doubled && c[i] == 2.0f * (a[i] + b[i]);
  CHECK(doubled);
  CHECK(cuda.stream_query(s1));  // s2's work followed all of s1's
  // An event never recorded is complete; elapsed time needs both recorded.
  const auto unused = cuda.create_event();
  CHECK(cuda.event_query(unused));
  cuda.event_synchronize(unused);
  CHECK_THROWS_WITH(cuda.event_elapsed_ms(unused, added), Catch::Contains("never recorded"));
  CHECK(cuda.event_elapsed_ms(added, added) == 0.0);
  for (const uint64_t d : {da, db, dc, dd}) cuda.free(d);
}

TEST_CASE("streams: a launch reads __constant__ memory as its stream's earlier copies left it") {
  Runtime& cuda = platform().runtime();
  const auto module =
      cuda.load_module(ohmvp::ohmvp_home() / "tests" / "data" / "ptx" / "symbols.ptx");
  const uint32_t n = 64;
  const uint64_t in = cuda.malloc(n * 4), out = cuda.malloc(n * 4);
  const std::vector<float> ones(n, 1.0f);
  cuda.copy_to_device(in, ones.data(), n * 4);
  Runtime::LaunchConfig config;
  config.grid = {1, 1, 1};
  config.block = {n, 1, 1};
  const auto convolve = [&](Runtime::StreamId stream) {
    cuda.launch(module, "convolve", config,
                ohmvp::KernelArguments(cuda, module, "convolve").add(in).add(out).add(n).bytes(),
                stream);
  };
  const auto stream = cuda.create_stream();
  std::vector<float> before(n), after(n);
  convolve(stream);
  cuda.copy_to_host_async(before.data(), out, n * 4, stream);
  // The filter of five ones becomes five twos, on the stream, after the first launch.
  const std::vector<float> twos(5, 2.0f);
  cuda.copy_to_device_async(cuda.symbol_address(module, "filter"), twos.data(), 5 * 4, stream);
  convolve(stream);
  cuda.copy_to_host_async(after.data(), out, n * 4, stream);
  cuda.stream_synchronize(stream);
  CHECK(after[10] - before[10] == 5.0f);  // five more ones times one each
  cuda.free(in);
  cuda.free(out);
}

TEST_CASE("streams: the default stream waits for every stream, and synchronous calls with it") {
  Runtime& cuda = platform().runtime();
  const uint64_t device = cuda.malloc(8192);
  const auto stream = cuda.create_stream();
  const auto bytes = pattern(8192, 7);
  const uint64_t start = now_ps();
  cuda.copy_to_device_async(device, bytes.data(), bytes.size(), stream);
  // cudaMemcpy on the legacy default stream: after the stream's copy, so it reads its bytes.
  CHECK(read_back(device, 8192) == bytes);
  CHECK(now_ps() - start > 2 * (500 + 8192) * 1000);
  // An event recorded on the default stream completes after the other streams' earlier work.
  const auto mark = cuda.create_event();
  cuda.copy_to_device_async(device, bytes.data(), bytes.size(), stream);
  cuda.record_event(mark, Runtime::default_stream);
  CHECK_FALSE(cuda.event_query(mark));
  cuda.event_synchronize(mark);
  CHECK(cuda.stream_query(stream));
  cuda.free(device);
}

TEST_CASE("streams: host threads and sc_main wait on one runtime at once, each for its own") {
  Runtime& cuda = platform().runtime();
  const uint64_t big = cuda.malloc(64 * 4096), small = cuda.malloc(4096);
  const auto long_stream = cuda.create_stream(), short_stream = cuda.create_stream();
  const auto bytes = pattern(64 * 4096, 11);
  const uint64_t start = now_ps();
  uint64_t long_end = 0, short_end = 0;
  // Two host threads (sc_spawn) on the same runtime: the long copy's waits outlast the short's.
  for (const bool long_one : {true, false})
    sc_core::sc_spawn([&cuda, &bytes, &long_end, &short_end, long_one, big, small,
                       stream = long_one ? long_stream : short_stream] {
      if (long_one) {
        cuda.copy_to_device_async(big, bytes.data(), bytes.size(), stream);
      } else {
        cuda.memset_async(small, 3, 4096, stream);
      }
      cuda.stream_synchronize(stream);
      (long_one ? long_end : short_end) = now_ps();
      cuda.wake();  // sc_main, waiting for both, looks again
    });
  // sc_main waits for its own short work meanwhile, and returns when that is done.
  cuda.memset_async(small, 4, 4096, Runtime::default_stream);
  cuda.stream_synchronize(Runtime::default_stream);
  CHECK(now_ps() - start < (500 + 64 * 4096) * 1000 / 10);
  cuda.run_until([&] { return long_end != 0 && short_end != 0; }, "the host threads");
  CHECK(long_end - start > (500 + 64 * 4096) * 1000);
  CHECK(short_end < long_end);
  CHECK(read_back(big, bytes.size()) == bytes);
  cuda.free(big);
  cuda.free(small);
}

TEST_CASE("streams: a host that queues more work than the queues hold waits for room") {
  Runtime& cuda = platform().runtime();
  const uint64_t device = cuda.malloc(64);
  const auto stream = cuda.create_stream();
  std::vector<uint8_t> bytes(64, 9);
  const uint64_t start = now_ps();
  for (size_t i = 0; i < Runtime::max_queued_launches; ++i)
    cuda.copy_to_device_async(device, bytes.data(), bytes.size(), stream);
  CHECK(now_ps() == start);  // the queues hold that many
  cuda.memset_async(device, 5, 64, stream);
  // One more: the host waited for the oldest copy (500 ns + 64 bytes on the link, and its write).
  CHECK(now_ps() - start > (500 + 64) * 1000);
  CHECK(now_ps() - start < 2 * (500 + 64) * 1000);
  cuda.stream_synchronize(stream);
  CHECK(read_back(device, 64) == std::vector<uint8_t>(64, 5));
  cuda.free(device);
}

TEST_CASE("streams: unknown streams and events are refused by name") {
  Runtime& cuda = platform().runtime();
  const uint64_t device = cuda.malloc(256);
  std::vector<uint8_t> host(256);
  CHECK_THROWS_WITH(cuda.copy_to_device_async(device, host.data(), 256, 999),
                    Catch::Contains("copy to device: stream 999 is not a stream"));
  const auto stream = cuda.create_stream();
  cuda.destroy_stream(stream);
  CHECK_THROWS_AS(cuda.stream_synchronize(stream), std::invalid_argument);
  CHECK_THROWS_AS(cuda.memset_async(device, 0, 256, stream), std::invalid_argument);
  CHECK_THROWS_AS(cuda.destroy_stream(Runtime::default_stream), std::invalid_argument);
  const auto other = cuda.create_stream();
  CHECK_THROWS_WITH(cuda.copy_to_host_async(host.data(), device + 200, 100, other),
                    Catch::Contains("outside every allocation"));
  CHECK_THROWS_WITH(cuda.copy_to_device_async(device, nullptr, 16, other),
                    Catch::Contains("host pointer is null"));
  CHECK_THROWS_WITH(cuda.record_event(77, other), Catch::Contains("event 77 is not an event"));
  const auto event = cuda.create_event();
  cuda.destroy_event(event);
  CHECK_THROWS_AS(cuda.event_query(event), std::invalid_argument);
  CHECK_THROWS_AS(cuda.stream_wait_event(other, event), std::invalid_argument);
  cuda.free(device);
}

TEST_CASE("streams: a fault skips the work queued behind it on every stream") {
  Runtime& cuda = platform().runtime();
  Vecadd vecadd(cuda);
  const uint32_t n = 256;
  const uint64_t in = cuda.malloc(n * 4), out = cuda.malloc(n * 4);
  cuda.memset(out, 0x7f, n * 4);
  const auto s1 = cuda.create_stream(), s2 = cuda.create_stream();
  const auto faulted = cuda.create_event();
  vecadd.launch(in, in, 0, n, s1);  // stores through null: faults
  cuda.record_event(faulted, s1);
  cuda.stream_wait_event(s2, faulted);
  std::vector<uint8_t> zeros(n * 4, 0);
  cuda.copy_to_device_async(out, zeros.data(), zeros.size(), s2);  // skipped
  CHECK_THROWS_AS(cuda.stream_synchronize(s2), ohmvp::DeviceFaultError);
  CHECK_THROWS_AS(cuda.stream_query(s1), ohmvp::DeviceFaultError);  // sticky
  cuda.reset();
  // After the reset the old ids name nothing, and new streams and events get new ids.
  CHECK_THROWS_AS(cuda.stream_query(s1), std::invalid_argument);
  CHECK_THROWS_AS(cuda.event_query(faulted), std::invalid_argument);
  CHECK(cuda.create_stream() > s2);
  CHECK(cuda.create_event() > faulted);
  // The reset freed everything (device memory keeps its bytes): one block over all of it.
  const uint64_t everything = cuda.malloc(out + n * 4 - 64 * 1024);
  REQUIRE(everything == 64 * 1024);
  CHECK(read_back(out, n * 4) == std::vector<uint8_t>(n * 4, 0x7f));
}

TEST_CASE("streams: copies on their way when a launch faults land nothing more") {
  Runtime& cuda = platform().runtime();
  Vecadd vecadd(cuda);
  const uint32_t n = 256;
  const uint64_t in = cuda.malloc(n * 4), big = cuda.malloc(50 * 4096);
  const auto s1 = cuda.create_stream(), s2 = cuda.create_stream();
  std::vector<uint8_t> host(50 * 4096, 0xee);
  cuda.copy_to_host_async(host.data(), big, host.size(), s2);  // 205 us on the 1 GB/s link
  vecadd.launch(in, in, 0, n, s1);  // stores through null: faults long before
  CHECK_THROWS_AS(cuda.stream_synchronize(s1), ohmvp::DeviceFaultError);
  const std::vector<uint8_t> at_fault = host;
  // The context is dead: the reset does not wait for the copy, whose parts land nowhere; only
  // for the parts the copy engine holds (two of 4 KiB), whose reads are answered.
  const uint64_t before_reset = now_ps();
  cuda.reset();
  CHECK(now_ps() - before_reset < 2 * 1000 * 1000);
  const uint64_t scratch = cuda.malloc(64 * 4096);
  const std::vector<uint8_t> zeros(64 * 4096, 0);
  cuda.copy_to_device(scratch, zeros.data(), zeros.size());  // 262 us pass
  CHECK(now_ps() - before_reset > 205 * 1000 * 1000);
  CHECK(host == at_fault);
  cuda.free(scratch);
}

TEST_CASE("streams: a memset on its way at a fault writes nothing after the reset") {
  Runtime& cuda = platform().runtime();
  Vecadd vecadd(cuda);
  const uint32_t n = 256;
  const uint64_t in = cuda.malloc(n * 4), target = cuda.malloc(1 << 20);
  const auto s1 = cuda.create_stream(), s2 = cuda.create_stream();
  cuda.memset_async(target, 0xab, 1 << 20, s2);
  vecadd.launch(in, in, 0, n, s1);  // stores through null: faults while the memset goes on
  CHECK_THROWS_AS(cuda.stream_synchronize(s2), ohmvp::DeviceFaultError);
  cuda.reset();
  // Nothing changes device memory after the reset: the dead memset's parts in the copy engine
  // landed before it returned, its other parts never go.
  cuda.malloc(n * 4);  // the same blocks as before
  const uint64_t again = cuda.malloc(1 << 20);
  REQUIRE(again == target);
  const std::vector<uint8_t> after_reset = read_back(again, 1 << 20);
  sc_core::sc_start(sc_core::sc_time(20, sc_core::SC_US));
  CHECK(read_back(again, 1 << 20) == after_reset);
  cuda.reset();
}
