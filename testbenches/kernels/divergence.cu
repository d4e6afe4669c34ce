// Warp-divergence microkernels for the SIMD-efficiency-versus-warp-size experiment. Each reads
// in[i] and writes out[i]; they differ only in how the threads of a warp branch.

__device__ int collatz_steps(int value, int limit) {
  int steps = 0;
  while (value > 1 && steps < limit) {
    value = (value & 1) ? 3 * value + 1 : value >> 1;
    ++steps;
  }
  return steps;
}

// No divergence: the baseline.
extern "C" __global__ void div_uniform(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * 3 + 7;
}

// if/else by lane parity: half of every warp idles on each side.
extern "C" __global__ void div_parity(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = in[i];
  if (threadIdx.x & 1) {
    for (int r = 0; r < 4; ++r) v = v * 5 + r;
  } else {
    for (int r = 0; r < 4; ++r) v = (v ^ (v >> 3)) + 11;
  }
  out[i] = v;
}

// Data-dependent trip counts: each thread runs a Collatz walk from its input.
extern "C" __global__ void div_loop(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = collatz_steps(in[i], 256);
}

// Nested divergence: lane quarter, then the sign of the data, then parity.
extern "C" __global__ void div_nested(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = in[i];
  int lane = threadIdx.x % 32;
  if (lane < 16) {
    if (v < 0) {
      v = -v;
      if (v & 1) v = v * 3;
      else v = v / 2;
    } else {
      v = v + lane;
    }
  } else {
    if (lane < 24) v = v << 2;
    else v = v - 100;
  }
  out[i] = v;
}

// Early return: threads whose input is below the threshold leave before the work.
extern "C" __global__ void div_early_return(const int* in, int* out, int n, int threshold) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = in[i];
  out[i] = 0;
  if (v < threshold) return;
  int acc = 0;
  for (int r = 0; r < 16; ++r) acc += (v >> r) & 0xff;
  out[i] = acc;
}
