// References for the kernels whose threads cooperate through shared memory: reduction.cu,
// matmul.cu, histogram.cu, scan.cu, backprop.cu. Each block is modelled phase by phase, one phase
// per stretch of code between barriers, so the float operations happen in the kernel's order.
#include <cmath>
#include <limits>

#include "testbenches/references/reference_kernels.h"

namespace ohmvp::reference {

namespace {

// The shared-memory tree of reduce_shared / reduce_atomic / reduce_shuffle: the loaded pairs,
// then halving strides while stride >= last_stride. Returns the scratch array.
std::vector<float> block_tree(const KernelCall& call, const BufferView<float>& in, uint32_t n,
                              uint32_t block, uint32_t last_stride) {
  const uint32_t threads = call.block()[0];
  std::vector<float> scratch(threads);
  for (uint32_t tid = 0; tid < threads; ++tid) {
    const uint32_t i = block * threads * 2 + tid;
    float sum = i < n ? in[i] : 0.0f;
    if (i + threads < n) sum += in[i + threads];
    scratch[tid] = sum;
  }
  for (uint32_t stride = threads / 2; stride >= last_stride && stride > 0; stride >>= 1)
    for (uint32_t tid = 0; tid < stride; ++tid) scratch[tid] += scratch[tid + stride];
  return scratch;
}

void check_reduction_block(const KernelCall& call, uint32_t minimum) {
  const uint32_t threads = call.block()[0];
  if (threads < minimum || (threads & (threads - 1)) != 0 || call.block()[1] != 1)
    throw SimulationError(
        "reference kernel: the reduction block must be a power of two of at "
        "least " +
        std::to_string(minimum) + " threads along x");
  if (call.shared_bytes() < threads * sizeof(float))
    throw SimulationError(
        "reference kernel: the reduction needs blockDim.x * 4 bytes of "
        "dynamic shared memory");
}

}  // namespace

std::map<std::string, KernelFunction> reduction_kernels() {
  return {{"reduce_shared",
           [](const KernelCall& call) {
             call.expect_args(3);
             check_reduction_block(call, 1);
             auto in = call.buffer<float>(0), partial = call.buffer<float>(1);
             const uint32_t n = call.scalar<uint32_t>(2);
             for (uint32_t b = 0; b < call.grid()[0]; ++b)
               partial.set(b, block_tree(call, in, n, b, 1)[0]);
           }},
          {"reduce_atomic",
           [](const KernelCall& call) {
             call.expect_args(3);
             check_reduction_block(call, 1);
             auto in = call.buffer<float>(0), total = call.buffer<float>(1);
             const uint32_t n = call.scalar<uint32_t>(2);
             // One order of the atomics: block by block (the comparison allows for the others).
             for (uint32_t b = 0; b < call.grid()[0]; ++b)
               total.set(0, total[0] + block_tree(call, in, n, b, 1)[0]);
           }},
          {"reduce_shuffle", [](const KernelCall& call) {
             call.expect_args(3);
             check_reduction_block(call, 32);
             auto in = call.buffer<float>(0), partial = call.buffer<float>(1);
             const uint32_t n = call.scalar<uint32_t>(2);
             for (uint32_t b = 0; b < call.grid()[0]; ++b) {
               std::vector<float> lanes = block_tree(call, in, n, b, 32);
               lanes.resize(32);
               // __shfl_down_sync: a lane whose source is past lane 31 gets its own value.
               for (uint32_t offset = 16; offset > 0; offset >>= 1) {
                 std::vector<float> next(32);
                 for (uint32_t lane = 0; lane < 32; ++lane)
                   next[lane] =
                       lanes[lane] + (lane + offset < 32 ? lanes[lane + offset] : lanes[lane]);
                 lanes = next;
               }
               partial.set(b, lanes[0]);
             }
           }}};
}

std::map<std::string, KernelFunction> matmul_kernels() {
  constexpr int32_t tile = 16;
  return {{"matmul_tiled", [](const KernelCall& call) {
             call.expect_args(4);
             auto a = call.buffer<float>(0), b = call.buffer<float>(1), c = call.buffer<float>(2);
             // struct MatrixShape { int rows; int inner; int cols; }
             const int32_t rows = call.field<int32_t>(3, 0), inner = call.field<int32_t>(3, 4),
                           cols = call.field<int32_t>(3, 8);
             if (call.block()[0] != tile || call.block()[1] != tile)
               throw SimulationError("reference kernel matmul_tiled: needs 16x16 blocks");
             call.for_each_thread([&](const Dim3& block, const Dim3& thread) {
               const int32_t row = block[1] * tile + thread[1], col = block[0] * tile + thread[0];
               float sum = 0.0f;
               for (int32_t base = 0; base < inner; base += tile)
                 for (int32_t k = 0; k < tile; ++k) {
                   // The tiles hold 0 outside the matrices, so those terms add fma(0, x, sum).
                   const int32_t a_col = base + k, b_row = base + k;
                   const float from_a = row < rows && a_col < inner ? a[row * inner + a_col] : 0.0f;
                   const float from_b = b_row < inner && col < cols ? b[b_row * cols + col] : 0.0f;
                   sum = std::fma(from_a, from_b, sum);
                 }
               if (row < rows && col < cols) c.set(row * cols + col, sum);
             });
           }}};
}

std::map<std::string, KernelFunction> histogram_kernels() {
  return {{"histogram_global",
           [](const KernelCall& call) {
             call.expect_args(4);
             auto data = call.buffer<uint32_t>(0), bins = call.buffer<uint32_t>(1);
             const uint32_t n = call.scalar<uint32_t>(2), num_bins = call.scalar<uint32_t>(3);
             const uint32_t stride = call.block()[0] * call.grid()[0];
             call.for_each_thread([&](const Dim3& block, const Dim3& thread) {
               for (uint32_t i = global_x(call, block, thread); i < n; i += stride) {
                 const uint32_t bin = gpu_remainder(data[i], num_bins);
                 bins.set(bin, bins[bin] + 1);
               }
             });
           }},
          {"histogram_shared",
           [](const KernelCall& call) {
             call.expect_args(3);
             auto data = call.buffer<uint8_t>(0);
             auto bins = call.buffer<uint32_t>(1);
             const uint32_t n = call.scalar<uint32_t>(2);
             const uint32_t stride = call.block()[0] * call.grid()[0];
             call.for_each_block([&](const Dim3& block) {
               uint32_t local[256] = {};
               call.for_each_thread_in_block([&](const Dim3& thread) {
                 for (uint32_t i = global_x(call, block, thread); i < n; i += stride)
                   ++local[data[i]];
               });
               for (uint32_t b = 0; b < 256; ++b) bins.set(b, bins[b] + local[b]);
             });
           }},
          {"minmax_atomic", [](const KernelCall& call) {
             call.expect_args(4);
             auto data = call.buffer<uint32_t>(0), minimum = call.buffer<uint32_t>(1),
                  maximum = call.buffer<uint32_t>(2);
             const uint32_t n = call.scalar<uint32_t>(3);
             call.for_each_thread([&](const Dim3& block, const Dim3& thread) {
               const uint32_t i = global_x(call, block, thread);
               if (i >= n) return;
               minimum.set(0, std::min(minimum[0], data[i]));
               maximum.set(0, std::max(maximum[0], data[i]));
             });
           }}};
}

std::map<std::string, KernelFunction> scan_kernels() {
  return {{"scan_blocks",
           [](const KernelCall& call) {
             call.expect_args(4);
             auto in = call.buffer<int32_t>(0), out = call.buffer<int32_t>(1);
             const bool has_sums = !call.is_null_pointer(2);
             const uint32_t n = call.scalar<uint32_t>(3);
             const uint32_t threads = call.block()[0], span = 2 * threads;
             if (call.shared_bytes() < span * sizeof(int32_t))
               throw SimulationError(
                   "reference kernel scan_blocks: needs 8 * blockDim.x bytes of "
                   "dynamic shared memory");
             for (uint32_t b = 0; b < call.grid()[0]; ++b) {
               const uint32_t base = b * span;
               std::vector<uint32_t> temp(span);  // unsigned: int wrap-around without UB
               for (uint32_t k = 0; k < span; ++k)
                 temp[k] = base + k < n ? static_cast<uint32_t>(in[base + k]) : 0;
               uint32_t offset = 1;
               for (uint32_t active = span >> 1; active > 0; active >>= 1, offset <<= 1)
                 for (uint32_t tid = 0; tid < active; ++tid)
                   temp[offset * (2 * tid + 2) - 1] += temp[offset * (2 * tid + 1) - 1];
               if (has_sums) call.buffer<int32_t>(2).set(b, static_cast<int32_t>(temp[span - 1]));
               temp[span - 1] = 0;
               for (uint32_t active = 1; active < span; active <<= 1) {
                 offset >>= 1;
                 for (uint32_t tid = 0; tid < active; ++tid) {
                   const uint32_t left = offset * (2 * tid + 1) - 1,
                                  right = offset * (2 * tid + 2) - 1;
                   const uint32_t carried = temp[left];
                   temp[left] = temp[right];
                   temp[right] += carried;
                 }
               }
               for (uint32_t k = 0; k < span; ++k)
                 if (base + k < n) out.set(base + k, static_cast<int32_t>(temp[k]));
             }
           }},
          {"add_block_offsets", [](const KernelCall& call) {
             call.expect_args(3);
             auto data = call.buffer<int32_t>(0), sums = call.buffer<int32_t>(1);
             const uint32_t n = call.scalar<uint32_t>(2);
             const uint32_t threads = call.block()[0];
             call.for_each_thread([&](const Dim3& block, const Dim3& thread) {
               const uint32_t i = block[0] * 2 * threads + thread[0];
               const uint32_t offset = static_cast<uint32_t>(sums[block[0]]);
               if (i < n)
                 data.set(i, static_cast<int32_t>(static_cast<uint32_t>(data[i]) + offset));
               if (i + threads < n)
                 data.set(i + threads,
                          static_cast<int32_t>(static_cast<uint32_t>(data[i + threads]) + offset));
             });
           }}};
}

std::map<std::string, KernelFunction> backprop_kernels() {
  constexpr int32_t size = 16;
  return {{"layer_forward", [](const KernelCall& call) {
             call.expect_args(4);
             auto input = call.buffer<float>(0), weights = call.buffer<float>(1),
                  partial_sums = call.buffer<float>(2);
             const int32_t hidden = call.scalar<int32_t>(3);
             if (call.block()[0] != size || call.block()[1] != size)
               throw SimulationError("reference kernel layer_forward: needs 16x16 blocks");
             call.for_each_block([&](const Dim3& block) {
               float input_node[size];
               float products[size][size];
               const int32_t by = static_cast<int32_t>(block[1]);
               for (int32_t ty = 0; ty < size; ++ty) input_node[ty] = input[size * by + ty + 1];
               for (int32_t ty = 0; ty < size; ++ty)
                 for (int32_t tx = 0; tx < size; ++tx)
                   products[ty][tx] =
                       weights[(hidden + 1) * (size * by + ty + 1) + tx + 1] * input_node[ty];
               for (int32_t stride = 1; stride < size; stride *= 2)
                 for (int32_t ty = 0; ty < size; ty += 2 * stride)
                   for (int32_t tx = 0; tx < size; ++tx)
                     products[ty][tx] += products[ty + stride][tx];
               for (int32_t ty = 0; ty < size; ++ty)
                 for (int32_t tx = 0; tx < size; ++tx)
                   weights.set((hidden + 1) * (size * by + ty + 1) + tx + 1, products[ty][tx]);
               for (int32_t tx = 0; tx < size; ++tx)
                 partial_sums.set(by * hidden + tx, products[0][tx]);
             });
           }}};
}

}  // namespace ohmvp::reference
