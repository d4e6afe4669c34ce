// The runtime API on the default GPU platform: copy timing over the PCIe model, data round
// trips, argument checks, and device faults reported to the host (sticky until reset). One platform
// for the whole executable (SystemC elaborates once); the test cases run in file order.
#include <catch2/catch.hpp>
#include <cstring>
#include <functional>
#include <optional>
#include <vector>

#include "modules/common/errors.h"
#include "modules/host/kernel_arguments.h"
#include "platforms/catalog.h"
#include "platforms/gpu_platform.h"

namespace {

ohmvp::GpuPlatform& platform() {
  // PCIe: 1 GB/s (1 byte per ns) and 500 ns per copy, so copy times are easy to state exactly.
  static ohmvp::GpuPlatform instance(
      "gpu_small", {"host.pcie.bandwidth_gb_per_s=1", "host.pcie.latency_ns=500"});
  return instance;
}

uint64_t now_ns() {
  return sc_core::sc_time_stamp().value() / 1000;
}

}  // namespace

TEST_CASE("runtime: a host-to-device copy takes latency plus bytes over bandwidth") {
  ohmvp::Runtime& cuda = platform().runtime();
  std::vector<uint8_t> bytes(4000);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i * 7);
  const uint64_t device = cuda.malloc(bytes.size());
  CHECK(device == 64 * 1024);  // the first address past the null guard
  const uint64_t start = now_ns();
  cuda.copy_to_device(device, bytes.data(), bytes.size());
  CHECK(now_ns() - start == 500 + 4000);

  std::vector<uint8_t> back(bytes.size());
  cuda.copy_to_host(back.data(), device, back.size());
  CHECK(now_ns() - start == 2 * (500 + 4000));
  CHECK(back == bytes);
  cuda.free(device);
}

TEST_CASE("runtime: memset and device copies move the bytes") {
  ohmvp::Runtime& cuda = platform().runtime();
  const uint64_t a = cuda.malloc(256), b = cuda.malloc(256);
  cuda.memset(a, 0x5a, 256);
  cuda.copy_on_device(b, a, 256);
  std::vector<uint8_t> back(256);
  cuda.copy_to_host(back.data(), b, 256);
  CHECK(back == std::vector<uint8_t>(256, 0x5a));
  CHECK_THROWS_AS(cuda.copy_to_host(back.data(), b + 200, 100), std::invalid_argument);
  cuda.free(a);
  cuda.free(b);
}

TEST_CASE("runtime: a process builds one platform, and names GPUs it has") {
  platform();
  CHECK_THROWS_WITH(ohmvp::GpuPlatform("gpu_small"),
                    Catch::Contains("a process builds one GpuPlatform"));
  CHECK_THROWS_WITH(platform().runtime(1),
                    Catch::Contains("GpuPlatform::runtime(1): platform gpu_small has 1 GPU"));
  CHECK_THROWS_AS(platform().gpu(2), std::out_of_range);
}

TEST_CASE("runtime: launches check their arguments against the kernel's parameters") {
  ohmvp::Runtime& cuda = platform().runtime();
  const auto module =
      cuda.load_module(ohmvp::ohmvp_home() / "testbenches" / "kernels" / "vecadd.ptx");
  ohmvp::KernelArguments args(cuda, module, "vecadd");
  CHECK_THROWS_WITH(args.add(uint32_t{1}), Catch::Contains("is 8 bytes; got a value of 4 bytes"));
  CHECK_THROWS_WITH(args.add_bytes(nullptr, 8), Catch::Contains("pointer is null"));
  args.add(uint64_t{0}).add(uint64_t{0}).add(uint64_t{0});
  CHECK_THROWS_WITH(args.bytes(), Catch::Contains("takes 4 arguments; got 3"));
  // n is a .u32: a float's bits are no count.
  CHECK_THROWS_WITH(args.add(16.0f), Catch::Contains("(vecadd_param_3) is .u32; got a value of "
                                                     "type f32 (expected an integer type)"));
  CHECK(args.add(int32_t{16}).bytes().size() == 28);
  CHECK_THROWS_AS(cuda.launch(module, "vecad", {}, {}), ohmvp::ConfigError);
  CHECK_THROWS_AS(cuda.launch(module, "vecadd", {}, std::vector<uint8_t>(3)), ohmvp::ConfigError);
}

