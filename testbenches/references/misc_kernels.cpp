// References for blur_tex2d.cu (2-D texture, half output) and divergence.cu (integer
// microkernels; int arithmetic is done in uint32_t so that wrap-around is defined).
#include <cmath>

#include "modules/host/half_float.h"
#include "testbenches/references/reference_kernels.h"

namespace ohmvp::reference {

std::map<std::string, KernelFunction> blur_tex2d_kernels() {
  return {{"blur_tex2d", [](const KernelCall& call) {
             call.expect_args(4);
             const TextureView image = call.texture(0);
             auto out = call.buffer<uint16_t>(1);
             const int32_t width = call.scalar<int32_t>(2), height = call.scalar<int32_t>(3);
             auto texel = [&](int32_t x, int32_t y) {
               return image.sample_2d(static_cast<float>(x) + 0.5f, static_cast<float>(y) + 0.5f);
             };
             call.for_each_thread([&](const Dim3& block, const Dim3& thread) {
               const int32_t x = static_cast<int32_t>(global_x(call, block, thread));
               const int32_t y = static_cast<int32_t>(global_y(call, block, thread));
               if (x >= width || y >= height) return;
               float sum = texel(x - 1, y) + texel(x + 1, y);
               sum += texel(x, y - 1);
               sum += texel(x, y + 1);
               sum = std::fma(4.0f, texel(x, y), sum);
               out.set(y * width + x, float_to_half_bits(sum * 0.125f));
             });
           }}};
}

namespace {

int32_t wrap(uint32_t value) {
  return static_cast<int32_t>(value);
}
uint32_t bits(int32_t value) {
  return static_cast<uint32_t>(value);
}

int32_t collatz_steps(int32_t value, int32_t limit) {
  int32_t steps = 0;
  while (value > 1 && steps < limit) {
    value = (value & 1) ? wrap(3u * bits(value) + 1u) : value >> 1;
    ++steps;
  }
  return steps;
}

// A divergence kernel's per-thread body: (in, thread index within the block) -> out, or nothing.
template <class Body>
KernelFunction per_thread(size_t extra_args, Body body) {
  return [extra_args, body](const KernelCall& call) {
    call.expect_args(3 + extra_args);
    auto in = call.buffer<int32_t>(0), out = call.buffer<int32_t>(1);
    const int32_t n = call.scalar<int32_t>(2);
    call.for_each_thread([&](const Dim3& block, const Dim3& thread) {
      const int32_t i = static_cast<int32_t>(global_x(call, block, thread));
      if (i < n) body(call, in[i], thread[0], [&](int32_t value) { out.set(i, value); });
    });
  };
}

}  // namespace

std::map<std::string, KernelFunction> divergence_kernels() {
  return {
      {"div_uniform", per_thread(0, [](const KernelCall&, int32_t v, uint32_t,
                                       auto store) { store(wrap(bits(v) * 3u + 7u)); })},
      {"div_parity", per_thread(0,
                                [](const KernelCall&, int32_t v, uint32_t tid, auto store) {
                                  if (tid & 1) {
                                    for (int32_t r = 0; r < 4; ++r)
                                      v = wrap(bits(v) * 5u + bits(r));
                                  } else {
                                    for (int32_t r = 0; r < 4; ++r)
                                      v = wrap(bits(v ^ (v >> 3)) + 11u);
                                  }
                                  store(v);
                                })},
      {"div_loop", per_thread(0, [](const KernelCall&, int32_t v, uint32_t,
                                    auto store) { store(collatz_steps(v, 256)); })},
      {"div_nested", per_thread(0,
                                [](const KernelCall&, int32_t v, uint32_t tid, auto store) {
                                  const int32_t lane = static_cast<int32_t>(tid % 32);
                                  if (lane < 16) {
                                    if (v < 0) {
                                      v = wrap(0u - bits(v));
                                      if (v & 1)
                                        v = wrap(bits(v) * 3u);
                                      else
                                        v = v / 2;
                                    } else {
                                      v = wrap(bits(v) + bits(lane));
                                    }
                                  } else {
                                    v = lane < 24 ? wrap(bits(v) << 2) : wrap(bits(v) - 100u);
                                  }
                                  store(v);
                                })},
      {"div_early_return", per_thread(1,
                                      [](const KernelCall& call, int32_t v, uint32_t, auto store) {
                                        store(0);
                                        if (v < call.scalar<int32_t>(3)) return;
                                        int32_t acc = 0;
                                        for (int32_t r = 0; r < 16; ++r) acc += (v >> r) & 0xff;
                                        store(acc);
                                      })},
  };
}

}  // namespace ohmvp::reference
