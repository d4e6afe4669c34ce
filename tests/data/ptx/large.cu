// Larger kernels in the style of PolyBench/GPU, Rodinia and GraphBIG, to check that the front end
// copes with what nvcc emits for real programs (precise math library code, unrolled loops).
#include <cuda_fp16.h>
#define TILE 16

extern "C" __global__ void gemm_tiled(const float* A, const float* B, float* C, int n, float alpha,
                                      float beta) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int k0 = 0; k0 < n; k0 += TILE) {
    As[threadIdx.y][threadIdx.x] = (row < n && k0 + threadIdx.x < n) ? A[row * n + k0 + threadIdx.x] : 0.0f;
    Bs[threadIdx.y][threadIdx.x] = (col < n && k0 + threadIdx.y < n) ? B[(k0 + threadIdx.y) * n + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  if (row < n && col < n) C[row * n + col] = alpha * acc + beta * C[row * n + col];
}

extern "C" __global__ void hotspot(const float* power, const float* temp_in, float* temp_out,
                                   int rows, int cols, float cap, float rx, float ry, float rz) {
  int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r >= rows || c >= cols) return;
  int idx = r * cols + c;
  float t = temp_in[idx];
  float n = r > 0 ? temp_in[idx - cols] : t, s = r < rows - 1 ? temp_in[idx + cols] : t;
  float w = c > 0 ? temp_in[idx - 1] : t, e = c < cols - 1 ? temp_in[idx + 1] : t;
  temp_out[idx] = t + cap * (power[idx] + (n + s - 2.0f * t) * ry + (e + w - 2.0f * t) * rx +
                             (80.0f - t) * rz);
}

extern "C" __global__ void bfs_step(const int* row_offsets, const int* columns, int* levels,
                                    int* frontier_changed, int level, int vertices) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= vertices || levels[v] != level) return;
  for (int e = row_offsets[v]; e < row_offsets[v + 1]; ++e) {
    int u = columns[e];
    if (atomicCAS(&levels[u], -1, level + 1) == -1) *frontier_changed = 1;
  }
}

extern "C" __global__ void precise_math(const float* x, float* y, const double* dx, double* dy,
                                        int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  y[i] = sinf(v) + cosf(v) * expf(-v) + logf(fabsf(v) + 1.0f) + powf(fabsf(v), 1.5f) +
         tanhf(v) + erff(v) + fmodf(v, 3.0f) + __fdividef(v, 3.0f) + v / (v + 7.0f);
  double d = dx[i];
  dy[i] = exp(d) + log1p(fabs(d)) + sin(d) * tan(d) + rint(d) + floor(d) + d / 3.0;
}

extern "C" __global__ void kmeans_assign(const float* points, const float* centroids,
                                         int* membership, int n, int k, int dims) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= n) return;
  float best = 3.402823466e38f;
  int best_index = 0;
  for (int c = 0; c < k; ++c) {
    float dist = 0.0f;
    for (int d = 0; d < dims; ++d) {
      float diff = points[p * dims + d] - centroids[c * dims + d];
      dist = fmaf(diff, diff, dist);
    }
    if (dist < best) { best = dist; best_index = c; }
  }
  membership[p] = best_index;
}

extern "C" __global__ void backprop_layer(const float* input, const float* weights, float* output,
                                          int in_count, int out_count) {
  extern __shared__ float partial[];
  int o = blockIdx.x, t = threadIdx.x;
  float s = 0.0f;
  for (int i = t; i < in_count; i += blockDim.x) s += input[i] * weights[o * in_count + i];
  partial[t] = s;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (t < stride) partial[t] += partial[t + stride];
    __syncthreads();
  }
  if (t == 0) output[o] = 1.0f / (1.0f + __expf(-partial[0]));
}

extern "C" __global__ void mixed_types(const __half2* h, const char* c, const unsigned short* us,
                                       long long* out, unsigned long long mask) {
  int i = threadIdx.x;
  __half2 v = __hmul2(h[i], h[i]);
  float2 f = __half22float2(v);
  long long r = (long long)f.x * c[i] + us[i] - (long long)(f.y * 1e6f);
  r ^= (long long)(mask >> (i & 63));
  r = r / (i + 1) + r % 7 + __mul64hi(r, mask) + __umulhi(i, 12345u) + __byte_perm(i, r, 0x3210);
  out[i] = r + __float2int_rn(f.x) + __float2uint_rz(f.y) + __double2ll_rd((double)f.x);
}