TEST_CASE("runtime: refused calls name what is wrong and leave the runtime usable") {
  ohmvp::Runtime& cuda = platform().runtime();
  const auto vecadd =
      cuda.load_module(ohmvp::ohmvp_home() / "testbenches" / "kernels" / "vecadd.ptx");
  const auto basics =
      cuda.load_module(ohmvp::ohmvp_home() / "tests" / "data" / "ptx" / "basics.ptx");
  const auto stack = cuda.load_module(ohmvp::ohmvp_home() / "tests" / "data" / "ptx" / "stack.ptx");
  const unsigned n = 64;
  const uint64_t a = cuda.malloc(n * 4), c = cuda.malloc(n * 4);
  const std::vector<float> ones(n, 1.0f);
  const auto args = [&] {
    return ohmvp::KernelArguments(cuda, vecadd, "vecadd").add(a).add(a).add(c).add(n).bytes();
  };
  const auto refused = [&](ohmvp::gpu::Dim3 grid, ohmvp::gpu::Dim3 block, const char* why) {
    ohmvp::Runtime::LaunchConfig config;
    config.grid = grid;
    config.block = block;
    CHECK_THROWS_WITH(cuda.launch(vecadd, "vecadd", config, args()), Catch::Contains(why));
  };
  refused({0, 1, 1}, {32, 1, 1}, "grid and block must have at least one thread");
  refused({1, 1, 1}, {2048, 1, 1}, "block.x is 2048; CUDA allows at most 1024");
  refused({1, 1, 1}, {1, 1, 65}, "block.z is 65; CUDA allows at most 64");
  refused({1, 65536, 1}, {32, 1, 1}, "grid.y is 65536; CUDA allows at most 65535");
  refused({1, 1, 1}, {1024, 2, 1}, "exceeds");
  ohmvp::Runtime::LaunchConfig config;
  config.grid = {1, 1, 1};
  config.block = {n, 1, 1};
  config.registers_per_thread = 100000;
  CHECK_THROWS_WITH(cuda.launch(vecadd, "vecadd", config, args()),
                    Catch::Contains("100000 registers a thread; at most 255"));
  // .local storage for more threads than 2^64 bytes hold.
  ohmvp::Runtime::LaunchConfig huge;
  huge.grid = {0x7fffffff, 65535, 65535};
  huge.block = {1024, 1, 1};
  CHECK_THROWS_WITH(
      cuda.launch(stack, "depot", huge,
                  ohmvp::KernelArguments(cuda, stack, "depot").add(a).add(c).add(n).bytes()),
      Catch::Contains("64 bytes of .local storage") && Catch::Contains("more than 2^64 bytes"));
  // None of them was queued: the next launch runs and synchronize returns.
  config.registers_per_thread = 0;
  cuda.copy_to_device(a, ones.data(), n * 4);
  cuda.launch(vecadd, "vecadd", config, args());
  cuda.synchronize();
  std::vector<float> back(n);
  cuda.copy_to_host(back.data(), c, n * 4);
  CHECK(back == std::vector<float>(n, 2.0f));

  CHECK_THROWS_WITH(cuda.copy_to_device(a, nullptr, 64),
                    "copy to device of 64 bytes: the host pointer is null");
  CHECK_THROWS_WITH(cuda.copy_to_host(nullptr, a, 64),
                    "copy to host of 64 bytes: the host pointer is null");
  CHECK_THROWS_WITH(cuda.fill(a, nullptr, 64), "fill of 64 bytes: the host pointer is null");
  cuda.copy_to_device(a, nullptr, 0);  // nothing to move
  CHECK_THROWS_AS(cuda.malloc(UINT64_MAX), ohmvp::OutOfDeviceMemory);
  CHECK_THROWS_AS(cuda.malloc_managed(UINT64_MAX), ohmvp::OutOfDeviceMemory);
  CHECK(cuda.malloc(64) != cuda.malloc(64));
  CHECK_THROWS_WITH(cuda.memset(a, 0, uint64_t{1} << 40),
                    Catch::Contains("memset of 1099511627776 bytes at device address 0x"));
  CHECK_THROWS_WITH(cuda.free(a + 16),
                    Catch::Contains("is not an allocated block (it lies 16 bytes into the block "
                                    "of 256 bytes at 0x"));
  CHECK_THROWS_WITH(cuda.free(cuda.symbol_address(basics, "g_counter")),
                    Catch::Contains("the block holds module 2's .global and .const variables, "
                                    "which the runtime set aside itself"));
  CHECK_THROWS_WITH(cuda.module(stack + 1), "no module 4: the ids are 0 to 3");
  const uint64_t m = cuda.malloc_managed(4096);
  CHECK_THROWS_WITH(cuda.advise_managed(m, 4096, static_cast<ohmvp::ManagedAdvice>(77)),
                    "advice: 77 is not a ManagedAdvice");
  cuda.free(m);
  cuda.free(a);
  cuda.free(c);
  cuda.reset();
}

