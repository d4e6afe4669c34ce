// Threads of one warp that wait for each other, valid on sm_70 and later (independent thread
// scheduling lets a thread run while others of its warp spin).
//
// lock_after_loop: every thread takes one global lock by spinning on atomicCAS, then, after the
// loop, appends its id to `order` under the lock and releases it. counter[0] ends at the number
// of threads and `order` holds each thread once.
extern "C" __global__ void lock_after_loop(int* lock, int* counter, int* order) {
  while (atomicCAS(lock, 0, 1) != 0) {
  }
  const int n = *(volatile int*)counter;
  order[n] = blockIdx.x * blockDim.x + threadIdx.x;
  *(volatile int*)counter = n + 1;
  __threadfence();
  atomicExch(lock, 0);
}

// ping_pong: lanes 0 and 1 of each warp take `rounds` turns through a per-warp flag; each turn
// writes its round and lane into out[warp * 2 * rounds + ...]: 2r + lane at position 2r + lane.
extern "C" __global__ void ping_pong(int* turn, int* out, int rounds) {
  const int lane = threadIdx.x & 31;
  const int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  if (lane > 1) return;
  volatile int* my_turn = turn + warp;
  for (int r = 0; r < rounds; ++r) {
    while (*my_turn != lane) {
    }
    out[warp * 2 * rounds + 2 * r + lane] = 2 * r + lane;
    *my_turn = 1 - lane;
  }
}

// lock_then_barrier: the lock of lock_after_loop, then __syncthreads(): every thread then reads
// the counter, which every thread of the CTA has incremented by then.
extern "C" __global__ void lock_then_barrier(int* lock, int* counter, int* seen) {
  while (atomicCAS(lock, 0, 1) != 0) {
  }
  *(volatile int*)counter = *(volatile int*)counter + 1;
  __threadfence();
  atomicExch(lock, 0);
  __syncthreads();
  seen[blockIdx.x * blockDim.x + threadIdx.x] = *(volatile int*)counter;
}
