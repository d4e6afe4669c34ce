#include <cstdio>
extern "C" __global__ void hello(int x) { printf("x=%d\n", x); }