TEST_CASE("runtime: create_texture refuses sampling settings and shapes CUDA does not have") {
  ohmvp::Runtime& cuda = platform().runtime();
  ohmvp::gpu::TextureBinding binding;
  binding.base = cuda.malloc(6 * 8 * 8 * 4);  // room for the cubemap's six faces
  binding.width = 8;
  binding.height = 8;
  binding.dimensions = 2;
  binding.address = ohmvp::gpu::TextureAddress::wrap;
  CHECK_THROWS_WITH(cuda.create_texture(binding),
                    Catch::Contains("create_texture: address \"wrap\" needs normalized "
                                    "coordinates"));
  binding.normalized_coordinates = true;
  CHECK(cuda.create_texture(binding) != 0);
  binding.cubemap = true;
  binding.height = 4;
  CHECK_THROWS_WITH(cuda.create_texture(binding),
                    "create_texture: a cubemap texture's faces are square: width and height "
                    "equal, no depth");
  binding.height = 8;
  CHECK(cuda.create_texture(binding) != 0);
  binding.height = 4;
  binding.cubemap = false;
  binding.layers = 13;  // one more 8 x 4 layer than the allocation holds
  CHECK_THROWS_WITH(cuda.create_texture(binding),
                    Catch::Contains("a layered 2-D texture of 1664 bytes at device address 0x") &&
                        Catch::Contains("is outside every allocation"));
  binding.layers = 0;
  cuda.free(binding.base);
  // What is not a texture, or lies outside the allocation it starts in.
  binding.base = cuda.malloc(256);
  binding.height = 8;
  binding.channels = 3;
  CHECK_THROWS_WITH(cuda.create_texture(binding),
                    "create_texture: channels must be 1, 2 or 4, got 3");
  binding.channels = 1;
  binding.width = 0;
  CHECK_THROWS_WITH(cuda.create_texture(binding),
                    "create_texture: width, height and depth must be at least 1");
  binding.width = 9;
  CHECK_THROWS_WITH(cuda.create_texture(binding),
                    Catch::Contains("a 2-D texture of 288 bytes at device address 0x") &&
                        Catch::Contains("is outside every allocation"));
  binding.width = 8;
  binding.pitch = 16;
  CHECK_THROWS_WITH(cuda.create_texture(binding),
                    "create_texture: a pitch of 16 bytes is less than a row's 8 texels of 4 bytes");
  binding.pitch = 0;
  binding.element = ohmvp::gpu::DataType::f64;
  CHECK_THROWS_WITH(cuda.create_texture(binding),
                    Catch::Contains("texels are u8 s8 u16 s16 u32 s32 f16 f32, got .f64"));
  binding.element = ohmvp::gpu::DataType::f32;
  CHECK(cuda.create_texture(binding) != 0);
  cuda.free(binding.base);
  CHECK_THROWS_WITH(cuda.create_texture(binding), Catch::Contains("is outside every allocation"));
}

