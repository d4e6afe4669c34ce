#pragma once

#include "modules/gpu/ptx/program.h"

namespace ohmvp::gpu {

// Gives every symbol of a parsed module its offset (see docs/gpu_ptx.md, "Symbol layout"):
//  - parameters, return parameters, call-site .param variables and .local variables: in
//    declaration order, each aligned, inside their function's block (param_bytes, return_bytes,
//    call_param_bytes, local_bytes);
//  - module .global and .const variables: inside the global segment and the constant bank;
//  - static .shared variables at module scope or in a non-kernel function: one common region in
//    declaration order (so every kernel sees them at the same offset); a kernel's own static
//    .shared variables follow the end of the common variables the kernel uses, directly or
//    through the functions it calls; static_shared_bytes is where the last of them ends;
//  - .extern .shared variables: offset 0 of the dynamic region (Module::shared_offset).
void lay_out_symbols(Module& module);

}  // namespace ohmvp::gpu
