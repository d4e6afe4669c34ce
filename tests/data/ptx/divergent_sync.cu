// Shuffles in both arms of an if/else after the arms ran apart: the first arm loops long
// enough that the model's independent thread scheduling yields to the second, which reaches its
// own shuffle. On sm_70 the two shuffles meet; the model does not join paths parked at
// different instructions and refuses the exchange rather than read the other arm's registers.
extern "C" __global__ void shuffle_after_split(int* out, int spins) {
  const int lane = threadIdx.x % 32;
  int value = lane;
  if (lane < 16) {
    for (int i = 0; i < spins; ++i) value = value * 3 + out[32];
    value = __shfl_sync(0xffffffffu, value, lane + 16);
  } else {
    value = __shfl_sync(0xffffffffu, value * 2, lane - 16);
  }
  out[threadIdx.x] = value;
}
