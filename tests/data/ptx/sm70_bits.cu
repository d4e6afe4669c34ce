// PTX that CUDA's headers emit for sm_70 and that real code reaches: bmsk (cuda::bitmask, CUB's
// radix sort), szext, the split timer registers, the driver's environment registers,
// __fdividef's range rule, an over-aligned dynamic shared array and __launch_bounds__.

extern "C" __global__ void bit_masks(const unsigned* a, const unsigned* b, unsigned* out) {
  const unsigned i = threadIdx.x;
  const unsigned value = a[i] * 0x9e3779b9u;
  unsigned clamp, wrap, sign_clamp, zero_wrap;
  asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(clamp) : "r"(a[i]), "r"(b[i]));
  asm("bmsk.wrap.b32 %0, %1, %2;" : "=r"(wrap) : "r"(a[i]), "r"(b[i]));
  asm("szext.clamp.s32 %0, %1, %2;" : "=r"(sign_clamp) : "r"(value), "r"(b[i]));
  asm("szext.wrap.u32 %0, %1, %2;" : "=r"(zero_wrap) : "r"(value), "r"(b[i]));
  out[4 * i + 0] = clamp;
  out[4 * i + 1] = wrap;
  out[4 * i + 2] = sign_clamp;
  out[4 * i + 3] = zero_wrap;
}

// out: globaltimer's halves and whole, clock_hi and clock64's high word, envreg0..2.
extern "C" __global__ void timers(unsigned long long* out) {
  unsigned lo, hi, clock_hi, env0, env1, env2;
  unsigned long long whole, clock;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(whole));
  asm volatile("mov.u32 %0, %%globaltimer_lo;" : "=r"(lo));
  asm volatile("mov.u32 %0, %%globaltimer_hi;" : "=r"(hi));
  asm volatile("mov.u32 %0, %%clock_hi;" : "=r"(clock_hi));
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(clock));
  asm volatile("mov.u32 %0, %%envreg0;" : "=r"(env0));
  asm volatile("mov.u32 %0, %%envreg1;" : "=r"(env1));
  asm volatile("mov.u32 %0, %%envreg2;" : "=r"(env2));
  out[0] = lo;
  out[1] = hi;
  out[2] = whole;
  out[3] = clock_hi;
  out[4] = clock;
  out[5] = env0;
  out[6] = env1;
  out[7] = env2;
}

extern "C" __global__ void fast_divide(const float* x, const float* y, float* out) {
  out[threadIdx.x] = __fdividef(x[threadIdx.x], y[threadIdx.x]);
}

// out[0]: where the 128-byte aligned dynamic array starts in shared memory; out[1]: a value
// written through it.
extern "C" __global__ void aligned_dynamic(unsigned* out) {
  __shared__ char bytes[20];
  extern __shared__ __align__(128) float dynamic[];
  bytes[threadIdx.x % 20] = 1;
  dynamic[threadIdx.x] = 3.0f;
  __syncthreads();
  if (threadIdx.x == 0) {
    out[0] = static_cast<unsigned>(__cvta_generic_to_shared(dynamic));
    out[1] = bytes[0] + static_cast<unsigned>(dynamic[1]);
  }
}

extern "C" __global__ void __launch_bounds__(64) bounded(int* out) {
  out[threadIdx.x] = threadIdx.x;
}
