// References for wmma_gemm.cu (the wmma_gemm, wmma_gemm_1024, wmma_gemm_s8 and wmma_gemm_s4
// workloads),
// wmma_peak.cu (wmma_peak, wmma_peak_titanv) and volta_mma_gemm.cu (volta_mma_gemm). The
// tensor cores' arithmetic (docs/gpu_tensor.md): along the inner dimension in steps of four, each
// step the accumulator plus four exact f16 products summed in binary64 and rounded once to f32.
#include "modules/host/half_float.h"
#include "testbenches/references/reference_kernels.h"

namespace ohmvp::reference {

namespace {

struct GemmShape {
  int32_t rows, inner, cols;
};

GemmShape gemm_shape(const KernelCall& call, unsigned arg, int32_t inner_step = 16) {
  GemmShape s{call.field<int32_t>(arg, 0), call.field<int32_t>(arg, 4),
              call.field<int32_t>(arg, 8)};
  if (s.rows % 32 != 0 || s.cols % 32 != 0 || s.inner % inner_step != 0 || s.rows <= 0 ||
      s.cols <= 0 || s.inner <= 0)
    throw SimulationError("reference wmma_gemm: rows and cols must be multiples of 32, inner of " +
                          std::to_string(inner_step));
  return s;
}

// One output element: `start` plus sum over k of a(k) * b(k), four at a time.
template <class A, class B>
float tensor_dot(float start, int32_t inner, A a, B b) {
  float acc = start;
  for (int32_t k = 0; k < inner; k += 4) {
    double sum = 0;
    for (int32_t s = 0; s < 4; ++s)
      sum += double(half_bits_to_float(a(k + s))) * double(half_bits_to_float(b(k + s)));
    acc = float(double(acc) + sum);
  }
  return acc;
}

// Calls `element(row, col)` for every element of the `tile` x `tile` tiles the launch's warps
// compute, one warp per tile, tiles in row-major order (wmma_gemm_global, wmma_gemm_s8,
// volta_mma_gemm; wmma_gemm_s4's are 8x8).
template <class F>
void for_each_warp_tile(const KernelCall& call, const GemmShape& s, F element, uint32_t tile = 16) {
  const uint64_t warps = uint64_t(call.grid()[0]) * call.block()[0] / 32;
  const uint32_t tiles_across = uint32_t(s.cols) / tile;
  for (uint64_t w = 0; w < warps; ++w) {
    const uint32_t row0 = uint32_t(w / tiles_across) * tile;
    const uint32_t col0 = uint32_t(w % tiles_across) * tile;
    if (int32_t(row0) >= s.rows) continue;
    for (uint32_t i = row0; i < row0 + tile; ++i)
      for (uint32_t j = col0; j < col0 + tile; ++j) element(i, j);
  }
}

// D = A x B + C on the launch's 16x16 warp tiles (for_each_warp_tile): A f16 row-major, C f32
// row-major; B's element (k, j) and D's (i, j) at the indices `b_at` and `d_at` give.
template <class BAt, class DAt>
void gemm_plus_c(const KernelCall& call, BAt b_at, DAt d_at) {
  call.expect_args(5);
  auto a = call.buffer<uint16_t>(0), b = call.buffer<uint16_t>(1);
  auto c = call.buffer<float>(2), d = call.buffer<float>(3);
  const GemmShape s = gemm_shape(call, 4);
  for_each_warp_tile(call, s, [&](uint32_t i, uint32_t j) {
    d.set(d_at(s, i, j), tensor_dot(
                             c[uint64_t(i) * s.cols + j], s.inner,
                             [&](int32_t k) { return a[uint64_t(i) * s.inner + k]; },
                             [&](int32_t k) { return b[b_at(s, k, j)]; }));
  });
}

// Element `index` of an array of s4 values two to a byte, the even index in the low nibble.
int32_t s4_element(const BufferView<uint8_t>& packed, uint64_t index) {
  const uint32_t nibble = uint32_t(packed[index / 2] >> (index % 2 * 4)) & 0xf;
  return int32_t(nibble) - (nibble & 0x8 ? 16 : 0);
}

}  // namespace

std::map<std::string, KernelFunction> tensor_kernels() {
  return {{"wmma_gemm_shared",
           [](const KernelCall& call) {
             call.expect_args(4);
             auto a = call.buffer<uint16_t>(0), b = call.buffer<uint16_t>(1);
             auto c = call.buffer<float>(2);
             const GemmShape s = gemm_shape(call, 3);
             if (call.block()[0] != 128)
               throw SimulationError("reference wmma_gemm_shared: needs 128-thread blocks");
             const uint32_t rows = call.grid()[1] * 32, cols = call.grid()[0] * 32;
             for (uint32_t i = 0; i < rows && int32_t(i) < s.rows; ++i)
               for (uint32_t j = 0; j < cols && int32_t(j) < s.cols; ++j)
                 c.set(i * s.cols + j,
                       tensor_dot(
                           0.0f, s.inner, [&](int32_t k) { return a[i * s.inner + k]; },
                           [&](int32_t k) { return b[uint64_t(k) * s.cols + j]; }));
           }},
          {"wmma_gemm_s8",
           [](const KernelCall& call) {
             call.expect_args(4);
             auto a = call.buffer<int8_t>(0), b = call.buffer<int8_t>(1);
             auto d = call.buffer<int32_t>(2);
             const GemmShape s = gemm_shape(call, 3);
             for_each_warp_tile(call, s, [&](uint32_t i, uint32_t j) {
               int64_t sum = 0;
               for (int32_t k = 0; k < s.inner; ++k)
                 sum += int64_t(a[uint64_t(i) * s.inner + k]) * b[uint64_t(j) * s.inner + k];
               d.set(uint64_t(i) * s.cols + j, int32_t(uint32_t(sum)));
             });
           }},
          {"wmma_gemm_s4",
           [](const KernelCall& call) {
             call.expect_args(4);
             auto a = call.buffer<uint8_t>(0), b = call.buffer<uint8_t>(1);
             auto d = call.buffer<int32_t>(2);
             const GemmShape s = gemm_shape(call, 3, 32);
             for_each_warp_tile(
                 call, s,
                 [&](uint32_t i, uint32_t j) {
                   int64_t sum = 0;
                   for (int32_t k = 0; k < s.inner; ++k)
                     sum += int64_t(s4_element(a, uint64_t(i) * s.inner + k)) *
                            s4_element(b, uint64_t(j) * s.inner + k);
                   d.set(uint64_t(i) * s.cols + j, int32_t(uint32_t(sum)));
                 },
                 8);
           }},
          {"wmma_peak",
           [](const KernelCall& call) {
             call.expect_args(4);
             auto a = call.buffer<uint16_t>(0), b = call.buffer<uint16_t>(1);
             auto out = call.buffer<float>(2);
             const int32_t repeats = call.scalar<int32_t>(3);
             std::vector<float> tile(256, 0.0f);
             for (int32_t r = 0; r < repeats; ++r)
               for (uint32_t i = 0; i < 16; ++i)
                 for (uint32_t j = 0; j < 16; ++j)
                   tile[i * 16 + j] = tensor_dot(
                       tile[i * 16 + j], 16, [&](int32_t k) { return a[i * 16 + k]; },
                       [&](int32_t k) { return b[j * 16 + k]; });
             const uint64_t warps = call.threads_per_block() * call.grid()[0] / 32;
             for (uint64_t w = 0; w < warps * 2; ++w)
               for (uint32_t e = 0; e < 256; ++e) out.set(w * 256 + e, tile[e]);
           }},
          {"volta_mma_gemm",  // B and D row-major
           [](const KernelCall& call) {
             gemm_plus_c(
                 call,
                 [](const GemmShape& s, int32_t k, uint32_t j) { return uint64_t(k) * s.cols + j; },
                 [](const GemmShape& s, uint32_t i, uint32_t j) {
                   return uint64_t(i) * s.cols + j;
                 });
           }},
          {"wmma_gemm_global", [](const KernelCall& call) {  // B and D column-major
             gemm_plus_c(
                 call,
                 [](const GemmShape& s, int32_t k, uint32_t j) {
                   return uint64_t(j) * s.inner + k;
                 },
                 [](const GemmShape& s, uint32_t i, uint32_t j) {
                   return uint64_t(j) * s.rows + i;
                 });
           }}};
}

}  // namespace ohmvp::reference
