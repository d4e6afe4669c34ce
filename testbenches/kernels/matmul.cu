// Tiled matrix multiply C = A * B (row-major) with 16x16 shared-memory tiles. The shape travels
// as a struct passed by value. Each thread accumulates its dot product in k order with fma.
#define TILE 16

struct MatrixShape {
  int rows;   // rows of A and C
  int inner;  // columns of A, rows of B
  int cols;   // columns of B and C
};

extern "C" __global__ void matmul_tiled(const float* a, const float* b, float* c,
                                        MatrixShape shape) {
  __shared__ float tile_a[TILE][TILE];
  __shared__ float tile_b[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float sum = 0.0f;
  for (int base = 0; base < shape.inner; base += TILE) {
    int a_col = base + threadIdx.x;
    int b_row = base + threadIdx.y;
    tile_a[threadIdx.y][threadIdx.x] =
        row < shape.rows && a_col < shape.inner ? a[row * shape.inner + a_col] : 0.0f;
    tile_b[threadIdx.y][threadIdx.x] =
        b_row < shape.inner && col < shape.cols ? b[b_row * shape.cols + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k) sum += tile_a[threadIdx.y][k] * tile_b[k][threadIdx.x];
    __syncthreads();
  }
  if (row < shape.rows && col < shape.cols) c[row * shape.cols + col] = sum;
}
