// More constructs real programs use: vector loads, __ldg, __syncwarp, switch statements,
// structs returned by value, warp-level reductions, 64-bit division, unsigned char data,
// volatile shared memory and grid-stride loops.
#include <cuda_fp16.h>

struct Pair {
  float a;
  int b;
  double c;
};

__device__ __noinline__ Pair make_pair(float x, int y) {
  Pair p;
  p.a = x * 2.0f;
  p.b = y + 1;
  p.c = (double)x / y;
  return p;
}

__device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
  return v;
}

extern "C" __global__ void vectors(const float4* in, float4* out, const unsigned char* bytes,
                                   long long* wide, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    float4 v = __ldg(&in[i]);
    v.x += bytes[i];
    out[i] = v;
    wide[i] = wide[i] / (long long)(bytes[i] + 1) + wide[i] % 13;
  }
}

extern "C" __global__ void warp_reduce(const float* in, float* out) {
  __shared__ volatile float partial[32];
  float v = warp_sum(in[threadIdx.x]);
  __syncwarp();
  if ((threadIdx.x & 31) == 0) partial[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    float w = threadIdx.x < blockDim.x / 32 ? partial[threadIdx.x] : 0.0f;
    w = warp_sum(w);
    if (threadIdx.x == 0) out[blockIdx.x] = w;
  }
}

extern "C" __global__ void switches(const int* in, float* out, Pair* pairs) {
  int i = threadIdx.x;
  float r;
  switch (in[i] & 7) {
    case 0: r = 1.0f; break;
    case 1: r = sinf((float)i); break;
    case 2: r = (float)in[i] * 3.0f; break;
    case 3: r = -2.0f; break;
    case 4: r = sqrtf((float)i); break;
    case 5: r = 7.5f; break;
    default: r = 0.0f;
  }
  out[i] = r;
  pairs[i] = make_pair(r, in[i]);
}

extern "C" __global__ void halves(__half2* h, __half* s, int n) {
  int i = threadIdx.x;
  if (i < n) {
    h[i] = __hfma2(h[i], h[i], __float2half2_rn(0.5f));
    s[i] = __hmax(s[i], __float2half(0.0f)) * __int2half_rn(i);
  }
}
