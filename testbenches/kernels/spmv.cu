// Sparse matrix-vector product y = A * x with A in CSR form, one thread per row (the "scalar"
// kernel). x is read through a 1-D texture object bound to linear memory, as Rodinia-era code
// does to route the irregular gathers through the texture cache.
extern "C" __global__ void spmv_csr_scalar(int num_rows, const int* row_offsets,
                                           const int* column_indices, const float* values,
                                           cudaTextureObject_t x, float* y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= num_rows) return;
  float sum = 0.0f;
  for (int j = row_offsets[row]; j < row_offsets[row + 1]; ++j)
    sum += values[j] * tex1Dfetch<float>(x, column_indices[j]);
  y[row] = sum;
}
