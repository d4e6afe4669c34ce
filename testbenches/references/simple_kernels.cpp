// References for the per-thread kernels: vecadd.cu, saxpy.cu, transpose.cu, lu.cu, fdtd2d.cu.
#include <cmath>

#include "testbenches/references/reference_kernels.h"

namespace ohmvp::reference {

std::map<std::string, KernelFunction> vecadd_kernels() {
  return {{"vecadd", [](const KernelCall& call) {
             call.expect_args(4);
             auto a = call.buffer<float>(0), b = call.buffer<float>(1), c = call.buffer<float>(2);
             const uint32_t n = call.scalar<uint32_t>(3);
             call.for_each_thread([&](const Dim3& block, const Dim3& thread) {
               const uint32_t i = global_x(call, block, thread);
               if (i < n) c.set(i, a[i] + b[i]);
             });
           }}};
}

std::map<std::string, KernelFunction> saxpy_kernels() {
  return {{"saxpy", [](const KernelCall& call) {
             call.expect_args(4);
             const uint32_t n = call.scalar<uint32_t>(0);
             const float a = call.scalar<float>(1);
             auto x = call.buffer<float>(2), y = call.buffer<float>(3);
             const uint32_t stride = call.block()[0] * call.grid()[0];
             call.for_each_thread([&](const Dim3& block, const Dim3& thread) {
               for (uint32_t i = global_x(call, block, thread); i < n; i += stride)
                 y.set(i, std::fma(a, x[i], y[i]));
             });
           }}};
}

std::map<std::string, KernelFunction> transpose_kernels() {
  constexpr int32_t tile = 32, rows_per_pass = 8;
  return {{"transpose_tiled", [](const KernelCall& call) {
             call.expect_args(4);
             auto out = call.buffer<float>(0), in = call.buffer<float>(1);
             const int32_t width = call.scalar<int32_t>(2), height = call.scalar<int32_t>(3);
             if (call.block()[0] != tile || call.block()[1] != rows_per_pass ||
                 call.block()[2] != 1)
               throw SimulationError("reference kernel transpose_tiled: needs 32x8 blocks");
             call.for_each_block([&](const Dim3& block) {
               float shared[tile][tile + 1] = {};
               call.for_each_thread_in_block([&](const Dim3& t) {
                 const int32_t x = block[0] * tile + t[0], y = block[1] * tile + t[1];
                 for (int32_t j = 0; j < tile; j += rows_per_pass)
                   if (x < width && y + j < height)
                     shared[t[1] + j][t[0]] = in[(y + j) * width + x];
               });
               call.for_each_thread_in_block([&](const Dim3& t) {
                 const int32_t x = block[1] * tile + t[0], y = block[0] * tile + t[1];
                 for (int32_t j = 0; j < tile; j += rows_per_pass)
                   if (x < height && y + j < width)
                     out.set((y + j) * height + x, shared[t[0]][t[1] + j]);
               });
             });
           }}};
}

std::map<std::string, KernelFunction> lu_kernels() {
  return {{"lu_scale",
           [](const KernelCall& call) {
             call.expect_args(3);
             auto a = call.buffer<double>(0);
             const int32_t k = call.scalar<int32_t>(1), n = call.scalar<int32_t>(2);
             call.for_each_thread([&](const Dim3& block, const Dim3& thread) {
               const int32_t j = static_cast<int32_t>(global_x(call, block, thread));
               if (j > k && j < n) a.set(k * n + j, a[k * n + j] / a[k * n + k]);
             });
           }},
          {"lu_update", [](const KernelCall& call) {
             call.expect_args(3);
             auto a = call.buffer<double>(0);
             const int32_t k = call.scalar<int32_t>(1), n = call.scalar<int32_t>(2);
             call.for_each_thread([&](const Dim3& block, const Dim3& thread) {
               const int32_t j = static_cast<int32_t>(global_x(call, block, thread));
               const int32_t i = static_cast<int32_t>(global_y(call, block, thread));
               if (i > k && j > k && i < n && j < n)
                 a.set(i * n + j, std::fma(-a[i * n + k], a[k * n + j], a[i * n + j]));
             });
           }}};
}

std::map<std::string, KernelFunction> fdtd2d_kernels() {
  // PTX: sub.f32 then fma.rn.f32 with the constant -0.5f (0fBF000000) or -0.7f (0fBF333333);
  // step 3's sum is ((ex[j+1] - ex[j]) + ey[i+1]) - ey[i], C's left-to-right order.
  return {
      {"fdtd_step1",
       [](const KernelCall& call) {
         call.expect_args(7);
         auto fict = call.buffer<float>(0), ey = call.buffer<float>(2), hz = call.buffer<float>(3);
         call.buffer<float>(1);
         const int32_t t = call.scalar<int32_t>(4), nx = call.scalar<int32_t>(5),
                       ny = call.scalar<int32_t>(6);
         call.for_each_thread([&](const Dim3& block, const Dim3& thread) {
           const int32_t j = static_cast<int32_t>(global_x(call, block, thread));
           const int32_t i = static_cast<int32_t>(global_y(call, block, thread));
           if (i >= nx || j >= ny) return;
           if (i == 0)
             ey.set(j, fict[t]);
           else
             ey.set(i * ny + j,
                    std::fma(hz[i * ny + j] - hz[(i - 1) * ny + j], -0.5f, ey[i * ny + j]));
         });
       }},
      {"fdtd_step2",
       [](const KernelCall& call) {
         call.expect_args(5);
         auto ex = call.buffer<float>(0), hz = call.buffer<float>(2);
         const int32_t nx = call.scalar<int32_t>(3), ny = call.scalar<int32_t>(4);
         call.for_each_thread([&](const Dim3& block, const Dim3& thread) {
           const int32_t j = static_cast<int32_t>(global_x(call, block, thread));
           const int32_t i = static_cast<int32_t>(global_y(call, block, thread));
           if (i < nx && j > 0 && j < ny)
             ex.set(i * ny + j,
                    std::fma(hz[i * ny + j] - hz[i * ny + (j - 1)], -0.5f, ex[i * ny + j]));
         });
       }},
      {"fdtd_step3", [](const KernelCall& call) {
         call.expect_args(5);
         auto ex = call.buffer<float>(0), ey = call.buffer<float>(1), hz = call.buffer<float>(2);
         const int32_t nx = call.scalar<int32_t>(3), ny = call.scalar<int32_t>(4);
         call.for_each_thread([&](const Dim3& block, const Dim3& thread) {
           const int32_t j = static_cast<int32_t>(global_x(call, block, thread));
           const int32_t i = static_cast<int32_t>(global_y(call, block, thread));
           if (i < nx - 1 && j < ny - 1) {
             const float curl =
                 ex[i * ny + (j + 1)] - ex[i * ny + j] + ey[(i + 1) * ny + j] - ey[i * ny + j];
             hz.set(i * ny + j, std::fma(curl, -0.7f, hz[i * ny + j]));
           }
         });
       }}};
}

}  // namespace ohmvp::reference
