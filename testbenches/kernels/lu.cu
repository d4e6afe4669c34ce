// PolyBench-style LU decomposition in double precision, in place, without pivoting. The host
// runs both kernels for k = 0 .. n-1: lu_scale divides row k right of the diagonal by the pivot,
// lu_update subtracts the outer product from the trailing submatrix.

extern "C" __global__ void lu_scale(double* a, int k, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j > k && j < n) a[k * n + j] = a[k * n + j] / a[k * n + k];
}

extern "C" __global__ void lu_update(double* a, int k, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  // An explicit fma: PTX's plain mul.f64 + sub.f64 may or may not be fused by the backend, and
  // the result must not depend on that.
  if (i > k && j > k && i < n && j < n)
    a[i * n + j] = fma(-a[i * n + k], a[k * n + j], a[i * n + j]);
}
