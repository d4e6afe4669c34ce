#include <cstdint>
#include <vector>

#include <catch2/catch.hpp>

#include "modules/common/errors.h"
#include "modules/gpu/simt/functional_executor.h"
#include "tests/unit/executor_test_util.h"
#include "tests/unit/ptx_test_util.h"

using namespace ohmvp::gpu;
using namespace ohmvp::gpu::test;

namespace {

// Host versions of tests/data/ptx/recursion.cu's functions.
int fib(int n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}
int chain(const int* outer, int depth, int seed) {
  int mine[4];
  for (int i = 0; i < 4; ++i) mine[i] = seed * 4 + i + (outer ? outer[(i + 1) & 3] : 0);
  const int below = depth > 0 ? chain(mine, depth - 1, seed + 1) : 0;
  return below + mine[seed & 3];
}
int deep(int depth) {
  return depth == 0 ? 1 : (deep(depth - 1) * 3 + depth) % 1000;
}
int tree_sum(const std::vector<int32_t>& values, int node) {
  if (node >= int(values.size())) return 0;
  return values[node] + tree_sum(values, 2 * node + 1) + tree_sum(values, 2 * node + 2);
}

}  // namespace

TEST_CASE("recursion: the kernel layout gives a recursive kernel a call stack", "[simt]") {
  const Module module = load_fixture("recursion.ptx");
  const KernelLayout layout(module, "recursion");
  CHECK(layout.recursive());
  const uint64_t frames = layout.call_stack_base();
  CHECK(frames == 16);  // chain's int[4]
  CHECK(layout.local_bytes_per_thread() == frames + 1024);  // CUDA's default stack size
  CHECK(KernelLayout(module, "recursion", 4096).local_bytes_per_thread() == frames + 4096);
  const uint32_t chain_index =
      uint32_t(&function_named(module, "_Z5chainPKiii") - module.functions.data());
  CHECK(layout.activation_bytes(chain_index) == 16 + 16);

  const Module plain = load_fixture("const_pointers.ptx");
  CHECK_FALSE(KernelLayout(plain, "const_pointers").recursive());
}

TEST_CASE("recursion: recursive functions, a .local frame per activation, mutual recursion",
          "[simt]") {
  const Module module = load_fixture("recursion.ptx");
  DeviceMemory memory;
  FunctionalExecutor executor(module, memory, 32);
  std::vector<int32_t> values(23);
  for (size_t i = 0; i < values.size(); ++i) values[i] = int32_t(i * 7 % 11) - 3;
  constexpr uint32_t threads = 64;
  const uint64_t values_at = upload(memory, values), out_at = memory.allocate(4 * threads * 4);
  LaunchParams launch = one_cta("recursion", threads, {values_at});
  put(launch.arguments, 8, int32_t(values.size()));
  put(launch.arguments, 16, out_at);
  executor.launch(launch);
  const std::vector<int32_t> out = download<int32_t>(memory, out_at, 4 * threads);
  for (uint32_t t = 0; t < threads; ++t) {
    INFO("thread " << t);
    CHECK(out[4 * t] == fib(int(t % 16)));
    CHECK(out[4 * t + 1] == chain(nullptr, int(t % 5), int(t)));
    CHECK(out[4 * t + 2] == int32_t(t % 2 == 0) + 2 * int32_t((t % 20 + 7) % 2));
    CHECK(out[4 * t + 3] == tree_sum(values, int(t % values.size())));
  }
}

