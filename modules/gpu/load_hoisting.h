#pragma once

#include "modules/gpu/ptx/program.h"

namespace ohmvp::gpu {

// A scheduling pass over a module's PTX that stands for what ptxas does to the SASS a GPU runs:
// inside each basic block, the loads from beyond the SM (global, local, generic, texture), the
// instructions that compute their addresses and guards, and what those must wait for, move up
// past the other instructions they do not depend on, so a warp has its independent loads in flight
// before the arithmetic between them. It is a list schedule of the block's dependence graph that,
// of the instructions ready, takes the first (in the order written) that feeds such a load, or else
// the first. Shared-memory and constant-bank loads, which answer in tens of cycles, stay near their
// use. An instruction never passes:
// - one that writes a register it reads or writes, or reads a register it writes (the carry flag
//   of .cc and addc counts as a register);
// - a store, atomic or reduction, surface load or store, barrier, fence, call, branch, ret, exit,
//   trap, brkpt or nanosleep, a warp-wide (.sync) instruction, a tensor-core instruction, a stack
//   change, a read of a clock, an instruction the model does not run, or an ordered (volatile,
//   relaxed, acquire) load: these keep their place, and everything stays on its side of them.
// Only the order inside a block changes, so branch targets, reconvergence points and the indices
// of unsupported instructions keep their values. What each thread computes does not change;
// where several instructions of a block would fault, the one reported may. The time and memory
// grow with a block's instructions and dependences, not with their square.
// A modelling choice: ptxas also weighs register pressure, which this pass does not (the live
// register estimate, register_pressure.h, is taken after it, so hoisting may lower occupancy).
void hoist_loads(Module& module);

// The same for one function.
void hoist_loads(Function& function);

}  // namespace ohmvp::gpu
