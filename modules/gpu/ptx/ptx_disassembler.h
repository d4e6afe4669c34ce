#pragma once

#include <string>

#include "modules/gpu/ptx/program.h"

namespace ohmvp::gpu {

// PTX-like text of one decoded instruction, e.g. "@!%p1 ld.global.v2.f32 {%f1, %f2}, [%rd3+8]"
// (for fault messages and tracing). Branch targets print as "@<instruction index>", immediates of
// float type as 0f/0d hex bits, call as "call.uni (retval0), f, (param0, param1)".
std::string format_instruction(const Module& module, const Function& function,
                               const Instruction& instruction);

}  // namespace ohmvp::gpu
