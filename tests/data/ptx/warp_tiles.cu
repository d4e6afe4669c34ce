// Cooperative groups' tiles of a warp: their votes and reductions pass member masks of 8 lanes.
//
// tile_votes: tiles of 8 threads from cooperative groups; out[3 t ..] = {the tile's ballot of
// values[t] < 0, whether any of the tile's values is negative, the tile's sum of values}.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
extern "C" __global__ void tile_votes(const int* values, unsigned* out) {
  const cg::thread_block_tile<8> tile = cg::tiled_partition<8>(cg::this_thread_block());
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int value = values[t];
  out[3 * t + 0] = tile.ballot(value < 0);
  out[3 * t + 1] = tile.any(value < 0);
  out[3 * t + 2] = cg::reduce(tile, value, cg::plus<int>());
}
