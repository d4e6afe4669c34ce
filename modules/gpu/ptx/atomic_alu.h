#pragma once

#include <cstdint>

#include "modules/gpu/ptx/instruction.h"
#include "modules/gpu/ptx/ptx_types.h"

namespace ohmvp::gpu {

// The read-modify-write of one PTX atom/red lane: given the value in memory (`old_value`, the low
// type_bytes(type) bytes meaningful) and the lane's operands `b` (and `c` for cas), returns the
// value to store. The lane's result register receives `old_value`. Used wherever atomics execute:
// shared memory in the SM, global memory at the L2 slice.
//
// `memory` is where it executes: atom.add.f32 flushes subnormal inputs and results to zero in
// global memory only (PTX ISA). A NaN result of a float operation is the canonical NaN.
//
// Supported: add (integers, f32, f64, f16x2), min/max (signed, unsigned, f32), inc/dec (u32),
// and/or/xor (b32, b64), exch (32 and 64 bit), cas (32 and 64 bit). Throws std::invalid_argument
// for a combination PTX does not define; the PTX loader rejects those earlier.
enum class AtomicMemory : uint8_t { global, shared };
uint64_t atomic_result(AtomicOp op, DataType type, uint64_t old_value, uint64_t b, uint64_t c,
                       AtomicMemory memory);

// Whether atomic_result accepts the combination (for the loader's check).
bool atomic_supported(AtomicOp op, DataType type);

}  // namespace ohmvp::gpu