TEST_CASE("runtime: a kernel runs, and a faulting one raises SimulationError on synchronize") {
  ohmvp::Runtime& cuda = platform().runtime();
  const auto module =
      cuda.load_module(ohmvp::ohmvp_home() / "testbenches" / "kernels" / "vecadd.ptx");
  const unsigned n = 300;
  std::vector<float> a(n), b(n), c(n);
  for (unsigned i = 0; i < n; ++i) {
    a[i] = float(i);
    b[i] = 0.25f * float(i);
  }
  const uint64_t da = cuda.malloc(n * 4), db = cuda.malloc(n * 4), dc = cuda.malloc(n * 4);
  cuda.copy_to_device(da, a.data(), n * 4);
  cuda.copy_to_device(db, b.data(), n * 4);
  ohmvp::Runtime::LaunchConfig launch;
  launch.grid = {2, 1, 1};
  launch.block = {256, 1, 1};
  const uint32_t launched = cuda.kernels_run();
  cuda.launch(
      module, "vecadd", launch,
      ohmvp::KernelArguments(cuda, module, "vecadd").add(da).add(db).add(dc).add(n).bytes());
  cuda.synchronize();
  cuda.copy_to_host(c.data(), dc, n * 4);
  for (unsigned i = 0; i < n; ++i) CHECK(c[i] == a[i] + b[i]);
  CHECK(cuda.kernels_run() == launched + 1);

  // A null output pointer: every store faults.
  cuda.launch(module, "vecadd", launch,
              ohmvp::KernelArguments(cuda, module, "vecadd")
                  .add(da)
                  .add(db)
                  .add(uint64_t{0})
                  .add(n)
                  .bytes());
  // The error carries the address of the store that faulted: some out[i] of the null `out`.
  std::optional<uint64_t> address;
  try {
    cuda.synchronize();
  } catch (const ohmvp::DeviceFaultError& fault) {
    address = fault.global_address();
  }
  REQUIRE(address.has_value());
  CHECK(*address < n * 4);
  CHECK(*address % 4 == 0);
  cuda.reset();  // the fault is sticky; the next test cases start afresh
}

