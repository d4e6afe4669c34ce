#include "modules/gpu/ptx/control_flow.h"

#include <algorithm>

namespace ohmvp::gpu {
namespace {

bool ends_block(const Instruction& inst) {
  return inst.op == Opcode::bra || inst.op == Opcode::ret || inst.op == Opcode::exit ||
         inst.op == Opcode::trap;
}

void add_edge(std::vector<BasicBlock>& blocks, uint32_t from, uint32_t to, uint32_t exit_block) {
  auto& successors = blocks[from].successors;
  if (std::find(successors.begin(), successors.end(), to) != successors.end()) return;
  successors.push_back(to);
  if (to != exit_block) blocks[to].predecessors.push_back(from);
}

// Cooper, Harvey and Kennedy, "A Simple, Fast Dominance Algorithm", run on the reverse CFG: the
// root is the exit node, a node's "predecessors" are its CFG successors.
std::vector<uint32_t> post_dominators(const ControlFlowGraph& cfg) {
  const uint32_t exit = cfg.exit_block;
  const uint32_t count = exit + 1;
  // Postorder of the reverse CFG from the exit (iterative DFS over CFG predecessors).
  std::vector<std::vector<uint32_t>> exit_predecessors(1);
  for (uint32_t b = 0; b < exit; ++b)
    for (uint32_t s : cfg.blocks[b].successors)
      if (s == exit) exit_predecessors[0].push_back(b);
  auto reverse_successors = [&](uint32_t node) -> const std::vector<uint32_t>& {
    return node == exit ? exit_predecessors[0] : cfg.blocks[node].predecessors;
  };
  std::vector<uint32_t> order;  // postorder
  std::vector<uint32_t> number(count, UINT32_MAX);
  std::vector<bool> seen(count, false);
  std::vector<std::pair<uint32_t, size_t>> stack{{exit, 0}};
  seen[exit] = true;
  while (!stack.empty()) {
    auto& [node, next_child] = stack.back();
    const auto& children = reverse_successors(node);
    if (next_child < children.size()) {
      const uint32_t child = children[next_child++];
      if (!seen[child]) {
        seen[child] = true;
        stack.push_back({child, 0});
      }
    } else {
      number[node] = static_cast<uint32_t>(order.size());
      order.push_back(node);
      stack.pop_back();
    }
  }

  const uint32_t undefined = UINT32_MAX;
  std::vector<uint32_t> ipdom(count, undefined);
  ipdom[exit] = exit;
  auto intersect = [&](uint32_t a, uint32_t b) {
    while (a != b) {
      while (number[a] < number[b]) a = ipdom[a];
      while (number[b] < number[a]) b = ipdom[b];
    }
    return a;
  };
  bool changed = true;
  while (changed) {
    changed = false;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {  // reverse postorder
      const uint32_t node = *it;
      if (node == exit) continue;
      uint32_t candidate = undefined;
      for (uint32_t s : cfg.blocks[node].successors) {
        // A successor that cannot reach the exit (an endless loop) counts as a path to the exit:
        // the branch leading there has no reconvergence point before the end.
        if (number[s] == undefined) s = exit;
        if (ipdom[s] == undefined) continue;  // not processed yet
        candidate = candidate == undefined ? s : intersect(s, candidate);
      }
      if (candidate != undefined && ipdom[node] != candidate) {
        ipdom[node] = candidate;
        changed = true;
      }
    }
  }
  ipdom.resize(exit);
  for (uint32_t& p : ipdom)
    if (p == undefined) p = exit;  // cannot reach the exit: reconverge only at the end
  return ipdom;
}

}  // namespace

ControlFlowGraph build_control_flow(const Function& function) {
  ControlFlowGraph cfg;
  const auto& code = function.instructions;
  const uint32_t size = static_cast<uint32_t>(code.size());
  std::vector<bool> leader(size + 1, false);
  if (size > 0) leader[0] = true;
  for (uint32_t i = 0; i < size; ++i) {
    if (ends_block(code[i])) leader[i + 1] = true;
    if (code[i].op == Opcode::bra && code[i].operands[0].target <= size)
      leader[code[i].operands[0].target] = true;
  }
  cfg.block_of.assign(size, 0);
  for (uint32_t i = 0; i < size; ++i) {
    if (leader[i]) cfg.blocks.push_back({i, i, {}, {}});
    cfg.blocks.back().end = i + 1;
    cfg.block_of[i] = static_cast<uint32_t>(cfg.blocks.size() - 1);
  }
  const uint32_t exit = static_cast<uint32_t>(cfg.blocks.size());
  cfg.exit_block = exit;
  auto block_at = [&](uint32_t pc) { return pc >= size ? exit : cfg.block_of[pc]; };
  for (uint32_t b = 0; b < exit; ++b) {
    const Instruction& last = code[cfg.blocks[b].end - 1];
    const bool guarded = last.guard_reg != no_register;
    if (last.op == Opcode::bra) {
      add_edge(cfg.blocks, b, block_at(last.operands[0].target), exit);
      if (guarded) add_edge(cfg.blocks, b, block_at(cfg.blocks[b].end), exit);
    } else if (ends_block(last)) {
      add_edge(cfg.blocks, b, exit, exit);
      if (guarded) add_edge(cfg.blocks, b, block_at(cfg.blocks[b].end), exit);
    } else {
      add_edge(cfg.blocks, b, block_at(cfg.blocks[b].end), exit);
    }
  }
  cfg.immediate_post_dominator = post_dominators(cfg);
  return cfg;
}

void assign_reconvergence_points(Function& function) {
  if (function.instructions.empty()) return;
  const ControlFlowGraph cfg = build_control_flow(function);
  for (uint32_t i = 0; i < function.instructions.size(); ++i) {
    Instruction& inst = function.instructions[i];
    if (inst.op != Opcode::bra) continue;
    const uint32_t pdom = cfg.immediate_post_dominator[cfg.block_of[i]];
    inst.reconvergence_pc = pdom == cfg.exit_block ? no_target : cfg.blocks[pdom].first;
  }
}

}  // namespace ohmvp::gpu
