// Atomics of every kind on global and shared memory, warp shuffles and votes.
extern "C" __global__ void atomics(int* gi, unsigned* gu, float* gf, unsigned long long* gl,
                                   double* gd) {
  __shared__ int si[32];
  __shared__ float sf[32];
  int t = threadIdx.x;
  if (t < 32) { si[t] = 0; sf[t] = 0.0f; }
  __syncthreads();
  atomicAdd(&gi[0], t);
  atomicSub(&gi[1], t);
  atomicMin(&gi[2], t);
  atomicMax(&gi[3], t);
  atomicAnd(&gi[4], t);
  atomicOr(&gi[5], t);
  atomicXor(&gi[6], t);
  int old = atomicExch(&gi[7], t);
  int c = atomicCAS(&gi[8], t, old);
  atomicInc(&gu[0], 17u);
  atomicDec(&gu[1], 17u);
  atomicMin(&gu[2], (unsigned)t);
  atomicMax(&gu[3], (unsigned)t);
  float of = atomicAdd(&gf[0], 1.5f);
  atomicAdd(&gl[0], 3ull);
  atomicCAS(&gl[1], 1ull, (unsigned long long)c);
  atomicExch(&gl[2], 9ull);
  atomicMin(&gl[3], (unsigned long long)t);
  atomicAdd(&gd[0], 0.5);
  atomicAdd(&si[t & 31], 1);
  atomicMax(&si[(t + 1) & 31], t);
  atomicCAS(&si[(t + 2) & 31], 0, t);
  atomicAdd(&sf[t & 31], of);
  atomicExch(&sf[(t + 3) & 31], 2.0f);
  __syncthreads();
  if (t < 32) { gi[9 + t] = si[t]; gf[1 + t] = sf[t]; }
}

extern "C" __global__ void warp_ops(const int* in, int* out) {
  int t = threadIdx.x;
  int v = in[t];
  int s = __shfl_down_sync(0xffffffff, v, 1);
  s += __shfl_up_sync(0xffffffff, v, 2);
  s += __shfl_xor_sync(0xffffffff, v, 4);
  s += __shfl_sync(0xffffffff, v, 0);
  unsigned ballot = __ballot_sync(0xffffffff, v > 0);
  int all = __all_sync(0xffffffff, v > 0);
  int any = __any_sync(0xffffffff, v > 5);
  unsigned active = __activemask();
  out[t] = s + ballot + all + any + active + __popc(v) + __clz(v) + __brev(v) + __ffs(v);
}

// Results unused: nvcc emits red instead of atom.
extern "C" __global__ void reductions(int* gi, unsigned* gu, float* gf, unsigned long long* gl) {
  __shared__ unsigned su[4];
  int t = threadIdx.x;
  if (t < 4) su[t] = 0;
  __syncthreads();
  atomicAdd(&gi[0], t);
  atomicMin(&gi[1], t);
  atomicMax(&gu[0], (unsigned)t);
  atomicOr(&gu[1], 1u << (t & 31));
  atomicAnd(&gu[2], ~(1u << (t & 31)));
  atomicXor(&gu[3], (unsigned)t);
  atomicInc(&gu[4], 9u);
  atomicAdd(&gf[0], 0.25f);
  atomicAdd(&gl[0], 1ull);
  atomicAdd(&su[t & 3], 1u);
  __threadfence();
  __syncthreads();
  if (t < 4) gu[5 + t] = su[t];
  int count = __syncthreads_count(t & 1);
  int every = __syncthreads_and(t < 1000);
  int some = __syncthreads_or(t == 3);
  if (t == 0) gi[2] = count + every + some;
}
