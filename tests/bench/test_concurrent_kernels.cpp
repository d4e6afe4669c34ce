// Kernels of different streams running at once on the small GPU platform (four Volta SMs): CTAs
// of a later grid fill the room an earlier one leaves, in order; kernel_time and gpu.cycles count
// the time two kernels overlap once; the default stream still runs one kernel after another; a
// fault, or a launch from the device that cannot be made, stops the kernels beside it; a
// non-blocking stream's kernel runs beside the default stream's work and synchronous copies; a
// stream of greater priority has its kernels' CTAs dispatched, and its grids placed, first; a
// grid that starts beside a running one does not read its SM's L1 lines from before its start;
// an asynchronous copy to the host crosses PCIe as fast as one to the device.
// One platform for the whole executable (SystemC elaborates once); the test cases run in file
// order.
#include <algorithm>
#include <catch2/catch.hpp>
#include <functional>
#include <vector>

#include "modules/common/errors.h"
#include "modules/host/kernel_arguments.h"
#include "platforms/catalog.h"
#include "platforms/gpu_platform.h"

namespace {

using ohmvp::Runtime;
using ohmvp::gpu::LaunchRecord;

ohmvp::GpuPlatform& platform() {
  static ohmvp::GpuPlatform instance("gpu_small");
  return instance;
}

struct Vecadd {
  Runtime& cuda = platform().runtime();
  Runtime::ModuleId module =
      cuda.load_module(ohmvp::ohmvp_home() / "testbenches" / "kernels" / "vecadd.ptx");
  // c = a + b over n floats, in CTAs of 256 threads.
  void launch(uint64_t a, uint64_t b, uint64_t c, uint32_t n, Runtime::StreamId stream) {
    Runtime::LaunchConfig config;
    config.grid = {(n + 255) / 256, 1, 1};
    config.block = {256, 1, 1};
    cuda.launch(module, "vecadd", config,
                ohmvp::KernelArguments(cuda, module, "vecadd").add(a).add(b).add(c).add(n).bytes(),
                stream);
  }
};

// y = 2x + y over n floats in `ctas` CTAs of 32 threads (four: n / 128 elements a thread): long,
// and leaving the SMs room.
struct LongSaxpy {
  Runtime& cuda = platform().runtime();
  Runtime::ModuleId module =
      cuda.load_module(ohmvp::ohmvp_home() / "testbenches" / "kernels" / "saxpy.ptx");
  void launch(uint32_t n, uint64_t x, uint64_t y, Runtime::StreamId stream, uint32_t ctas = 4) {
    Runtime::LaunchConfig config;
    config.grid = {ctas, 1, 1};
    config.block = {32, 1, 1};
    cuda.launch(
        module, "saxpy", config,
        ohmvp::KernelArguments(cuda, module, "saxpy").add(n).add(2.0f).add(x).add(y).bytes(),
        stream);
  }
};

// tests/data/ptx/device_launch.cu's tree: a binary tree of launches from the device, `levels`
// deep below the host's one-thread grid, each grid counting itself in `grids`.
struct LaunchTree {
  Runtime& cuda = platform().runtime();
  Runtime::ModuleId module =
      cuda.load_module(ohmvp::ohmvp_home() / "tests" / "data" / "ptx" / "device_launch.ptx");
  void launch(uint64_t leaves, uint64_t grids, int32_t levels, Runtime::StreamId stream) {
    Runtime::LaunchConfig one;
    one.grid = one.block = {1, 1, 1};
    cuda.launch(module, "tree", one,
                ohmvp::KernelArguments(cuda, module, "tree")
                    .add(leaves)
                    .add(grids)
                    .add(levels)
                    .add(0)
                    .bytes(),
                stream);
  }
};

// n floats a[i] = i and b[i] = 2i on the device, and c for their sum (the fault's reset frees
// them).
struct Buffers {
  Runtime& cuda;
  uint32_t n;
  uint64_t a, b, c;
  Buffers(Runtime& runtime, uint32_t count)
      : cuda(runtime),
        n(count),
        a(runtime.malloc(count * 4)),
        b(runtime.malloc(count * 4)),
        c(runtime.malloc(count * 4)) {
    std::vector<float> values(n);
    for (uint32_t i = 0; i < n; ++i) values[i] = float(i);
    cuda.copy_to_device(a, values.data(), n * 4);
    for (float& v : values) v *= 2;
    cuda.copy_to_device(b, values.data(), n * 4);
    cuda.memset(c, 0, n * 4);
  }
  bool summed() const {
    std::vector<float> out(n);
    cuda.copy_to_host(out.data(), c, n * 4);
    for (uint32_t i = 0; i < n; ++i)
      if (out[i] != 3.0f * float(i)) return false;
    return true;
  }
};

uint64_t counter(const char* group, const char* name) {
  return platform().stats().find_counter(group, name)->value();
}

// The launches logged since `first`.
std::vector<LaunchRecord> logged_since(size_t first) {
  const auto& log = platform().gpu().launch_log();
  return {log.begin() + long(first), log.end()};
}

bool overlap(const LaunchRecord& x, const LaunchRecord& y) {
  return x.start_cycle < y.end_cycle && y.start_cycle < x.end_cycle;
}

}  // namespace

