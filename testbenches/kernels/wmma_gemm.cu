// Tensor-core GEMMs with the WMMA API (16x16x16 fragments, f16 inputs, f32 accumulation).
// wmma_gemm_shared: C = A * B, A (rows x inner) and B (inner x cols) row-major; a block of four
// warps computes a 32x32 tile of C, staging 32x16 of A and 16x32 of B in shared memory per step
// of 16 along the inner dimension. wmma_gemm_global: D = A * B + C with B and D column-major, C
// row-major, one warp per 16x16 tile, fragments loaded straight from global memory. Dimensions are
// multiples of 32 (rows, cols) and 16 (inner; 32 for wmma_gemm_s4).
#include <mma.h>

using namespace nvcuda;

struct GemmShape {
  int rows;   // rows of A, C and D
  int inner;  // columns of A, rows of B
  int cols;   // columns of B, C and D
};

#define BLOCK_TILE 32
#define STEP 16

extern "C" __global__ void wmma_gemm_shared(const half* a, const half* b, float* c,
                                            GemmShape shape) {
  __shared__ __align__(32) half tile_a[BLOCK_TILE * STEP];
  __shared__ __align__(32) half tile_b[STEP * BLOCK_TILE];
  const int warp = threadIdx.x / 32;
  const int warp_row = warp / 2, warp_col = warp % 2;
  const int block_row = blockIdx.y * BLOCK_TILE, block_col = blockIdx.x * BLOCK_TILE;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  // Each of the 128 threads moves four halves (8 bytes) of each tile.
  const int a_row = threadIdx.x / 4, a_col = threadIdx.x % 4 * 4;
  const int b_row = threadIdx.x / 8, b_col = threadIdx.x % 8 * 4;
  for (int k = 0; k < shape.inner; k += STEP) {
    *reinterpret_cast<uint2*>(&tile_a[a_row * STEP + a_col]) =
        *reinterpret_cast<const uint2*>(&a[(block_row + a_row) * shape.inner + k + a_col]);
    *reinterpret_cast<uint2*>(&tile_b[b_row * BLOCK_TILE + b_col]) =
        *reinterpret_cast<const uint2*>(&b[(k + b_row) * shape.cols + block_col + b_col]);
    __syncthreads();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> frag_a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> frag_b;
    wmma::load_matrix_sync(frag_a, tile_a + warp_row * 16 * STEP, STEP);
    wmma::load_matrix_sync(frag_b, tile_b + warp_col * 16, BLOCK_TILE);
    wmma::mma_sync(acc, frag_a, frag_b, acc);
    __syncthreads();
  }
  float* out = c + (block_row + warp_row * 16) * shape.cols + block_col + warp_col * 16;
  wmma::store_matrix_sync(out, acc, shape.cols, wmma::mem_row_major);
}

extern "C" __global__ void wmma_gemm_global(const half* a, const half* b_col, const float* c,
                                            float* d, GemmShape shape) {
  const int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const int tiles_across = shape.cols / 16;
  const int tile_row = warp / tiles_across * 16, tile_col = warp % tiles_across * 16;
  if (tile_row >= shape.rows) return;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::load_matrix_sync(acc, c + tile_row * shape.cols + tile_col, shape.cols,
                         wmma::mem_row_major);
  for (int k = 0; k < shape.inner; k += 16) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> frag_a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> frag_b;
    wmma::load_matrix_sync(frag_a, a + tile_row * shape.inner + k, shape.inner);
    wmma::load_matrix_sync(frag_b, b_col + tile_col * shape.inner + k, shape.inner);
    wmma::mma_sync(acc, frag_a, frag_b, acc);
  }
  wmma::store_matrix_sync(d + tile_col * shape.rows + tile_row, acc, shape.rows,
                          wmma::mem_col_major);
}

// Turing's integer mode: D (s32, row-major) = A (s8, row-major) * B (s8, column-major), one warp
// per 16x16 tile from global memory.
extern "C" __global__ void wmma_gemm_s8(const signed char* a, const signed char* b_col, int* d,
                                        GemmShape shape) {
  const int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const int tiles_across = shape.cols / 16;
  const int tile_row = warp / tiles_across * 16, tile_col = warp % tiles_across * 16;
  if (tile_row >= shape.rows) return;
  wmma::fragment<wmma::accumulator, 16, 16, 16, int> acc;
  wmma::fill_fragment(acc, 0);
  for (int k = 0; k < shape.inner; k += 16) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> frag_a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> frag_b;
    wmma::load_matrix_sync(frag_a, a + tile_row * shape.inner + k, shape.inner);
    wmma::load_matrix_sync(frag_b, b_col + tile_col * shape.inner + k, shape.inner);
    wmma::mma_sync(acc, frag_a, frag_b, acc);
  }
  wmma::store_matrix_sync(d + tile_row * shape.cols + tile_col, acc, shape.cols,
                          wmma::mem_row_major);
}

// Turing's 4-bit mode (wmma::experimental::precision::s4): D (s32, row-major) = A (s4, row-major)
// * B (s4, column-major), two elements to a byte (the even k in the low nibble), one warp per 8x8
// tile from global memory; the leading dimensions count 4-bit elements.
extern "C" __global__ void wmma_gemm_s4(const unsigned char* a, const unsigned char* b_col, int* d,
                                        GemmShape shape) {
  namespace precision = wmma::experimental::precision;
  const int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const int tiles_across = shape.cols / 8;
  const int tile_row = warp / tiles_across * 8, tile_col = warp % tiles_across * 8;
  if (tile_row >= shape.rows) return;
  wmma::fragment<wmma::accumulator, 8, 8, 32, int> acc;
  wmma::fill_fragment(acc, 0);
  for (int k = 0; k < shape.inner; k += 32) {
    wmma::fragment<wmma::matrix_a, 8, 8, 32, precision::s4, wmma::row_major> frag_a;
    wmma::fragment<wmma::matrix_b, 8, 8, 32, precision::s4, wmma::col_major> frag_b;
    wmma::load_matrix_sync(frag_a, a + (tile_row * shape.inner + k) / 2, shape.inner);
    wmma::load_matrix_sync(frag_b, b_col + (tile_col * shape.inner + k) / 2, shape.inner);
    wmma::mma_sync(acc, frag_a, frag_b, acc);
  }
  wmma::store_matrix_sync(d + tile_row * shape.cols + tile_col, acc, shape.cols,
                          wmma::mem_row_major);
}
