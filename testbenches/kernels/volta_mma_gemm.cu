// volta_mma_gemm: D = A * B + C on Volta's warp-level matrix multiply, mma.sync.m8n8k4 (sm_70),
// the instruction CUTLASS's Volta kernels use. A (rows x inner) and B (inner x cols) are f16,
// row-major; C and D f32, row-major. Each warp computes a 16x16 tile of D, tiles in row-major
// order: its four quad pairs (lanes 4q..4q+3 and 4q+16..4q+19) one 8x8 block each, four k at a
// time. Fragments in the PTX ISA's layout for .row.row: lane thread r = lane % 4 + 4 (lane >= 16)
// of its quad pair holds row r of the block's A (4 k) and, of B, row k = lane % 4 at columns
// 4 (lane >= 16) to + 3; the f32 accumulator's element i sits at row (lane & 1) + (i & 2) +
// 4 (lane >= 16), column (i & 4) + (lane & 2) + (i & 1).
#include <cuda_fp16.h>

struct GemmShape {
  int rows, inner, cols;
};

extern "C" __global__ void volta_mma_gemm(const half* a, const half* b, const float* c, float* d,
                                          GemmShape shape) {
  const unsigned lane = threadIdx.x % 32;
  const unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const int tiles_across = shape.cols / 16;
  const int tile_row = warp / tiles_across * 16, tile_col = warp % tiles_across * 16;
  if (tile_row >= shape.rows) return;
  const unsigned pair = lane % 16 / 4, upper = lane >= 16 ? 4 : 0;
  const int block_row = tile_row + pair % 2 * 8, block_col = tile_col + pair / 2 * 8;
  const half* a_row = a + (block_row + lane % 4 + upper) * shape.inner;
  const half* b_cols = b + (lane % 4) * shape.cols + block_col + upper;
  int at[8];
  for (int i = 0; i < 8; ++i)
    at[i] = (block_row + (lane & 1) + (i & 2) + upper) * shape.cols + block_col + (i & 4) +
            (lane & 2) + (i & 1);
  float acc[8];
  for (int i = 0; i < 8; ++i) acc[i] = c[at[i]];
  for (int k = 0; k < shape.inner; k += 4) {
    const uint2 a_frag = *reinterpret_cast<const uint2*>(a_row + k);
    const uint2 b_frag = *reinterpret_cast<const uint2*>(b_cols + k * shape.cols);
    asm volatile(
        "mma.sync.aligned.m8n8k4.row.row.f32.f16.f16.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, "
        "{%8, %9}, {%10, %11}, {%0, %1, %2, %3, %4, %5, %6, %7};"
        : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3]), "+f"(acc[4]), "+f"(acc[5]),
          "+f"(acc[6]), "+f"(acc[7])
        : "r"(a_frag.x), "r"(a_frag.y), "r"(b_frag.x), "r"(b_frag.y));
  }
  for (int i = 0; i < 8; ++i) d[at[i]] = acc[i];
}
