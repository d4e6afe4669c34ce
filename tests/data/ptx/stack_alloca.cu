// alloca: storage on the thread's call stack that lasts until the function returns.

// The squares 0..n-1 in an alloca'd array, summed in a scrambled order.
__device__ __noinline__ int squares(int n) {
  int* a = (int*)alloca(n * sizeof(int));
  for (int i = 0; i < n; ++i) a[i] = i * i;
  int sum = 0;
  for (int i = 0; i < n; ++i) sum += a[(i * 7) % n];
  return sum;
}

// Each level allocates its own array, lets the next level write into it, and reads it back.
__device__ __noinline__ int nested(int* parent, int depth) {
  int* mine = (int*)alloca(8 * sizeof(int));
  for (int i = 0; i < 8; ++i) mine[i] = depth * 10 + i;
  if (parent) parent[depth % 8] += 1000;
  const int below = depth > 0 ? nested(mine, depth - 1) : 0;
  return below + mine[depth % 8];
}

// out[2 t] = squares(t % 20 + 1), called three times (the stack is given back each time);
// out[2 t + 1] = nested(null, t % 6).
extern "C" __global__ void stack_alloca(int* out) {
  const int t = threadIdx.x;
  int sum = 0;
  for (int r = 0; r < 3; ++r) sum += squares(t % 20 + 1);
  out[2 * t] = sum / 3;
  out[2 * t + 1] = nested(nullptr, t % 6);
}
