// Runs the vecadd kernel on the default GPU platform through the CUDA-like runtime API and checks
// the result on the host. SystemC's library supplies main() and calls sc_main.
#include <cstdio>
#include <exception>
#include <vector>

#include "modules/host/kernel_arguments.h"
#include "platforms/catalog.h"
#include "platforms/gpu_platform.h"

int sc_main(int, char*[]) {
  try {
    ohmvp::GpuPlatform platform("gpu_small");
    ohmvp::Runtime& cuda = platform.runtime();

    const unsigned n = 1000;
    std::vector<float> a(n), b(n), c(n, 0.0f);
    for (unsigned i = 0; i < n; ++i) {
      a[i] = 0.5f * static_cast<float>(i);
      b[i] = 2.0f - static_cast<float>(i);
    }

    const uint64_t device_a = cuda.malloc(n * sizeof(float));
    const uint64_t device_b = cuda.malloc(n * sizeof(float));
    const uint64_t device_c = cuda.malloc(n * sizeof(float));
    cuda.copy_to_device(device_a, a.data(), n * sizeof(float));
    cuda.copy_to_device(device_b, b.data(), n * sizeof(float));

    const auto module =
        cuda.load_module(ohmvp::ohmvp_home() / "testbenches" / "kernels" / "vecadd.ptx");
    ohmvp::KernelArguments args(cuda, module, "vecadd");
    args.add(device_a).add(device_b).add(device_c).add(n);
    ohmvp::Runtime::LaunchConfig launch;
    launch.grid = {(n + 255) / 256, 1, 1};
    launch.block = {256, 1, 1};
    cuda.launch(module, "vecadd", launch, args.bytes());
    cuda.synchronize();
    cuda.copy_to_host(c.data(), device_c, n * sizeof(float));

    for (unsigned i = 0; i < n; ++i) {
      if (c[i] != a[i] + b[i]) {
        std::fprintf(stderr, "mismatch at %u: %g != %g\n", i, c[i], a[i] + b[i]);
        return 1;
      }
    }
    std::printf("vecadd: %u elements correct after %.3f us of simulated time\n", n,
                sc_core::sc_time_stamp().to_seconds() * 1e6);
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "error: %s\n", error.what());
    return 1;
  }
}
