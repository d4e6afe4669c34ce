// Work-efficient (Blelloch) exclusive prefix sum of ints. scan_blocks scans 2 * blockDim.x
// elements per block in shared memory (up-sweep, then down-sweep) and writes each block's total
// to block_sums (when not null); add_block_offsets adds the scanned block totals back.

extern "C" __global__ void scan_blocks(const int* in, int* out, int* block_sums, unsigned n) {
  extern __shared__ int temp[];
  unsigned tid = threadIdx.x;
  unsigned span = 2 * blockDim.x;
  unsigned base = blockIdx.x * span;
  temp[2 * tid] = base + 2 * tid < n ? in[base + 2 * tid] : 0;
  temp[2 * tid + 1] = base + 2 * tid + 1 < n ? in[base + 2 * tid + 1] : 0;
  unsigned offset = 1;
  for (unsigned active = span >> 1; active > 0; active >>= 1) {
    __syncthreads();
    if (tid < active) {
      unsigned left = offset * (2 * tid + 1) - 1;
      unsigned right = offset * (2 * tid + 2) - 1;
      temp[right] += temp[left];
    }
    offset <<= 1;
  }
  if (tid == 0) {
    if (block_sums) block_sums[blockIdx.x] = temp[span - 1];
    temp[span - 1] = 0;
  }
  for (unsigned active = 1; active < span; active <<= 1) {
    offset >>= 1;
    __syncthreads();
    if (tid < active) {
      unsigned left = offset * (2 * tid + 1) - 1;
      unsigned right = offset * (2 * tid + 2) - 1;
      int carried = temp[left];
      temp[left] = temp[right];
      temp[right] += carried;
    }
  }
  __syncthreads();
  if (base + 2 * tid < n) out[base + 2 * tid] = temp[2 * tid];
  if (base + 2 * tid + 1 < n) out[base + 2 * tid + 1] = temp[2 * tid + 1];
}

extern "C" __global__ void add_block_offsets(int* data, const int* scanned_sums, unsigned n) {
  unsigned span = 2 * blockDim.x;
  unsigned i = blockIdx.x * span + threadIdx.x;
  int offset = scanned_sums[blockIdx.x];
  if (i < n) data[i] += offset;
  if (i + blockDim.x < n) data[i + blockDim.x] += offset;
}