TEST_CASE("runtime: a device fault skips the launches behind it and stays until reset") {
  ohmvp::Runtime& cuda = platform().runtime();
  const auto vecadd_ptx = ohmvp::ohmvp_home() / "testbenches" / "kernels" / "vecadd.ptx";
  const auto module = cuda.load_module(vecadd_ptx);
  const unsigned n = 64;
  const uint64_t in = cuda.malloc(n * 4), out = cuda.malloc(n * 4);
  ohmvp::Runtime::LaunchConfig launch;
  launch.grid = {1, 1, 1};
  launch.block = {n, 1, 1};
  const auto arguments = [&](uint64_t destination) {
    return ohmvp::KernelArguments(cuda, module, "vecadd").add(in).add(in).add(destination).add(n);
  };
  const size_t logged = platform().gpu().launch_log().size();
  cuda.launch(module, "vecadd", launch, arguments(0).bytes());  // stores through null: faults
  cuda.launch(module, "vecadd", launch, arguments(out).bytes());
  cuda.launch(module, "vecadd", launch, arguments(out).bytes());
  std::string message;
  try {
    cuda.synchronize();
  } catch (const ohmvp::DeviceFaultError& fault) {
    message = fault.what();
  }
  REQUIRE_THAT(message, Catch::Contains("vecadd"));
  // Only the faulting launch ran; the two behind it were skipped.
  REQUIRE(platform().gpu().launch_log().size() == logged + 1);
  CHECK(platform().gpu().launch_log().back().faulted);

  // Every later call raises the same fault, as CUDA's sticky errors do.
  const auto raises_the_fault = [&](const std::function<void()>& call) {
    try {
      call();
      FAIL("the call went through after a device fault");
    } catch (const ohmvp::DeviceFaultError& again) {
      CHECK(again.what() == message);
    }
  };
  std::vector<float> host(n);
  raises_the_fault([&] { cuda.synchronize(); });
  raises_the_fault([&] { cuda.malloc(16); });
  raises_the_fault([&] { cuda.free(in); });
  raises_the_fault([&] { cuda.copy_to_device(in, host.data(), n * 4); });
  raises_the_fault([&] { cuda.copy_to_host(host.data(), out, n * 4); });
  raises_the_fault([&] { cuda.memset(out, 0, n * 4); });
  raises_the_fault([&] { cuda.launch(module, "vecadd", launch, arguments(out).bytes()); });
  raises_the_fault([&] { cuda.load_module(vecadd_ptx); });
  raises_the_fault([&] { cuda.symbol_address(module, "anything"); });
  raises_the_fault([&] { cuda.set_limits({}); });
  CHECK(platform().gpu().launch_log().size() == logged + 1);

  // reset(): a fresh context. The allocations and the module are gone; the GPU runs again.
  cuda.reset();
  CHECK_THROWS_WITH(cuda.module(module), Catch::Contains("unloaded by reset()"));
  CHECK_THROWS_AS(cuda.free(in), std::invalid_argument);
  const auto again = cuda.load_module(vecadd_ptx);
  const uint64_t a = cuda.malloc(n * 4), sum = cuda.malloc(n * 4);
  for (unsigned i = 0; i < n; ++i) host[i] = float(i);
  cuda.copy_to_device(a, host.data(), n * 4);
  cuda.launch(again, "vecadd", launch,
              ohmvp::KernelArguments(cuda, again, "vecadd").add(a).add(a).add(sum).add(n).bytes());
  cuda.synchronize();
  cuda.copy_to_host(host.data(), sum, n * 4);
  for (unsigned i = 0; i < n; ++i) CHECK(host[i] == 2.0f * float(i));
  CHECK(platform().gpu().launch_log().size() == logged + 2);
  cuda.free(a);
  cuda.free(sum);
}

TEST_CASE("runtime: .global variables start with their initialisers, zero elsewhere") {
  ohmvp::Runtime& cuda = platform().runtime();
  // Memory used and given back first, so that the module's variables land on old bytes.
  const uint64_t used = cuda.malloc(1 << 16);
  const std::vector<uint8_t> ones(1 << 16, 0xff);
  cuda.copy_to_device(used, ones.data(), ones.size());
  cuda.free(used);
  const auto module =
      cuda.load_module(ohmvp::ohmvp_home() / "tests" / "data" / "ptx" / "basics.ptx");
  const uint64_t table = cuda.symbol_address(module, "g_table");
  CHECK(table < used + (1 << 16));  // on the reused bytes
  std::vector<uint8_t> back(8);
  cuda.copy_to_host(back.data(), table, back.size());
  // g_table = {255, 255, 2, 0, 44, 1}, then two bytes of alignment padding before g_doubles.
  CHECK(back == std::vector<uint8_t>{255, 255, 2, 0, 44, 1, 0, 0});
  CHECK_THROWS_AS(cuda.symbol_address(module, "g_nothing"), std::invalid_argument);
}

