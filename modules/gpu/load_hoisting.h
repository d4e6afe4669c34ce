#pragma once

#include "modules/gpu/ptx/program.h"

namespace ohmvp::gpu {

// A scheduling pass over a module's PTX that stands for what ptxas does to the SASS a GPU runs:
// inside each basic block, the loads from beyond the SM (global, local, generic, texture) and the
// instructions that compute their addresses and guards move up past the other instructions they
// do not depend on, so a warp has its independent loads in flight before the arithmetic between
// them. It is a list schedule of the block's dependence graph that, of the instructions ready,
// takes first those that feed such a load, then the rest, each in the order written. Shared-memory
// and constant-bank loads, which answer in tens of cycles, stay near their use. An instruction
// never passes:
// - one that writes a register it reads or writes, or reads a register it writes;
// - a store, atomic, barrier, fence, call, branch, exit or trap, a warp-wide (.sync)
//   instruction, a tensor-core instruction, a stack change, a read of a clock, an instruction
//   the model does not run, or an ordered (volatile, relaxed, acquire) load: these keep their
//   place, and everything stays on its side of them.
// Only the order inside a block changes, so branch targets, reconvergence points and the indices
// of unsupported instructions keep their values. What each thread computes does not change.
// A modelling choice: ptxas also weighs register pressure, which this pass does not (the live
// register estimate, register_pressure.h, is taken after it).
void hoist_loads(Module& module);

// The same for one function.
void hoist_loads(Function& function);

}  // namespace ohmvp::gpu
