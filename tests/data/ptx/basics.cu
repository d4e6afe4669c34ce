// Small kernels exercising the PTX front end: structs by value, local arrays, shared memory,
// device functions, loops, divergent ifs and early return.
#include <cuda_fp16.h>

struct Params {
  float scale;
  int count;
  double bias;
};

__constant__ float c_weights[4] = {1.0f, -2.5f, 0.125f, 3.0f};
__device__ int g_counter = 7;
__device__ short g_table[3] = {-1, 2, 300};
__device__ double g_doubles[2] = {1.5, -0.25};

__device__ __noinline__ float scaled(float x, Params p) { return x * p.scale + (float)p.bias; }

__device__ __noinline__ int pick(int a, int b) {
  if (a > b) return a - b;
  return b - a;
}

extern "C" __global__ void struct_param(float* out, const float* in, Params p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p.count) return;  // early return
  out[i] = scaled(in[i], p) + c_weights[i & 3];
}

extern "C" __global__ void local_array(int* out, int n) {
  volatile int buffer[8];
  for (int k = 0; k < 8; ++k) buffer[k] = k * n;
  int sum = 0;
  for (int k = 0; k < n && k < 8; ++k) sum += buffer[(k * 3) & 7];
  out[threadIdx.x] = sum + pick(n, threadIdx.x) + g_counter + g_table[threadIdx.x % 3];
}

extern "C" __global__ void shared_reduce(const float* in, float* out) {
  __shared__ float tile[256];
  extern __shared__ float dynamic_tile[];
  unsigned t = threadIdx.x;
  tile[t] = in[blockIdx.x * blockDim.x + t];
  dynamic_tile[t] = tile[t] * 2.0f;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) tile[t] += tile[t + s] + dynamic_tile[t + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = tile[0];
}

extern "C" __global__ void branches(const int* in, int* out, int n) {
  int i = threadIdx.x;
  int v = in[i];
  int r;
  if (v > 0) {
    if (v > 100) r = v * 3;
    else r = v + 1;
  } else {
    r = -v;
  }
  while (true) {
    if (r > n) break;
    r = r * 2 + 1;
    if (r == 77) break;
  }
  out[i] = r;
}

extern "C" __global__ void doubles_and_halves(const double* a, double* b, __half* h, float* f) {
  int i = threadIdx.x;
  double x = a[i];
  b[i] = sqrt(x) / (x + 1.0) + g_doubles[i & 1];
  __half hv = __float2half(f[i]);
  h[i] = __hadd(hv, __float2half(1.0f));
  f[i] = __half2float(h[i]) + __int_as_float(i) + (float)(long long)x + rsqrtf(f[i]) + __sinf(f[i]);
}