TEST_CASE("runtime: a full launch queue makes the host wait for the oldest launch") {
  ohmvp::Runtime& cuda = platform().runtime();
  const auto module =
      cuda.load_module(ohmvp::ohmvp_home() / "testbenches" / "kernels" / "vecadd.ptx");
  const uint64_t buffer = cuda.malloc(4);
  ohmvp::Runtime::LaunchConfig launch;
  launch.grid = {1, 1, 1};
  launch.block = {32, 1, 1};
  const auto vecadd = [&](uint64_t out) {
    // n = 1: one thread adds; the null `out` of a faulting launch makes its store fault.
    cuda.launch(module, "vecadd", launch,
                ohmvp::KernelArguments(cuda, module, "vecadd")
                    .add(buffer)
                    .add(buffer)
                    .add(out)
                    .add(1u)
                    .bytes());
  };
  const uint32_t before = cuda.kernels_run();
  const ohmvp::Counter& kernel_time = *platform().stats().find_counter("host", "kernel_time");
  const uint64_t kernel_ps = kernel_time.value();
  const uint64_t start = now_ns();
  for (size_t i = 0; i < ohmvp::Runtime::max_queued_launches; ++i) vecadd(buffer);
  CHECK(now_ns() == start);  // queued: the host has not waited
  vecadd(buffer);
  CHECK(now_ns() > start);  // the queue was full: the host waited for the first launch
  cuda.synchronize();
  CHECK(cuda.kernels_run() == before + ohmvp::Runtime::max_queued_launches + 1);
  // kernel_time counts each launch from its start on the GPU: the 1025 launches, queued together,
  // add at most the time they took in all, not their waits in the queue as well.
  CHECK(kernel_time.value() - kernel_ps <= (now_ns() - start) * 1000);
  CHECK(kernel_time.value() - kernel_ps > (now_ns() - start) * 1000 * 9 / 10);

  // A fault in a launch reaped while the queue fills: the launches behind it are skipped, and
  // the launch that finds it reaped raises it.
  const size_t logged = platform().gpu().launch_log().size();
  vecadd(0);
  size_t launched = 0;
  CHECK_THROWS_AS(
      [&] {
        for (; launched < ohmvp::Runtime::max_queued_launches + 10; ++launched) vecadd(buffer);
      }(),
      ohmvp::DeviceFaultError);
  // The faulting launch and 1023 behind it fill the queue; the next one waits for room, which
  // the faulting launch makes when it ends.
  CHECK(launched == ohmvp::Runtime::max_queued_launches - 1);
  CHECK(platform().gpu().launch_log().size() == logged + 1);
  CHECK_THROWS_AS(cuda.synchronize(), ohmvp::DeviceFaultError);  // and again
  cuda.reset();
}

TEST_CASE("runtime: device memory full names what a launch could not set aside") {
  ohmvp::Runtime& cuda = platform().runtime();
  const auto vecadd =
      cuda.load_module(ohmvp::ohmvp_home() / "testbenches" / "kernels" / "vecadd.ptx");
  const uint64_t a = cuda.malloc(256);
  std::vector<uint64_t> filling;
  for (uint64_t bytes = uint64_t{1} << 34; bytes >= 256; bytes /= 2) {
    while (true) {
      try {
        filling.push_back(cuda.malloc(bytes));
      } catch (const ohmvp::OutOfDeviceMemory&) {
        break;
      }
    }
  }
  ohmvp::Runtime::LaunchConfig config;
  config.grid = {1, 1, 1};
  config.block = {32, 1, 1};
  config.cooperative = true;
  CHECK_THROWS_WITH(
      cuda.launch(
          vecadd, "vecadd", config,
          ohmvp::KernelArguments(cuda, vecadd, "vecadd").add(a).add(a).add(a).add(32u).bytes()),
      Catch::Contains("kernel 'vecadd' is launched cooperatively, and the grid workspace of 8 "
                      "bytes its grid syncs use does not fit: cannot allocate 8 bytes"));
  for (uint64_t block : filling) cuda.free(block);
  cuda.free(a);
}