TEST_CASE("concurrent kernels: two small grids on two streams start together") {
  Runtime& cuda = platform().runtime();
  Vecadd vecadd;
  Buffers one(cuda, 1024), two(cuda, 1024);  // four CTAs each: one per SM
  const auto s1 = cuda.create_stream(), s2 = cuda.create_stream();
  const size_t first = platform().gpu().launch_log().size();
  const uint64_t kernel_ps = counter("host", "kernel_time");
  const uint64_t cycles = counter("gpu", "cycles");
  vecadd.launch(one.a, one.b, one.c, one.n, s1);
  vecadd.launch(two.a, two.b, two.c, two.n, s2);
  cuda.synchronize();
  const auto runs = logged_since(first);
  REQUIRE(runs.size() == 2);
  // Both grids started in the same cycle, the second's CTAs in the room the first's left.
  CHECK(runs[1].start_cycle == runs[0].start_cycle);
  const uint64_t begin = runs[0].start_cycle;
  const uint64_t end = std::max(runs[0].end_cycle, runs[1].end_cycle);
  // The time they overlap is counted once.
  CHECK(counter("gpu", "cycles") - cycles == end - begin);
  CHECK(counter("host", "kernel_time") - kernel_ps ==
        (end - begin) * platform().gpu().config().core_period_ps());
  CHECK(one.summed());
  CHECK(two.summed());
}

TEST_CASE("concurrent kernels: the default stream runs its kernels one after another") {
  Runtime& cuda = platform().runtime();
  Vecadd vecadd;
  Buffers one(cuda, 1024), two(cuda, 1024);
  const size_t first = platform().gpu().launch_log().size();
  const uint64_t kernel_ps = counter("host", "kernel_time");
  vecadd.launch(one.a, one.b, one.c, one.n, Runtime::default_stream);
  vecadd.launch(two.a, two.b, two.c, two.n, Runtime::default_stream);
  cuda.synchronize();
  const auto runs = logged_since(first);
  REQUIRE(runs.size() == 2);
  CHECK(runs[1].start_cycle >= runs[0].end_cycle);
  CHECK(counter("host", "kernel_time") - kernel_ps ==
        (runs[0].end_cycle - runs[0].start_cycle + runs[1].end_cycle - runs[1].start_cycle) *
            platform().gpu().config().core_period_ps());
  CHECK(one.summed());
  CHECK(two.summed());
}

TEST_CASE("concurrent kernels: a grid that fills the GPU leaves the next its tail") {
  Runtime& cuda = platform().runtime();
  Vecadd vecadd;
  // 64 CTAs of 256 threads: eight fit an SM (2048 threads), so the first 32 fill the GPU.
  Buffers big(cuda, 64 * 256), small(cuda, 1024);
  const auto s1 = cuda.create_stream(), s2 = cuda.create_stream();
  const size_t first = platform().gpu().launch_log().size();
  const uint64_t serial_start = sc_core::sc_time_stamp().value();
  vecadd.launch(big.a, big.b, big.c, big.n, Runtime::default_stream);
  vecadd.launch(small.a, small.b, small.c, small.n, Runtime::default_stream);
  cuda.synchronize();
  const uint64_t serial_ps = sc_core::sc_time_stamp().value() - serial_start;

  const uint64_t start = sc_core::sc_time_stamp().value();
  vecadd.launch(big.a, big.b, big.c, big.n, s1);
  vecadd.launch(small.a, small.b, small.c, small.n, s2);
  cuda.synchronize();
  const uint64_t concurrent_ps = sc_core::sc_time_stamp().value() - start;
  const auto runs = logged_since(first);
  REQUIRE(runs.size() == 4);
  const LaunchRecord& filling = runs[2];
  const LaunchRecord& tail = runs[3];
  // The second grid's CTAs wait until the first's are all on SMs and some have ended: it starts
  // then, and runs beside the first's last ones.
  CHECK(tail.start_cycle > filling.start_cycle);
  CHECK(overlap(filling, tail));
  CHECK(concurrent_ps < serial_ps);
  CHECK(big.summed());
  CHECK(small.summed());
}

