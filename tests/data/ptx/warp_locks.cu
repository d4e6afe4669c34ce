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

// lock_then_warp_sync: the lock, then warp-synchronous instructions and a barrier reduction over
// the whole warp: out[3 t..] = {__ballot_sync of every lane, the warp's sum of lane ids by
// __shfl_xor_sync, __syncthreads_count of odd threads}.
extern "C" __global__ void lock_then_warp_sync(int* lock, int* counter, int* out) {
  while (atomicCAS(lock, 0, 1) != 0) {
  }
  *(volatile int*)counter = *(volatile int*)counter + 1;
  __threadfence();
  atomicExch(lock, 0);
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned ballot = __ballot_sync(0xffffffffu, 1);
  int sum = threadIdx.x & 31;
  for (int step = 16; step > 0; step >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, step);
  out[3 * t] = int(ballot);
  out[3 * t + 1] = sum;
  out[3 * t + 2] = __syncthreads_count(threadIdx.x & 1);
}

// long_loop_then_shuffle: no lock; lane i loops trips[i] times (one lane far longer than the
// others, some not at all), then the warp adds its lanes' totals with __shfl_down_sync.
extern "C" __global__ void long_loop_then_shuffle(const int* trips, int* out) {
  const int lane = threadIdx.x & 31;
  int total = 0;
  for (int i = 0; i < trips[lane]; ++i) total += i ^ lane;
  for (int step = 16; step > 0; step >>= 1) total += __shfl_down_sync(0xffffffffu, total, step);
  if (lane == 0) out[0] = total;
}

// barrier_in_function: __syncthreads() inside a function nvcc keeps as a call, after the lock.
__device__ __noinline__ int synchronised_read(volatile int* counter) {
  __syncthreads();
  return *counter;
}

extern "C" __global__ void barrier_in_function(int* lock, int* counter, int* seen) {
  while (atomicCAS(lock, 0, 1) != 0) {
  }
  *(volatile int*)counter = *(volatile int*)counter + 1;
  __threadfence();
  atomicExch(lock, 0);
  seen[threadIdx.x] = synchronised_read(counter);
}

// sleep_between_timer_reads: the %globaltimer nanoseconds across __nanosleep(ns), per thread.
extern "C" __global__ void sleep_between_timer_reads(unsigned long long* out, unsigned ns) {
  unsigned long long before, after;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(before));
  __nanosleep(ns);
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(after));
  out[threadIdx.x] = after - before;
}

// lock_with_backoff: the lock of lock_after_loop with exponential backoff between tries (a loop
// inside the spin loop), as real locks wait; counter[0] ends at the number of threads.
extern "C" __global__ void lock_with_backoff(int* lock, int* counter) {
  int backoff = 1;
  while (atomicCAS(lock, 0, 1) != 0) {
    for (int i = 0; i < backoff; ++i) __nanosleep(10);
    backoff = min(backoff * 2, 64);
  }
  *(volatile int*)counter = *(volatile int*)counter + 1;
  __threadfence();
  atomicExch(lock, 0);
}
