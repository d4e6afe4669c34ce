// __syncthreads_count/and/or (bar.red.popc/and/or): every thread writes the CTA's three results.
extern "C" __global__ void barrier_reductions(int* out) {
  const int t = threadIdx.x;
  const int count = __syncthreads_count(t % 3 == 0);
  const int every = __syncthreads_and(t < 40);
  const int some = __syncthreads_or(t == 17);
  out[3 * t] = count;
  out[3 * t + 1] = every;
  out[3 * t + 2] = some;
}
