// Sum reductions: one partial sum per block. reduce_shared is the classic shared-memory tree with
// __syncthreads between levels; reduce_shuffle finishes the last warpSize values with warp
// shuffles. Both expect blockDim.x to be a power of two no larger than 1024 and, for
// reduce_shuffle, no smaller than warpSize; each block sums
// 2 * blockDim.x consecutive inputs (missing ones count as zero).

extern "C" __global__ void reduce_shared(const float* in, float* partial, unsigned n) {
  extern __shared__ float scratch[];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x * 2 + tid;
  float sum = i < n ? in[i] : 0.0f;
  if (i + blockDim.x < n) sum += in[i + blockDim.x];
  scratch[tid] = sum;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride) scratch[tid] += scratch[tid + stride];
    __syncthreads();
  }
  if (tid == 0) partial[blockIdx.x] = scratch[0];
}

// The sum over one warp's lanes, in lane 0: shuffles halving from warpSize / 2, so that it holds
// at every warp size (the simulator runs 4 to 64).
__device__ float warp_sum(float value) {
  for (int offset = warpSize / 2; offset > 0; offset >>= 1)
    value += __shfl_down_sync(0xffffffffu, value, offset);
  return value;
}

extern "C" __global__ void reduce_shuffle(const float* in, float* partial, unsigned n) {
  extern __shared__ float scratch[];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x * 2 + tid;
  float sum = i < n ? in[i] : 0.0f;
  if (i + blockDim.x < n) sum += in[i + blockDim.x];
  scratch[tid] = sum;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride >= warpSize; stride >>= 1) {
    if (tid < stride) scratch[tid] += scratch[tid + stride];
    __syncthreads();
  }
  if (tid < warpSize) {
    float value = warp_sum(scratch[tid]);
    if (tid == 0) partial[blockIdx.x] = value;
  }
}

// Block partial sums combined with a float atomicAdd: the total depends on the order in which
// the blocks' atomics reach memory, so it is checked with a tolerance.
extern "C" __global__ void reduce_atomic(const float* in, float* total, unsigned n) {
  extern __shared__ float scratch[];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x * 2 + tid;
  float sum = i < n ? in[i] : 0.0f;
  if (i + blockDim.x < n) sum += in[i + blockDim.x];
  scratch[tid] = sum;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride) scratch[tid] += scratch[tid + stride];
    __syncthreads();
  }
  if (tid == 0) atomicAdd(total, scratch[0]);
}
