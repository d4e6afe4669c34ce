// Instructions nvcc emits for byte and halfword dot products, three-input logic, address-space
// tests, half-precision atomics, bf16 widening and byte/halfword absolute differences
// (tests/unit/test_simt_executor.cpp).
#include <cuda_bf16.h>
#include <cuda_fp16.h>

__device__ unsigned lop3(unsigned a, unsigned b, unsigned c, int which) {
  unsigned d;
  if (which == 0)
    asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(d) : "r"(a), "r"(b), "r"(c));  // a ^ b ^ c
  else
    asm("lop3.b32 %0, %1, %2, %3, 0xE8;" : "=r"(d) : "r"(a), "r"(b), "r"(c));  // majority
  return d;
}

// out holds 13 results per thread: dp4a s32 and u32, dp2a lo s32 and hi u32, two lop3, the
// ushort4 idiom nvcc turns into dp2a, and __isGlobal, __isShared and __isLocal of a pointer
// into `a` (odd threads) or into shared memory (even threads), then __vabsdiffu4, __vsads4 and
// __vsadu2 (vabsdiff4, vabsdiff2 with .add). sum gets every thread's atomicAdd(__half*); wide the bf16 widened.
extern "C" __global__ void packed_ops(const unsigned* a, const unsigned* b, unsigned* out,
                                      __half* sum, const unsigned short* bf16, float* wide) {
  __shared__ unsigned scratch[32];
  const unsigned t = threadIdx.x;
  const unsigned x = a[t], y = b[t];
  asm volatile("prefetchu.L1 [%0];" ::"l"(a + t));
  scratch[t] = x;
  unsigned* o = out + 13 * t;
  o[0] = (unsigned)__dp4a((int)x, (int)y, (int)t - 7);
  o[1] = __dp4a(x, y, t);
  o[2] = (unsigned)__dp2a_lo((int)x, (int)y, -(int)t);
  o[3] = __dp2a_hi(x, y, t);
  o[4] = lop3(x, y, t * 0x01010101u, 0);
  o[5] = lop3(x, y, t * 0x01010101u, 1);
  const ushort4 h = *(const ushort4*)(a + (t & ~1u));
  o[6] = h.x + h.y * 3u + h.z * 5u + h.w * 7u;
  const void* p = (t & 1) ? (const void*)(a + t) : (const void*)(scratch + t);
  o[7] = __isGlobal(p);
  o[8] = __isShared(p);
  o[9] = __isLocal(p);
  o[10] = __vabsdiffu4(x, y);
  o[11] = __vsads4(x, y);
  o[12] = __vsadu2(x, y);
  atomicAdd(sum, __float2half(0.25f * (float)(t % 4)));
  wide[t] = __bfloat162float(__ushort_as_bfloat16(bf16[t]));
}
