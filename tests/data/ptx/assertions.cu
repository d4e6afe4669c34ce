// assert() in device code, and printf in another kernel of the module.
#include <cassert>
#include <cstdio>

// checked_double: out[i] = 2 in[i], asserting in[i] >= -1000 first.
extern "C" __global__ void checked_double(const int* in, int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  assert(in[i] >= -1000);
  out[i] = in[i] * 2;
}

// An assertion inside a function the compiler keeps as a call.
__device__ __noinline__ int checked_index(int i, int n) {
  assert(i < n && "index within the table");
  return i;
}

// gather: out[i] = table[index[i]], each index checked against n.
extern "C" __global__ void gather(const int* table, const int* index, int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = table[checked_index(index[i], n)];
}

// debug_dump: printf of each thread's value.
extern "C" __global__ void debug_dump(const int* values) {
  printf("value %d\n", values[threadIdx.x]);
}
