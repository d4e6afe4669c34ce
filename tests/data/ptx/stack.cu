// A local array indexed at run time (a .local depot with %SP/%SPL), a recursive-free call chain
// through non-inlined device functions, and a printf that needs vprintf.
__device__ __noinline__ int sum_to(const int* values, int n) {
  int s = 0;
  for (int i = 0; i < n; ++i) s += values[i];
  return s;
}

extern "C" __global__ void depot(const int* in, int* out, int n) {
  int buffer[16];
  int t = threadIdx.x;
  for (int i = 0; i < 16; ++i) buffer[i] = in[(t + i) % n];
  int k = in[t] & 15;
  buffer[k] += t;
  out[t] = sum_to(buffer, in[t + 1] & 15) + buffer[(k + 3) & 15];
}
