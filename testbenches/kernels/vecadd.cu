// Element-wise vector addition: c[i] = a[i] + b[i].
extern "C" __global__ void vecadd(const float* a, const float* b, float* c, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
