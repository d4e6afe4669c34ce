// Histograms with atomics: histogram_global adds straight into global bins; histogram_shared
// builds a per-block histogram of bytes in shared memory and merges it into global bins.
// minmax_atomic keeps the minimum with atomicMin and the maximum with an atomicCAS loop.

extern "C" __global__ void histogram_global(const unsigned* data, unsigned* bins, unsigned n,
                                            unsigned num_bins) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&bins[data[i] % num_bins], 1u);
}

extern "C" __global__ void histogram_shared(const unsigned char* data, unsigned* bins,
                                            unsigned n) {
  __shared__ unsigned local_bins[256];
  for (unsigned b = threadIdx.x; b < 256; b += blockDim.x) local_bins[b] = 0;
  __syncthreads();
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&local_bins[data[i]], 1u);
  __syncthreads();
  for (unsigned b = threadIdx.x; b < 256; b += blockDim.x)
    if (local_bins[b] != 0) atomicAdd(&bins[b], local_bins[b]);
}

__device__ void atomic_max_by_cas(unsigned* address, unsigned value) {
  unsigned seen = *address;
  while (seen < value) {
    unsigned previous = atomicCAS(address, seen, value);
    if (previous == seen) break;
    seen = previous;
  }
}

// *minimum must start at 0xffffffff and *maximum at 0.
extern "C" __global__ void minmax_atomic(const unsigned* data, unsigned* minimum,
                                         unsigned* maximum, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  atomicMin(minimum, data[i]);
  atomic_max_by_cas(maximum, data[i]);
}
