#pragma once

#include <cstddef>
#include <string>

namespace ohmvp::gpu {

class Gpu;

// Where a GPU's resident warps are, for the message of a run that does not end (its time limit,
// a stall): the places that hold the most of them, each as PTX file:line and the instruction
// they are to issue next, with how many warps wait there ("; its 2048 warps are at spin.ptx:14
// 'ld.volatile.global.u32 %r1, [%rd1]' (1536 warps) and spin.ptx:15 ... (512)"). A divergent
// warp counts where its active path is. Empty when no warp is resident.
std::string warp_positions_text(const Gpu& gpu, size_t most_places = 3);

}  // namespace ohmvp::gpu