TEST_CASE("recursion: the call stack holds 64 activations of a frameless function", "[simt]") {
  // deep(d) is d + 1 activations: the first in the function's own slots, each further one
  // call_overhead_bytes on the 1 KiB call stack.
  const Module module = load_fixture("recursion.ptx");
  DeviceMemory memory;
  FunctionalExecutor executor(module, memory, 32);
  const uint64_t out_at = memory.allocate(4 * 4);
  LaunchParams launch = one_cta("recursion_depth", 4, {});
  put(launch.arguments, 0, int32_t{61});  // thread t: deep(61 + t)
  put(launch.arguments, 8, out_at);
  executor.launch(launch);
  CHECK(download<int32_t>(memory, out_at, 4) ==
        std::vector<int32_t>{deep(61), deep(62), deep(63), deep(64)});
  put(launch.arguments, 0, int32_t{62});
  CHECK_THROWS_WITH(executor.launch(launch),
                    Catch::Contains("device fault in kernel 'recursion_depth'") &&
                        Catch::Contains("in 'deep(int)'): call stack overflow: recursion deeper "
                                        "than the thread's call stack holds") &&
                        Catch::Contains("thread (3,0,0)"));
}

TEST_CASE("recursion: a larger stack limit lets the recursion go deeper", "[simt]") {
  const Module module = load_fixture("recursion.ptx");
  DeviceMemory memory;
  FunctionalExecutor executor(module, memory, 32);
  DeviceLimits limits;
  limits.stack_bytes = 16 * 200;  // cudaDeviceSetLimit(cudaLimitStackSize, 3200)
  executor.set_limits(limits);
  const uint64_t out_at = memory.allocate(4 * 4);
  LaunchParams launch = one_cta("recursion_depth", 4, {});
  put(launch.arguments, 0, int32_t{197});  // deep(200): 200 activations on the stack
  put(launch.arguments, 8, out_at);
  executor.launch(launch);
  CHECK(download<int32_t>(memory, out_at, 4)[3] == deep(200));
  put(launch.arguments, 0, int32_t{198});
  CHECK_THROWS_WITH(executor.launch(launch), Catch::Contains("call stack overflow"));
}

TEST_CASE("recursion: device limits out of range, and a heap size after the heap is in place",
          "[simt]") {
  DeviceLimits limits;
  limits.stack_bytes = 8;
  CHECK_THROWS_WITH(check_limits(limits, std::nullopt),
                    "device limit stack_bytes = 8 is outside 16 to 524288");
  limits = DeviceLimits{};
  limits.printf_fifo_bytes = 0;
  CHECK_THROWS_WITH(check_limits(limits, std::nullopt),
                    Catch::Contains("device limit printf_fifo_bytes = 0 is outside 1 to"));
  limits = DeviceLimits{};
  CHECK_NOTHROW(check_limits(limits, limits.malloc_heap_bytes));  // unchanged: fine
  limits.malloc_heap_bytes = 4096;
  CHECK_THROWS_WITH(check_limits(limits, uint64_t{8} << 20),
                    Catch::Contains("device limit malloc_heap_bytes = 4096: the device heap "
                                    "(8388608 bytes) is in place since the first launch"));
}

TEST_CASE("recursion: alloca takes call stack storage until its function returns", "[simt]") {
  // tests/data/ptx/stack_alloca.cu.
  const Module module = load_fixture("stack_alloca.ptx");
  CHECK(KernelLayout(module, "stack_alloca").uses_alloca());
  DeviceMemory memory;
  FunctionalExecutor executor(module, memory, 32);
  constexpr uint32_t threads = 40;
  const uint64_t out_at = memory.allocate(2 * threads * 4);
  executor.launch(one_cta("stack_alloca", threads, {out_at}));
  const std::vector<int32_t> out = download<int32_t>(memory, out_at, 2 * threads);
  for (uint32_t t = 0; t < threads; ++t) {
    INFO("thread " << t);
    const int32_t n = int32_t(t % 20 + 1);
    int32_t squares = 0;
    for (int32_t i = 0; i < n; ++i) squares += (i * 7 % n) * (i * 7 % n);
    CHECK(out[2 * t] == squares);
    int32_t nested = 0;  // each level's own element, which the level below does not touch
    for (int32_t depth = 0; depth <= int32_t(t % 6); ++depth) nested += depth * 10 + depth % 8;
    CHECK(out[2 * t + 1] == nested);
  }
}

