#pragma once

#include <cstdint>

#include "modules/gpu/ptx/program.h"

namespace ohmvp::gpu {

// 32-bit register slots one PTX register takes: b64/f64 2, pred 0 (predicates live in their own
// file), b16/f16/b32/f32 1 (a 16-bit value takes a whole register).
uint32_t register_slots(DataType type);

// The most 32-bit registers a thread running `function` of `module` holds at once: the largest
// total of register_slots() over the PTX registers live at any instruction (a backward liveness
// analysis over the function's control-flow graph; a guarded write, `@p`, keeps the old value
// live), where at a call the registers live across it add the callee's own figure (an indirect
// call: the largest of any function whose address the module takes; a recursive call: none, as
// the outer activation already counts it; a function without a body such as vprintf: none).
//
// It stands for ptxas's allocation (its `-v` "Used N registers"), which PTX's virtual registers,
// one per value, over-count several times; docs/gpu_sm.md compares the two on the shipped
// kernels. A modelling choice: ptxas's own optimisations (constant-bank operands, scheduling for
// latency, spilling) move its count either way.
uint32_t live_registers_per_thread(const Module& module, uint32_t function);

}  // namespace ohmvp::gpu
