#pragma once

#include <cstdint>
#include <vector>

#include "modules/gpu/scoreboard.h"
#include "modules/gpu/simt/kernel_layout.h"

namespace ohmvp::gpu {

// The rows of a warp's register file (register indices in the file, see
// KernelLayout::register_base) that a starting warp must zero so that it reads what it would read
// from a register file zeroed whole: those that some thread may read before its own path through
// the kernel has written them. `registers[pc]` are the kernel's instructions' registers.
//
// A forward must-write analysis over the kernel's basic blocks: a register is written on entry to
// a block when every predecessor writes it; a guarded instruction (`@p`) may write nothing. Every
// row is returned (nothing can be left out) when the kernel calls a function (a callee's registers
// keep the values of an earlier call) or has an instruction that reads other lanes' registers
// (shfl, vote, match, redux, bar.red, the tensor-core fragments), as a lane that has not written
// a register may still have it read by another.
std::vector<uint32_t> registers_to_zero(const KernelLayout& layout,
                                        const std::vector<InstructionRegisters>& registers);

}  // namespace ohmvp::gpu