TEST_CASE("concurrent kernels: a fault stops the kernel running beside it") {
  Runtime& cuda = platform().runtime();
  Vecadd vecadd;
  Buffers big(cuda, 64 * 256);
  const auto s1 = cuda.create_stream(), s2 = cuda.create_stream();
  const size_t first = platform().gpu().launch_log().size();
  vecadd.launch(big.a, big.b, big.c, big.n, s1);
  vecadd.launch(big.a, big.b, 0, 256, s2);        // stores through null: faults
  vecadd.launch(big.a, big.b, big.c, big.n, s1);  // skipped
  CHECK_THROWS_AS(cuda.synchronize(), ohmvp::DeviceFaultError);
  const auto runs = logged_since(first);
  REQUIRE(runs.size() == 2);  // the third launch never ran
  CHECK(runs[0].faulted);     // the faulting grid ends first, then the one it stopped
  CHECK(runs[0].grid.x == 1);
  CHECK_FALSE(runs[1].faulted);
  CHECK(overlap(runs[0], runs[1]));
  CHECK(runs[0].end_cycle == runs[1].end_cycle);
  cuda.reset();

  // After the reset kernels run again, on streams too.
  Vecadd reloaded;
  Buffers again(cuda, 1024);
  const auto s3 = cuda.create_stream();
  reloaded.launch(again.a, again.b, again.c, again.n, s3);
  cuda.synchronize();
  CHECK(again.summed());
}

TEST_CASE("concurrent kernels: a non-blocking stream's work is not ordered with stream 0's") {
  Runtime& cuda = platform().runtime();
  Vecadd vecadd;
  LongSaxpy saxpy;
  Buffers long_one(cuda, 64 * 1024), small(cuda, 1024);
  const uint64_t copied = cuda.malloc(small.n * 4);
  std::vector<float> out(small.n);
  for (const auto kind : {Runtime::StreamKind::blocking, Runtime::StreamKind::non_blocking}) {
    const bool blocking = kind == Runtime::StreamKind::blocking;
    INFO((blocking ? "blocking" : "non-blocking"));
    const auto stream = cuda.create_stream(kind);
    const size_t first = platform().gpu().launch_log().size();
    saxpy.launch(long_one.n, long_one.a, long_one.c, stream);
    vecadd.launch(small.a, small.b, small.c, small.n, Runtime::default_stream);
    // A synchronous copy waits for the default stream's order: with a blocking stream the saxpy
    // before it too, with a non-blocking one only the vecadd.
    cuda.copy_to_host(out.data(), small.c, small.n * 4);
    CHECK(cuda.stream_query(stream) == blocking);
    CHECK(out[small.n - 1] == 3.0f * float(small.n - 1));
    // Beside the non-blocking stream's kernel the synchronous calls go through the copy engine;
    // after a blocking stream's they run alone, functionally, at the memory's peak.
    const uint64_t bytes = small.n * 4;
    const auto engine_moved = [&](const std::function<void()>& call, uint64_t read,
                                  uint64_t written) {
      const uint64_t read_before = counter("gpu.copy_engine", "bytes_read");
      const uint64_t written_before = counter("gpu.copy_engine", "bytes_written");
      call();
      CHECK(counter("gpu.copy_engine", "bytes_read") - read_before == (blocking ? 0 : read));
      CHECK(counter("gpu.copy_engine", "bytes_written") - written_before ==
            (blocking ? 0 : written));
    };
    std::vector<float> back(small.n);
    engine_moved([&] { cuda.memset(small.c, 0, bytes); }, 0, bytes);
    engine_moved([&] { cuda.copy_to_host(back.data(), small.c, bytes); }, bytes, 0);
    CHECK(back == std::vector<float>(small.n, 0.0f));
    engine_moved([&] { cuda.copy_to_device(small.c, out.data(), bytes); }, 0, bytes);
    cuda.copy_to_host(back.data(), small.c, bytes);
    CHECK(back == out);
    engine_moved([&] { cuda.copy_on_device(copied, small.c, bytes); }, bytes, bytes);
    cuda.copy_to_host(back.data(), copied, bytes);
    CHECK(back == out);
    const std::vector<float> pattern = {1.5f, -2.0f, 0.25f, 8.0f};
    std::vector<float> filled(small.n);
    for (size_t i = 0; i < filled.size(); ++i) filled[i] = pattern[i % 4];
    engine_moved([&] { cuda.fill(copied, filled.data(), bytes); }, 0, bytes);
    cuda.copy_to_host(back.data(), copied, bytes);
    CHECK(back == filled);
    CHECK(cuda.stream_query(stream) == blocking);  // all while the saxpy runs
    cuda.synchronize();  // every stream
    CHECK(cuda.stream_query(stream));
    const auto runs = logged_since(first);
    REQUIRE(runs.size() == 2);
    const auto& long_run = runs[0].kernel == "saxpy" ? runs[0] : runs[1];
    const auto& short_run = runs[0].kernel == "saxpy" ? runs[1] : runs[0];
    CHECK(overlap(long_run, short_run) == !blocking);
    cuda.destroy_stream(stream);
  }
}

