#pragma once

#include <cstdint>
#include <string>

#include "modules/gpu/ptx/program.h"
#include "modules/gpu/simt/execution_context.h"
#include "modules/gpu/simt/kernel_layout.h"

namespace ohmvp::gpu {

struct TensorCoreConfig;

// A GPU architecture as its compute capability (gpu.compute_capability: "7.0" Volta, "7.5"
// Turing), and the instructions it has: the PTX ISA's target notes (mma.sync and ldmatrix need
// sm_75, integer wmma sm_72; redux.sync and the cvt forms to and from bf16 and to f16x2 sm_80;
// everything else the model executes runs on sm_70). 7.2 and 8.0 are only ever requirements,
// never a configured GPU.
enum class ComputeCapability : uint8_t { sm_70 = 70, sm_72 = 72, sm_75 = 75, sm_80 = 80 };

// "7.5 (sm_75, Turing)".
std::string capability_name(ComputeCapability capability);

// The compute capability `instruction` needs, and what the PTX ISA calls it ("mma.sync").
ComputeCapability required_capability(const Instruction& instruction);
const char* required_feature(const Instruction& instruction);

// The first instruction of the kernel (its own body, then the functions it calls; in a function,
// the earliest PTX line, whatever order the load-hoisting pass left) that needs the highest
// compute capability any of them needs; `instruction` is null when none needs more than 7.0.
struct KernelNeed {
  ComputeCapability capability = ComputeCapability::sm_70;
  const Function* function = nullptr;
  const Instruction* instruction = nullptr;
};
KernelNeed kernel_need(const KernelLayout& layout);

// Throws ConfigError when the kernel needs more than `gpu`: naming the PTX line, the kernel, the
// instruction and what it needs, and the GPU's compute capability.
void check_architecture(const KernelLayout& layout, ComputeCapability gpu);

// wmma, mma.sync and ldmatrix: their fragments are spread over the 32 lanes of a warp.
bool is_tensor_core(const Instruction& instruction);

// Throws ConfigError, naming the PTX line, the kernel and the instruction, when the kernel makes
// a matrix multiply in a precision mode whose sets `tensor` leaves at 0 (gpu.tensor_core).
void check_tensor_modes(const KernelLayout& layout, const TensorCoreConfig& tensor);

// Whether the kernel, or a function it calls, uses one.
bool uses_tensor_cores(const KernelLayout& layout);

// Throws ConfigError, naming them as check_architecture does, when the kernel (or a function it
// calls) uses a tensor-core instruction (wmma, mma.sync, ldmatrix: fragments spread over the 32
// lanes of a warp) and the GPU's warps have `warp_size` lanes other than 32.
void check_warp_size(const KernelLayout& layout, uint32_t warp_size);

// CUDA's launch limits, the same for every compute capability from 3.0 on (CUDA C++ Programming
// Guide, "Technical Specifications per Compute Capability"): a block of at most 1024 x 1024 x 64
// threads, a grid of at most (2^31 - 1) x 65535 x 65535 blocks. ConfigError "<where>: ..."
// naming the first dimension past its limit.
void check_launch_dimensions(const Dim3& grid, const Dim3& block, const std::string& where);

}  // namespace ohmvp::gpu
