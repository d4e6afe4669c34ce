#pragma once

#include <string>
#include <vector>

#include "modules/gpu/architecture.h"
#include "modules/gpu/gpu_config.h"
#include "modules/gpu/ptx/program.h"
#include "modules/host/gpu_workload.h"

namespace ohmvp {

// Throws ConfigError, naming the launch, for a launch of a kernel the module lacks or with another
// number of arguments than the kernel's parameters: a workload's launches checked before a run.
void check_launches(const GpuWorkload& workload, const gpu::Module& module);

// The highest compute capability any kernel the workload launches needs (`module` is its PTX).
// ConfigError for a kernel the module lacks.
gpu::ComputeCapability workload_capability(const GpuWorkload& workload, const gpu::Module& module);

// Throws gpu::check_architecture's (or gpu::check_warp_size's, gpu::check_tensor_modes's)
// ConfigError for the first launched kernel that needs more than the GPU `gpu` has (its compute
// capability, its warp size, its tensor cores' modes), so that a run is refused before it starts.
void check_workload_architecture(const GpuWorkload& workload, const gpu::Module& module,
                                 const gpu::GpuConfig& gpu);

// Throws ConfigError, naming the key, for a priority (`stream_priorities`, a launch's `priority`)
// beyond the GPU's greatest (gpu.greatest_stream_priority): CUDA would clamp it, a workload file
// means it.
void check_workload_priorities(const GpuWorkload& workload, const gpu::GpuConfig& gpu);

// Throws ConfigError, naming the first managed buffer and uvm.chunk_bytes, when the workload has
// managed buffers and a chunk of managed memory (`chunk_bytes`) is larger than the GPU's memory
// (`device_bytes`, described by `capacity`): found before the run, not at its cudaMallocManaged.
void check_managed_chunks(const GpuWorkload& workload, uint64_t chunk_bytes, uint64_t device_bytes,
                          const std::string& capacity);

}  // namespace ohmvp