TEST_CASE("concurrent kernels: a launch from the device that cannot be made stops the others") {
  Runtime& cuda = platform().runtime();
  LongSaxpy saxpy;
  LaunchTree tree;
  Buffers long_one(cuda, 64 * 1024);
  const size_t first = platform().gpu().launch_log().size();
  saxpy.launch(long_one.n, long_one.a, long_one.c, Runtime::default_stream);
  cuda.synchronize();
  const uint64_t alone = platform().gpu().launch_log().back().end_cycle -
                         platform().gpu().launch_log().back().start_cycle;

  const uint64_t leaves = cuda.malloc(64), grids = cuda.malloc(4);
  const auto s1 = cuda.create_stream(), s2 = cuda.create_stream();
  saxpy.launch(long_one.n, long_one.a, long_one.c, s1);
  // A tree of launches 30 deep: the 25th level is deeper than CUDA allows.
  tree.launch(leaves, grids, 30, s2);
  CHECK_THROWS_WITH(cuda.synchronize(), Catch::Contains("nest deeper than CUDA's 24 levels"));
  const auto runs = logged_since(first + 1);
  const auto stopped = std::find_if(runs.begin(), runs.end(),
                                    [](const LaunchRecord& r) { return r.kernel == "saxpy"; });
  REQUIRE(stopped != runs.end());
  CHECK_FALSE(stopped->faulted);
  CHECK(stopped->end_cycle - stopped->start_cycle < alone / 2);
  CHECK(stopped == runs.end() - 1);  // it ended with the tree's last grid, before nothing
  cuda.reset();
}

TEST_CASE("concurrent kernels: a grid starting beside a running one reads past its SM's L1") {
  Runtime& cuda = platform().runtime();
  const auto module =
      cuda.load_module(ohmvp::ohmvp_home() / "tests" / "data" / "ptx" / "coherence.ptx");
  const uint64_t words = cuda.malloc(128), first_out = cuda.malloc(128),
                 second_out = cuda.malloc(128);
  const std::vector<int32_t> ones(32, 1), twos(32, 2);
  cuda.copy_to_device(words, ones.data(), 128);
  const auto s1 = cuda.create_stream(Runtime::StreamKind::non_blocking),
             s2 = cuda.create_stream(Runtime::StreamKind::non_blocking);
  Runtime::LaunchConfig warp;
  warp.grid = {1, 1, 1};
  warp.block = {32, 1, 1};
  const auto launch = [&](uint64_t out, int32_t spins, Runtime::StreamId stream) {
    cuda.launch(module, "read_then_spin", warp,
                ohmvp::KernelArguments(cuda, module, "read_then_spin")
                    .add(words)
                    .add(out)
                    .add(spins)
                    .bytes(),
                stream);
  };
  const size_t first = platform().gpu().launch_log().size();
  // The first grid reads the ones into SM 0's L1 and spins; meanwhile the words become twos
  // (beside a non-blocking stream's kernel the copy goes through the copy engine and the L2s,
  // which the L1s do not watch) and a second grid starts on SM 0 too.
  launch(first_out, 20000, s1);
  cuda.copy_to_device(words, twos.data(), 128);
  launch(second_out, 0, s2);
  cuda.synchronize();
  const auto runs = logged_since(first);
  REQUIRE(runs.size() == 2);
  CHECK(overlap(runs[0], runs[1]));
  std::vector<int32_t> out(32);
  cuda.copy_to_host(out.data(), first_out, 128);
  CHECK(out == ones);
  cuda.copy_to_host(out.data(), second_out, 128);
  CHECK(out == twos);
}

