#pragma once

#include <cstdint>

#include "modules/gpu/ptx/instruction.h"

namespace ohmvp::gpu {

// What the SM's issue and readiness checks need to know about an instruction, worked out once
// per launch (LaunchState::traits) instead of from the opcode, state space and operands at every
// check and issue.
struct IssueTraits {
  bool memory = false;            // is_memory_access
  bool drains_memory = false;     // see drains_memory
  bool maybe_shared = false;      // a memory access to the shared or the generic space
  bool shared_from_step = false;  // maybe_shared and step_records_shared
  bool constant = false;          // a memory access to the param or const space
  bool invalidates_l1 = false;    // a fence at GPU or system scope (membar.gl, fence.sc.gpu, ...)
  uint8_t bank_bytes = 1;         // bank_access_bytes
};

IssueTraits issue_traits(const Instruction& instruction);

// wmma.load.a/b/c and wmma.store.d.
bool is_fragment_access(Opcode op);
// ld, ldu, st, atom, red, tex, tld4, suld, sust, ldmatrix and the fragment accesses: what goes
// to the LD/ST unit.
bool is_memory_access(Opcode op);
// Instructions that wait until the warp's own accesses are complete: fences order memory, exit
// ends the warp, call/ret change the register window results are written into. Barriers do not:
// bar orders memory only among the CTA's threads, which all reach memory through the SM's one
// in-order LD/ST path, so an access issued before the barrier is ahead of any issued after it.
bool drains_memory(Opcode op);
// The instruction's first address operand, or null.
const Operand* address_operand(const Instruction& instruction);
// Whether the interpreter's record of a step's shared-memory lanes and addresses is what
// Sm::shared_passes() computes before the step: for an unguarded ld/st/atom/red
// (shared_passes() counts every active lane) whose address is a register and an offset (for a
// symbol it takes the symbol's offset in the module, not its place in the CTA's shared memory).
bool step_records_shared(const Instruction& instruction);
// Bytes per lane of an ld/st/atom/red for the bank model.
uint32_t bank_access_bytes(const Instruction& instruction);

}  // namespace ohmvp::gpu
