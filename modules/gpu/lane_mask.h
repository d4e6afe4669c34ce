#pragma once

#include <cstdint>

namespace ohmvp::gpu {

// Calls body(lane) for each set bit of `mask`, lowest first. A full 32-lane warp (the usual
// case) runs as a counted loop, unrolled, without the per-lane bit scan. Always inline, with the
// hot bodies marked always_inline too (the two call sites here could keep them out of line): a body
// called out of line reloads everything it captured for every lane.
template <class F>
__attribute__((always_inline)) inline void for_each_lane(uint64_t mask, F&& body) {
  if (mask == 0xffffffff) {
#pragma GCC unroll 4
    for (uint32_t lane = 0; lane < 32; ++lane) body(lane);
    return;
  }
  while (mask) {
    const uint32_t lane = static_cast<uint32_t>(__builtin_ctzll(mask));
    mask &= mask - 1;
    body(lane);
  }
}

}  // namespace ohmvp::gpu
