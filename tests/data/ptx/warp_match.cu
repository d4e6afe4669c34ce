// Warp match and find-nth-set intrinsics (sm_70): __match_any_sync, __match_all_sync, __fns.
//
// match_keys: each thread t reads keys[t] (32-bit) and wide_keys[t] (64-bit) and writes
// out[6 t ..] = {__match_any_sync of its key, __match_all_sync of its key and its predicate,
// the same three for the 64-bit key}. Threads with t >= active return at once, so the last
// warp's member mask is __activemask().
extern "C" __global__ void match_keys(const int* keys, const long long* wide_keys, unsigned* out,
                                      int active) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= active) return;
  const unsigned members = __activemask();
  int all32 = 0, all64 = 0;
  out[6 * t + 0] = __match_any_sync(members, keys[t]);
  out[6 * t + 1] = __match_all_sync(members, keys[t], &all32);
  out[6 * t + 2] = all32;
  out[6 * t + 3] = __match_any_sync(members, wide_keys[t]);
  out[6 * t + 4] = __match_all_sync(members, wide_keys[t], &all64);
  out[6 * t + 5] = all64;
}

// aggregated_histogram: the warp-aggregated atomics idiom. The threads of a warp that hold the
// same bin elect their lowest lane, which adds the group's size to the bin with one atomic.
extern "C" __global__ void aggregated_histogram(const int* keys, int* bins, int* atomics, int n) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  const int key = keys[t];
  const unsigned group = __match_any_sync(__activemask(), key);
  const int leader = __ffs(group) - 1;
  if ((threadIdx.x & 31) == leader) {
    atomicAdd(&bins[key], __popc(group));
    atomicAdd(atomics, 1);
  }
}

// nth_set: out[t] = __fns(masks[t], bases[t], offsets[t]).
extern "C" __global__ void nth_set(const unsigned* masks, const unsigned* bases, const int* offsets,
                                   unsigned* out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = __fns(masks[t], bases[t], offsets[t]);
}
