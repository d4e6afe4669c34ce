// Intrinsics and library calls: f16x2 atomics, cooperative groups, cache-hinted loads, SIMD
// video instructions, funnel shifts, nanosleep, clocks, 64-bit bit counting.
#include <cuda_fp16.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void k(__half2* h, float* f, double* d, unsigned long long* u, int* i, cudaTextureObject_t t) {
  atomicAdd(h, __float2half2_rn(1.0f));
  float v = __shfl_sync(0xffffffff, f[threadIdx.x], 3);
  auto block = cg::this_thread_block();
  auto tile = cg::tiled_partition<16>(block);
  v += tile.shfl_down(v, 1);
  block.sync();
  f[threadIdx.x] = v + tex2D<float4>(t, 0.5f, v).y + __ldcg(&f[1]) + __ldcs(&f[2]);
  __stcs(&f[3], v);
  atomicMax(u, (unsigned long long)v);
  atomicAnd(u + 1, 3ull);
  atomicSub(i, 1);
  d[0] = __dadd_rn(d[1], d[2]) + fma(d[1], d[2], d[3]) + __drcp_rn(d[4]) + __dsqrt_rz(d[5]);
  i[1] = __vadd4(i[2], i[3]) + __sad(i[4], i[5], 0) + __hadd(i[6], i[7]) + __mul24(i[1], i[2]) + __funnelshift_r(i[0], i[1], 3);
  i[2] = min(i[2], 5) + __double2int_rz(d[0]) + (int)__float2half_rz(f[0]) + __shfl_xor_sync(0xffff, i[1], 1, 16);
  __nanosleep(100);
  i[3] = clock() + (int)clock64() + __popcll(u[3]) + __clzll(u[4]) + __ffsll(u[5]) + __brevll(u[6]);
}
