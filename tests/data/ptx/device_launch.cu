// Kernels launched from the device (dynamic parallelism, built with -rdc=true): <<<>>> in device
// code, into the NULL stream and the tail-launch stream, nested.
#include <cuda_runtime.h>

// data[base + i] += base for i < n.
extern "C" __global__ void add_base(int* data, int base, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[base + i] += base;
}

// Thread 0 of block b launches add_base on the block's n elements.
extern "C" __global__ void per_block(int* data, int n) {
  if (threadIdx.x == 0) add_base<<<(n + 31) / 32, 32>>>(data, blockIdx.x * n, n);
}

// data[i] = 10 data[i] + digit: the order of two launches shows in the digits.
extern "C" __global__ void append_digit(int* data, int digit) {
  data[threadIdx.x] = 10 * data[threadIdx.x] + digit;
}

// Two launches into the block's NULL stream run in order: every element ends with digits 1, 2.
extern "C" __global__ void two_in_order(int* data, int n) {
  if (threadIdx.x == 0) {
    append_digit<<<1, n>>>(data, 1);
    append_digit<<<1, n>>>(data, 2);
  }
}

// A tail launch runs after its launcher's grid: it sees what every thread wrote after launching.
extern "C" __global__ void copy_flags(const int* flags, int* seen) {
  seen[threadIdx.x] = flags[threadIdx.x];
}

extern "C" __global__ void tail(int* flags, int* seen) {
  if (threadIdx.x == 0) copy_flags<<<1, blockDim.x, 0, cudaStreamTailLaunch>>>(flags, seen);
  flags[threadIdx.x] = threadIdx.x + 1;
}

// A binary tree of launches `levels` deep: leaf `index` writes index + 1; each grid counts itself.
extern "C" __global__ void tree(int* leaves, int* grids, int levels, int index) {
  atomicAdd(grids, 1);
  if (levels == 0) {
    leaves[index] = index + 1;
    return;
  }
  tree<<<1, 1>>>(leaves, grids, levels - 1, 2 * index);
  tree<<<1, 1>>>(leaves, grids, levels - 1, 2 * index + 1);
}

// Thread 0 of each block launches add_base, then reads cudaPeekAtLastError, cudaGetLastError and
// cudaGetLastError again into errors[3 b], [3 b + 1], [3 b + 2].
extern "C" __global__ void launch_errors(int* data, int* errors) {
  if (threadIdx.x != 0) return;
  add_base<<<1, 32>>>(data, blockIdx.x, 1);
  int* e = errors + 3 * blockIdx.x;
  e[0] = cudaPeekAtLastError();
  e[1] = cudaGetLastError();
  e[2] = cudaGetLastError();
}

// A launch with no threads: the device runtime refuses it.
extern "C" __global__ void empty_launch(int* data) {
  if (threadIdx.x == 0) add_base<<<0, 32>>>(data, 0, 1);
}
