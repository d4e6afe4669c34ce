// __constant__ data reached through ordinary (generic) pointers: nvcc takes the address with
// cvta.const, and code built with -Xcicc -O0 reaches every __constant__ variable this way.
__constant__ float weights[8] = {0.5f, 1.5f, 2.5f, 3.5f, 4.5f, 5.5f, 6.5f, 7.5f};
__constant__ int offsets[4] = {3, -1, 4, -1};

// A table chosen at run time: a generic pointer to one of two __constant__ arrays.
__device__ __noinline__ float weigh(const float* table, int i) {
  return table[i];
}

// The pointer chosen by t's parity goes through slots[t] (volatile) so that nvcc cannot tell
// its state space. out[4 t ..] = {element t % 4 of the table through the __noinline__ function,
// offsets[t % 4] or weights[t % 8] through the stored pointer, whether that pointer is a global
// address (__isGlobal), and 1 when isspacep.const holds for it}.
extern "C" __global__ void const_pointers(const void** slots, float* out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  ((const void* volatile*)slots)[t] = (t & 1) ? (const void*)offsets : (const void*)weights;
  const void* table = ((const void* volatile*)slots)[t];
  out[4 * t + 0] = weigh((const float*)table, t % 4);
  out[4 * t + 1] = (t & 1) ? (float)((const int*)table)[t % 4] : ((const float*)table)[t % 8];
  out[4 * t + 2] = __isGlobal(table) ? 1.0f : 0.0f;
  unsigned is_const;
  asm("{ .reg .pred p; isspacep.const p, %1; selp.u32 %0, 1, 0, p; }"
      : "=r"(is_const)
      : "l"(table));
  out[4 * t + 3] = (float)is_const;
}
