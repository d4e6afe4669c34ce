// cooperative_groups::this_grid().sync(): every block of a cooperative launch
// (cudaLaunchCooperativeKernel) waits for all the others. The grid's barrier counts arrivals in
// the workspace the driver passes through %envreg1/%envreg2; without one (a plain launch)
// is_valid() is false and sync() traps.
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

// Phases over the whole grid, each reading slots other blocks wrote in the one before:
// out[i] = ((i + 1) % count + 129) % count * 3 + 1.
extern "C" __global__ void rotate_twice(int* values, int* out, int count) {
  cg::grid_group grid = cg::this_grid();
  const int i = static_cast<int>(grid.thread_rank());
  if (i < count) values[i] = i * 3;
  grid.sync();
  const int first = i < count ? values[(i + 129) % count] : 0;
  grid.sync();
  if (i < count) values[i] = first + 1;
  grid.sync();
  if (i < count) out[i] = values[(i + 1) % count];
}

extern "C" __global__ void grid_valid(int* out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = cg::this_grid().is_valid() ? 1 : 0;
}
