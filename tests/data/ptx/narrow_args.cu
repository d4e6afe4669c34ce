// Kernel parameters narrower than 32 bits, as scalars and as struct fields: each thread writes
// them back widened, out[0..6] = {c, s, uc, us, h as float bits, p.a, p.b}, out[7] = p.c.
#include <cuda_fp16.h>

struct Packed {
  signed char a;
  short b;
  int c;
};

extern "C" __global__ void narrow_args(int* out, signed char c, short s, unsigned char uc,
                                       unsigned short us, __half h, Packed p) {
  if (threadIdx.x != 0) return;
  out[0] = c;
  out[1] = s;
  out[2] = uc;
  out[3] = us;
  out[4] = __float_as_int(__half2float(h));
  out[5] = p.a;
  out[6] = p.b;
  out[7] = p.c;
}