TEST_CASE("recursion: alloca beyond the call stack, stacksave and stackrestore", "[simt]") {
  const Module module = parse_snippet(
      ".visible .entry k(.param .u64 out, .param .u32 bytes)\n{\n"
      ".reg .b64 %rd<8>; .reg .b32 %r<2>;\n"
      "ld.param.u64 %rd1, [out];\nld.param.u32 %r1, [bytes];\ncvt.u64.u32 %rd2, %r1;\n"
      "stacksave.u64 %rd3;\n"
      "alloca.u64 %rd4, %rd2, 64;\n"
      "alloca.u64 %rd5, 8;\n"
      "stackrestore.u64 %rd3;\n"
      "alloca.u64 %rd6, 8;\n"
      "cvta.to.global.u64 %rd1, %rd1;\n"
      "st.global.v2.u64 [%rd1], {%rd3, %rd4};\nst.global.v2.u64 [%rd1+16], {%rd5, %rd6};\n"
      "ret;\n}\n");
  const KernelLayout layout(module, "k");
  REQUIRE(layout.has_call_stack());
  DeviceMemory memory;
  FunctionalExecutor executor(module, memory, 32);
  const uint64_t out_at = memory.allocate(32);
  LaunchParams launch = one_cta("k", 1, {out_at});
  put(launch.arguments, 8, uint32_t{100});
  executor.launch(launch);
  const std::vector<uint64_t> out = download<uint64_t>(memory, out_at, 4);
  const uint64_t base = layout.call_stack_base();
  CHECK(out[0] == base);                         // stacksave: the empty stack's top
  CHECK(out[1] == (base + 63) / 64 * 64);        // aligned to 64
  CHECK(out[2] == (base + 63) / 64 * 64 + 104);  // 100 bytes, then 8-aligned
  CHECK(out[3] == base);                         // after stackrestore
  put(launch.arguments, 8, uint32_t{1024});      // with the 8 after it: past the 1 KiB
  CHECK_THROWS_WITH(executor.launch(launch),
                    Catch::Contains("call stack overflow: alloca asks for more than the thread's "
                                    "call stack has left"));
}

TEST_CASE("recursion: a recursive frame after an odd alloca is 16-byte aligned", "[simt]") {
  // f(n) stores its n with st.local.v4 into its own frame and returns n + f(n - 1).
  const Module module = parse_snippet(
      ".func (.param .b32 r) f(.param .b32 n)\n{\n"
      ".local .align 16 .b8 d[16];\n.reg .b32 %r<4>; .reg .b64 %rd<2>; .reg .pred %p<2>;\n"
      "ld.param.u32 %r1, [n];\nmov.u64 %rd1, d;\n"
      "st.local.v4.u32 [%rd1], {%r1, %r1, %r1, %r1};\n"
      "setp.eq.u32 %p1, %r1, 0;\n@%p1 bra DONE;\nsub.u32 %r2, %r1, 1;\n"
      "{ .param .b32 a; st.param.b32 [a], %r2; .param .b32 b; call.uni (b), f, (a); "
      "ld.param.b32 %r3, [b]; }\n"
      "ld.local.u32 %r2, [%rd1+4];\nadd.u32 %r1, %r2, %r3;\n"
      "DONE:\nst.param.b32 [r], %r1;\nret;\n}\n"
      ".visible .entry k(.param .u64 out)\n{\n.reg .b64 %rd<4>; .reg .b32 %r<2>;\n"
      "ld.param.u64 %rd1, [out];\nalloca.u64 %rd2, 3;\n"
      "{ .param .b32 a; st.param.b32 [a], 3; .param .b32 b; call.uni (b), f, (a); "
      "ld.param.b32 %r1, [b]; }\n"
      "cvta.to.global.u64 %rd1, %rd1;\nst.global.u32 [%rd1], %r1;\nret;\n}\n");
  DeviceMemory memory;
  FunctionalExecutor executor(module, memory, 32);
  const uint64_t out_at = memory.allocate(4);
  executor.launch(one_cta("k", 1, {out_at}));
  CHECK(download<int32_t>(memory, out_at, 1)[0] == 3 + 2 + 1 + 0);
}