TEST_CASE("concurrent kernels: stream priorities are clamped to the GPU's range") {
  Runtime& cuda = platform().runtime();
  const Runtime::StreamPriorityRange range = cuda.stream_priority_range();
  CHECK(range.least == 0);
  CHECK(range.greatest == -5);  // gpu.greatest_stream_priority's default
  CHECK(cuda.stream_priority(Runtime::default_stream) == 0);
  CHECK(cuda.stream_priority(cuda.create_stream()) == 0);
  CHECK(cuda.stream_priority(cuda.create_stream(Runtime::StreamKind::blocking, -3)) == -3);
  CHECK(cuda.stream_priority(cuda.create_stream(Runtime::StreamKind::non_blocking, -100)) == -5);
  CHECK(cuda.stream_priority(cuda.create_stream(Runtime::StreamKind::blocking, 7)) == 0);
  CHECK_THROWS_AS(cuda.stream_priority(100000), std::invalid_argument);
  // A launch's own priority (cudaLaunchAttributePriority) instead of its stream's, clamped too.
  Vecadd vecadd;
  Buffers one(cuda, 256);
  const auto stream = cuda.create_stream(Runtime::StreamKind::blocking, -3);
  Runtime::LaunchConfig config;
  config.grid = {1, 1, 1};
  config.block = {256, 1, 1};
  const auto launch = [&](std::optional<int> priority) {
    config.priority = priority;
    cuda.launch(vecadd.module, "vecadd", config,
                ohmvp::KernelArguments(cuda, vecadd.module, "vecadd")
                    .add(one.a)
                    .add(one.b)
                    .add(one.c)
                    .add(one.n)
                    .bytes(),
                stream);
    cuda.synchronize();
    return platform().gpu().launch_log().back().priority;
  };
  CHECK(launch(std::nullopt) == -3);
  CHECK(launch(-1) == -1);
  CHECK(launch(4) == 0);
  CHECK(launch(-100) == -5);
  CHECK(one.summed());
}

TEST_CASE("concurrent kernels: grids launched from the device run at their parent's priority") {
  Runtime& cuda = platform().runtime();
  LaunchTree tree;
  const uint64_t leaves = cuda.malloc(16), grids = cuda.malloc(4);
  cuda.memset(grids, 0, 4);
  const auto stream = cuda.create_stream(Runtime::StreamKind::blocking, -2);
  const size_t first = platform().gpu().launch_log().size();
  // A binary tree of launches two levels deep below the host's: seven grids.
  tree.launch(leaves, grids, 2, stream);
  cuda.synchronize();
  const auto runs = logged_since(first);
  CHECK(runs.size() == 7);
  CHECK(std::all_of(runs.begin(), runs.end(),
                    [](const LaunchRecord& run) { return run.priority == -2; }));
}

TEST_CASE("concurrent kernels: a stream of greater priority has its CTAs dispatched first") {
  Runtime& cuda = platform().runtime();
  Vecadd vecadd;
  // 256 CTAs of 256 threads: eight waves of 32 on the four SMs; a grid of one CTA; one of four.
  Buffers big(cuda, 256 * 256), tiny(cuda, 256), small(cuda, 1024);
  const auto low = cuda.create_stream(), equal = cuda.create_stream(),
             high = cuda.create_stream(Runtime::StreamKind::blocking, -1);
  const size_t first = platform().gpu().launch_log().size();
  for (const auto stream : {equal, high}) {
    vecadd.launch(big.a, big.b, big.c, big.n, low);
    // The small grid comes once the tiny one before it on its stream has ended.
    vecadd.launch(tiny.a, tiny.b, tiny.c, tiny.n, stream);
    vecadd.launch(small.a, small.b, small.c, small.n, stream);
    cuda.synchronize();
  }
  const auto runs = logged_since(first);
  REQUIRE(runs.size() == 6);
  const auto pick = [&runs](size_t run, uint32_t ctas) {
    return *std::find_if(runs.begin() + long(3 * run), runs.begin() + long(3 * run + 3),
                         [ctas](const LaunchRecord& r) { return r.grid.x == ctas; });
  };
  const LaunchRecord big_equal = pick(0, 256), tiny_equal = pick(0, 1), small_equal = pick(0, 4);
  const LaunchRecord big_high = pick(1, 256), tiny_high = pick(1, 1), small_high = pick(1, 4);
  CHECK(small_equal.priority == 0);
  CHECK(small_high.priority == -1);
  CHECK(big_high.priority == 0);
  // At equal priority the tiny grid, handed over in the same instant as the big one, waits until
  // the big grid's CTAs are all on SMs (its eighth wave), and the small one after it ends late
  // too. At the
  // greater priority the tiny grid's CTA goes first, beside the big grid's first wave; the small
  // grid comes when it has ended, and its CTAs take the first room the big grid's CTAs free,
  // ahead of the big grid's CTAs still waiting.
  const uint64_t wave = (big_equal.end_cycle - big_equal.start_cycle) / 8;
  CHECK(tiny_equal.start_cycle > big_equal.start_cycle + 5 * wave);
  CHECK(small_equal.end_cycle > big_equal.start_cycle + 6 * wave);
  CHECK(tiny_high.start_cycle == big_high.start_cycle);
  CHECK(small_high.start_cycle >= tiny_high.end_cycle);
  CHECK(small_high.end_cycle < big_high.start_cycle + 3 * wave);
  CHECK(big.summed());
  CHECK(tiny.summed());
  CHECK(small.summed());
}

