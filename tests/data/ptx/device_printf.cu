// printf in device code: every conversion kind, a string from device memory and one from the
// module, a call from a __noinline__ function, and a printf that only some lanes reach.
#include <cstdio>

__device__ __noinline__ void report(int lane, double value) {
  printf("lane %2d reports %+.2e\n", lane, value);
}

// Thread t prints one line of every kind; odd threads of the first warp then report from a
// function, and thread 0 prints the name it was given and the module's own string.
extern "C" __global__ void print_values(const char* name, const int* values, int count) {
  const int t = threadIdx.x;
  const int value = values[t % count];
  printf("t=%d value=%5d hex=%#x unsigned=%u char=%c long=%lld float=%.3f short=%hd\n", t, value,
         value, (unsigned)value, 'a' + t % 26, (long long)value * 1000000007LL, value / 4.0f,
         (short)(value * 1000));
  if (t % 2 == 1 && t < 8) report(t, value * 0.5);
  if (t == 0) printf("[%s] [%-6s|%6.3s] 100%%\n", name, "left", "truncated");
}

// print_string: the string at `text`, however long, then '|'.
extern "C" __global__ void print_string(const char* text) {
  printf("%s|\n", text);
}
