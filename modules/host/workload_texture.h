#pragma once

#include <cstdint>
#include <string>

#include "modules/gpu/simt/texture.h"
#include "modules/host/gpu_workload.h"

namespace ohmvp {

// The GPU's binding for a workload's texture argument over its buffer at device address `base`
// (handle left 0 for the executor to give). Sampling CUDA refuses (texture_sampling_problem),
// texel types the GPU has no format for and sizes beyond 32 bits are a ConfigError naming the
// texture's buffer (the caller adds the launch).
gpu::TextureBinding workload_texture(const GpuWorkload& workload, const TextureBinding& texture,
                                     uint64_t base);

}  // namespace ohmvp
