// Tensor-core throughput: every warp multiplies the same A and B fragments `repeats` times into
// two independent accumulators (so a sub-core's tensor cores always have a multiply ready: two
// chains of 54-cycle wmma.mma per warp), then stores both, like the repeated-wmma.mma kernel
// Raihan et al. 2019 time for 109.6 TFLOPS on the Titan V. A and B are one 16x16 tile each (A
// row-major, B column-major); `out` holds two 16x16 f32 tiles per warp, row-major.
#include <mma.h>

using namespace nvcuda;

extern "C" __global__ void wmma_peak(const half* a, const half* b, float* out, int repeats) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> frag_a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> frag_b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc0, acc1;
  wmma::load_matrix_sync(frag_a, a, 16);
  wmma::load_matrix_sync(frag_b, b, 16);
  wmma::fill_fragment(acc0, 0.0f);
  wmma::fill_fragment(acc1, 0.0f);
  for (int i = 0; i < repeats; ++i) {
    wmma::mma_sync(acc0, frag_a, frag_b, acc0);
    wmma::mma_sync(acc1, frag_a, frag_b, acc1);
  }
  const int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  wmma::store_matrix_sync(out + warp * 512, acc0, 16, wmma::mem_row_major);
  wmma::store_matrix_sync(out + warp * 512 + 256, acc1, 16, wmma::mem_row_major);
}
