#pragma once

#include <cstdint>
#include <vector>

#include "modules/gpu/ptx/program.h"

namespace ohmvp::gpu {

// Basic blocks and the control-flow graph of one function, with immediate post-dominators.
// A block ends at a bra, ret, exit or trap (call does not end a block) or before a branch target.
// `exit_block` is a virtual node after the last real block: ret/exit/trap and falling off the end
// lead to it.
struct BasicBlock {
  uint32_t first = 0;                // first instruction index
  uint32_t end = 0;                  // one past the last instruction
  std::vector<uint32_t> successors;  // block indices, exit_block included
  std::vector<uint32_t> predecessors;
};

struct ControlFlowGraph {
  std::vector<BasicBlock> blocks;  // in instruction order
  std::vector<uint32_t> block_of;  // instruction index -> block index
  uint32_t exit_block = 0;         // == blocks.size()
  // Immediate post-dominator of each block (exit_block for those whose only post-dominator is
  // the exit, and for blocks that cannot reach the exit, such as an endless loop).
  std::vector<uint32_t> immediate_post_dominator;
};

ControlFlowGraph build_control_flow(const Function& function);

// Sets `reconvergence_pc` of every bra to the first instruction of the immediate post-dominator of
// its block, or no_target when that is the exit.
void assign_reconvergence_points(Function& function);

}  // namespace ohmvp::gpu