TEST_CASE(
    "concurrent kernels: a grid of greater priority takes the next place among the "
    "resident grids") {
  Runtime& cuda = platform().runtime();
  LongSaxpy saxpy;
  const uint32_t resident = platform().gpu().config().max_resident_grids;  // 128
  constexpr uint32_t n = 32 * 16;  // one CTA of 32 threads: 16 elements a thread
  const uint64_t x = cuda.malloc(n * 4);
  const uint64_t y = cuda.malloc(uint64_t{resident + 2} * n * 4);
  cuda.memset(x, 0, n * 4);
  std::vector<Runtime::StreamId> streams;
  for (uint32_t i = 0; i < resident + 2; ++i)
    streams.push_back(
        cuda.create_stream(Runtime::StreamKind::blocking, i == resident + 1 ? -1 : 0));
  const size_t first = platform().gpu().launch_log().size();
  // Grid 0 is short: its place among the resident grids frees first. Grids `resident` and
  // `resident + 1` are queued behind the others, the second at the greater priority.
  saxpy.launch(32, x, y, streams[0], 1);
  for (uint32_t i = 1; i < resident + 2; ++i) saxpy.launch(n, x, y + i * n * 4, streams[i], 1);
  cuda.synchronize();
  const auto runs = logged_since(first);
  REQUIRE(runs.size() == resident + 2);
  const auto high = std::find_if(runs.begin(), runs.end(),
                                 [](const LaunchRecord& run) { return run.priority == -1; });
  REQUIRE(high != runs.end());
  // It took grid 0's place; the grid queued before it waited for a long grid's.
  CHECK(std::count_if(runs.begin(), runs.end(), [&](const LaunchRecord& run) {
          return run.start_cycle > high->start_cycle;
        }) == 1);
  CHECK(high->start_cycle > runs.front().start_cycle);
}

TEST_CASE("concurrent kernels: an asynchronous copy to the host moves at the link's rate") {
  Runtime& cuda = platform().runtime();
  constexpr uint64_t bytes = 1 << 20;  // 256 parts
  std::vector<uint8_t> host(bytes);
  for (uint64_t i = 0; i < bytes; ++i) host[i] = static_cast<uint8_t>(i * 7 + i / 4096);
  const std::vector<uint8_t> sent = host;
  const uint64_t device = cuda.malloc(bytes);
  const auto stream = cuda.create_stream();
  const auto timed = [&](auto copy) {
    const uint64_t start = sc_core::sc_time_stamp().value();
    copy();
    cuda.stream_synchronize(stream);
    return sc_core::sc_time_stamp().value() - start;
  };
  const uint64_t in = timed([&] { cuda.copy_to_device_async(device, host.data(), bytes, stream); });
  std::fill(host.begin(), host.end(), 0);
  const uint64_t out = timed([&] { cuda.copy_to_host_async(host.data(), device, bytes, stream); });
  // Both cross the link back to back and differ only in the copy engine's work on one part (the
  // first read or the last write): the link never waits for the engine to read the next part.
  const ohmvp::PcieLinkConfig& link = cuda.pcie().config();
  CHECK(out < in + link.transfer_ps(Runtime::async_copy_part_bytes) - link.transfer_ps(0));
  CHECK(in < out + link.transfer_ps(Runtime::async_copy_part_bytes) - link.transfer_ps(0));
  CHECK(host == sent);
  cuda.destroy_stream(stream);
  cuda.free(device);
}
