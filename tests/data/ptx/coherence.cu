// Two CTAs on two SMs share data through global memory. The consumer (CTA 0) first reads the
// flag and the data once, so its SM's L1 holds both lines, then polls the flag until the
// producer (CTA 1) has written data 42, fenced, and set the flag. How it polls is `mode`:
// 0 a volatile load, 1 ld.global.cg (__ldcg), 2 ld.global.cv (__ldcv), 3 atomicAdd(flag, 0).
// After the flag it fences and reads the data with a plain (L1-cached) load.
// out = {first flag, saw the flag (1) or gave up (0), data read with the poll, data after the
// fence, polls, data before the flag}.
__device__ __forceinline__ int poll(const int* p, int mode) {
  if (mode == 0) return *(volatile const int*)p;
  if (mode == 1) return __ldcg(p);
  if (mode == 2) return __ldcv(p);
  return atomicAdd((int*)p, 0);
}

extern "C" __global__ void flag_handoff(int* flag, int* data, int* out, int mode) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    const int first = poll(flag, mode);
    const int early = data[0];
    int polls = 0;
    while (poll(flag, mode) == 0 && polls < 3000) ++polls;
    out[0] = first;
    out[1] = polls < 3000 ? 1 : 0;
    out[2] = poll(data, mode);
    __threadfence();
    out[3] = data[0];
    out[4] = polls;
    out[5] = early;
  } else {
    for (volatile int k = 0; k < 2000; k = k + 1) {
    }
    *(volatile int*)data = 42;
    __threadfence();
    *(volatile int*)flag = 1;
  }
}

// Each thread reads a word, then overwrites it: the load misses in the L1, and the store, which
// does not wait for it, reaches the L1 while the fetch is in flight. out[i] must be the old word.
extern "C" __global__ void load_then_store(int* words, int* out) {
  const int i = threadIdx.x;
  const int old = words[i];
  words[i] = -1;
  out[i] = old;
}

// As flag_handoff, but the consumer's poll is relaxed (volatile) and the flag is then read once
// with ld.acquire.gpu, followed at once by a plain load of the data, which the acquire must order
// after itself (and after the L1 it empties). out = {flag read by the acquire, data after it,
// data before the flag, polls}.
extern "C" __global__ void acquire_handoff(int* flag, int* data, int* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    const int early = data[0];
    int polls = 0;
    while (*(volatile int*)flag == 0 && polls < 3000) ++polls;
    int seen;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(seen) : "l"(flag) : "memory");
    const int after = data[0];
    out[0] = seen;
    out[1] = after;
    out[2] = early;
    out[3] = polls;
  } else {
    for (volatile int k = 0; k < 2000; k = k + 1) {
    }
    *(volatile int*)data = 42;
    __threadfence();
    *(volatile int*)flag = 1;
  }
}

// Threads of different warps of one CTA hand words to each other through global memory across
// __syncthreads(), which does not wait for the stores' acknowledgements. Each thread first reads
// the word of the thread 32 further on (another warp), so the L1 holds the line, then writes its
// own word; after the barrier it reads the other word again, which must be the new one (the L1's
// copy updated, or L2's). After a second barrier every thread overwrites its word, which the
// other warp read before that barrier and must not have seen. out = {first read, second read}
// per thread.
extern "C" __global__ void barrier_handoff(int* words, int* out) {
  const int t = threadIdx.x;
  const int other = (t + 32) % blockDim.x;
  const int before = words[other];
  words[t] = 1000 + t;
  __syncthreads();
  const int after = words[other];
  __syncthreads();
  words[t] = 2000 + t;
  out[2 * t] = before;
  out[2 * t + 1] = after;
}

// Each thread reads its word (so its SM's L1 holds the line), spins `spins` rounds, then writes
// the word it read. A grid of it that starts while another spins on the same SM, after a copy
// changed the words, must read the new words: the L1 forgets its lines as a grid starts.
extern "C" __global__ void read_then_spin(const int* words, int* out, int spins) {
  const int word = words[threadIdx.x];
  for (volatile int k = 0; k < spins; k = k + 1) {
  }
  out[threadIdx.x] = word;
}
