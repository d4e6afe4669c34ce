// Recursive device functions: nvcc keeps them as real calls, each activation with its own
// registers, parameters and .local frame.

__device__ __noinline__ int fib(int n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

// Each activation fills its own .local array, passes its address to the next one and reads it
// again after that one returned.
__device__ __noinline__ int chain(const int* outer, int depth, int seed) {
  int mine[4];
  for (int i = 0; i < 4; ++i) mine[i] = seed * 4 + i + (outer ? outer[(i + 1) & 3] : 0);
  const int below = depth > 0 ? chain(mine, depth - 1, seed + 1) : 0;
  return below + mine[seed & 3];
}

__device__ __noinline__ bool is_odd(unsigned n);
__device__ __noinline__ bool is_even(unsigned n) {
  return n == 0 ? true : is_odd(n - 1);
}
__device__ __noinline__ bool is_odd(unsigned n) {
  return n == 0 ? false : is_even(n - 1);
}

// The sum of the complete binary tree below `node` in a heap-ordered array of `count` values.
__device__ __noinline__ int tree_sum(const int* values, int count, int node) {
  if (node >= count) return 0;
  return values[node] + tree_sum(values, count, 2 * node + 1) +
         tree_sum(values, count, 2 * node + 2);
}

// out[4 t ..] = {fib(t % 16), chain(null, t % 5, t), is_even(t % 20) + 2 is_odd(t % 20 + 7),
// the sum of the subtree of `values` below node t % count}.
extern "C" __global__ void recursion(const int* values, int count, int* out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[4 * t + 0] = fib(t % 16);
  out[4 * t + 1] = chain(nullptr, t % 5, t);
  out[4 * t + 2] = is_even(t % 20) + 2 * is_odd(t % 20 + 7);
  out[4 * t + 3] = tree_sum(values, count, t % count);
}

// Recursion `depth` deep, which nvcc cannot turn into a loop: beyond the thread's call stack for
// a large depth.
__device__ __noinline__ int deep(int depth) {
  return depth == 0 ? 1 : (deep(depth - 1) * 3 + depth) % 1000;
}

extern "C" __global__ void recursion_depth(int depth, int* out) {
  out[threadIdx.x] = deep(depth + (int)threadIdx.x);
}
