// Single-precision a*x + y; nvcc contracts the multiply-add into one fma.rn.f32.
extern "C" __global__ void saxpy(unsigned n, float a, const float* x, float* y) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}
