#pragma once

#include <string>

#include "modules/gpu/ptx/program.h"
#include "modules/gpu/simt/execution_context.h"

namespace ohmvp::gpu {

// A launch's block against the kernel's __launch_bounds__ (.maxntid) and .reqntid, as the CUDA
// runtime refuses a launch that breaks them: ConfigError "<where>: a block of (128,1,1) is 128
// threads; the kernel takes at most 64 (.maxntid, __launch_bounds__)", or "...; the kernel
// takes blocks of (64,1,1) only (.reqntid)".
void check_launch_bounds(const Function& kernel, const Dim3& block, const std::string& where);

}  // namespace ohmvp::gpu
