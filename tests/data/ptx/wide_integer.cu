// 128-bit integer division and remainder as nvcc compiles them: CUDA's own inline PTX with
// sub.cc/subc chains whose carry flag it reads back with addc.
//
// divide: for each t, the 128-bit numerator {high[t], low[t]} by the 64-bit divisor[t]:
// out[4 t ..] = {quotient high, quotient low, remainder, the signed quotient's low word}.
extern "C" __global__ void divide(const unsigned long long* high, const unsigned long long* low,
                                  const unsigned long long* divisor, unsigned long long* out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned __int128 numerator = (unsigned __int128)high[t] << 64 | low[t];
  const unsigned __int128 quotient = numerator / divisor[t];
  out[4 * t + 0] = (unsigned long long)(quotient >> 64);
  out[4 * t + 1] = (unsigned long long)quotient;
  out[4 * t + 2] = (unsigned long long)(numerator % divisor[t]);
  out[4 * t + 3] = (unsigned long long)((__int128)numerator / -(__int128)divisor[t]);
}
