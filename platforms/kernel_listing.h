#pragma once

#include <ostream>

#include "modules/gpu/ptx/program.h"

namespace ohmvp {

// What a workload needs to launch each kernel of a PTX module ('ohmvp kernels'): the shortest
// name that picks it, its C++ signature, each parameter's place in the argument block, its static
// shared and per-thread local bytes, and the compute capability it needs, or why it cannot run.
void print_kernels(std::ostream& out, const gpu::Module& module);

}  // namespace ohmvp
