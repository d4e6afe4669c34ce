// Bit and wide-multiply intrinsics, one thread's results per row: population counts, leading
// zeros, bit reversal, find-first-set, byte permutes, funnel shifts (wrapping and clamped), high
// halves of 32- and 64-bit products, sum of absolute difference, bit-field extract, rounded
// halving add.
extern "C" __global__ void bit_intrinsics(const unsigned* a, const unsigned long long* w,
                                          unsigned* out, unsigned long long* out64) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned x = a[i], y = a[(i + 7) & 255];
  const unsigned long long q = w[i];
  const int shift = y & 31;
  unsigned* r = out + i * 16;
  r[0] = __popc(x);
  r[1] = __clz(x);
  r[2] = __brev(x);
  r[3] = __ffs(x);
  r[4] = __popcll(q);
  r[5] = __clzll(q);
  r[6] = __ffsll(q);
  r[7] = __byte_perm(x, y, 0x7531 ^ (i & 0x3333));
  r[8] = __funnelshift_l(x, y, shift);
  r[9] = __funnelshift_r(x, y, shift);
  r[10] = __funnelshift_lc(x, y, y & 63);
  r[11] = __umulhi(x, y);
  r[12] = __mulhi((int)x, (int)y);
  r[13] = __sad((int)x, (int)y, 5u);
  r[14] = (x >> shift) & ((1u << (y >> 28)) - 1);
  r[15] = __rhadd((int)x, (int)y);
  unsigned long long* r64 = out64 + i * 3;
  r64[0] = __brevll(q);
  r64[1] = __umul64hi(q, (unsigned long long)x * 0x9e3779b97f4a7c15ull);
  r64[2] = __mul64hi((long long)q, -(long long)y);
}
