#include <catch2/catch.hpp>

#include "modules/gpu/ptx/control_flow.h"
#include "tests/unit/ptx_test_util.h"

using namespace ohmvp::gpu;
using namespace ohmvp::gpu::test;

TEST_CASE("ptx control flow: if/else reconverges at the join", "[ptx]") {
  const Module module = small_kernel(R"(
  ld.param.u32 %r1, [n];
  setp.gt.s32 %p1, %r1, 0;
  @%p1 bra THEN;
  mov.u32 %r2, 1;
  bra.uni JOIN;
THEN:
  mov.u32 %r2, 2;
JOIN:
  add.s32 %r3, %r2, %r1;
  ret;
)");
  const Function& f = module.functions[0];
  CHECK(f.instructions[2].operands[0].target == 5);
  CHECK(f.instructions[2].reconvergence_pc == 6);
  CHECK(f.instructions[4].reconvergence_pc == 6);

  const ControlFlowGraph cfg = build_control_flow(f);
  REQUIRE(cfg.blocks.size() == 4);
  CHECK(cfg.exit_block == 4);
  CHECK(cfg.blocks[0].first == 0);
  CHECK(cfg.blocks[0].end == 3);
  CHECK(cfg.blocks[0].successors == std::vector<uint32_t>{2, 1});
  CHECK(cfg.blocks[1].successors == std::vector<uint32_t>{3});
  CHECK(cfg.blocks[2].successors == std::vector<uint32_t>{3});
  CHECK(cfg.blocks[3].successors == std::vector<uint32_t>{4});
  CHECK(cfg.blocks[3].predecessors == std::vector<uint32_t>{1, 2});
  CHECK(cfg.immediate_post_dominator == std::vector<uint32_t>{3, 3, 3, 4});
  CHECK(cfg.block_of[5] == 2);
}

TEST_CASE("ptx control flow: nested ifs reconverge at their own joins", "[ptx]") {
  const Module module = small_kernel(R"(
  ld.param.u32 %r1, [n];
  setp.gt.s32 %p1, %r1, 0;
  @!%p1 bra OUTER_END;
  setp.gt.s32 %p2, %r1, 10;
  @!%p2 bra INNER_END;
  mov.u32 %r2, 1;
INNER_END:
  add.s32 %r2, %r2, 1;
OUTER_END:
  ret;
)");
  const Function& f = module.functions[0];
  CHECK(f.instructions[2].reconvergence_pc == 7);
  CHECK(f.instructions[4].reconvergence_pc == 6);
}

TEST_CASE("ptx control flow: a loop with a break reconverges after the loop", "[ptx]") {
  const Module module = small_kernel(R"(
  ld.param.u32 %r1, [n];
  mov.u32 %r2, 0;
LOOP:
  add.s32 %r2, %r2, 1;
  setp.eq.s32 %p1, %r2, 7;
  @%p1 bra DONE;
  setp.lt.s32 %p2, %r2, %r1;
  @%p2 bra LOOP;
  mov.u32 %r3, 9;
DONE:
  add.s32 %r4, %r2, 1;
  ret;
)");
  const Function& f = module.functions[0];
  CHECK(f.instructions[4].reconvergence_pc == 8);  // the break: after the loop, at DONE
  CHECK(f.instructions[6].reconvergence_pc == 8);  // the back edge
  const ControlFlowGraph cfg = build_control_flow(f);
  CHECK(cfg.blocks[cfg.block_of[6]].successors ==
        std::vector<uint32_t>{cfg.block_of[2], cfg.block_of[7]});
}

TEST_CASE("ptx control flow: early exit and return", "[ptx]") {
  const Module module = small_kernel(R"(
  ld.param.u32 %r1, [n];
  setp.lt.s32 %p1, %r1, 0;
  @%p1 exit;
  setp.gt.s32 %p2, %r1, 5;
  @%p2 bra SKIP;
  add.s32 %r1, %r1, 1;
SKIP:
  setp.eq.s32 %p3, %r1, 3;
  @%p3 bra LAST;
  ret;
LAST:
  exit;
)");
  const Function& f = module.functions[0];
  const ControlFlowGraph cfg = build_control_flow(f);
  CHECK(cfg.blocks[0].end == 3);  // a guarded exit ends its block
  CHECK(cfg.blocks[0].successors == std::vector<uint32_t>{cfg.exit_block, 1});
  CHECK(f.instructions[4].reconvergence_pc == 6);
  CHECK(f.instructions[7].reconvergence_pc == no_target);  // ret and exit meet only at the exit
  // A call does not end a block.
  const Module calls = parse_snippet(R"(
.func f()
{
  ret;
}
.visible .entry k()
{
  .reg .b32 %r<2>;
  mov.u32 %r1, 1;
  call.uni f, ();
  add.u32 %r1, %r1, 1;
  ret;
}
)");
  const ControlFlowGraph with_call = build_control_flow(calls.functions[1]);
  CHECK(with_call.blocks.size() == 1);
}

TEST_CASE("ptx control flow: nvcc's kernels and an endless loop", "[ptx]") {
  const Module module = load_fixture("basics.ptx");
  const Function& branches = function_named(module, "branches");
  for (const Instruction& inst : branches.instructions) {
    if (inst.op != Opcode::bra) continue;
    INFO("line " << inst.source_line);
    // Every branch of this kernel reconverges before the final store or at the exit.
    CHECK((inst.reconvergence_pc == no_target ||
           inst.reconvergence_pc < branches.instructions.size()));
  }
  const Function& early = function_named(module, "struct_param");
  for (const Instruction& inst : early.instructions)
    if (inst.op == Opcode::bra) CHECK(early.instructions[inst.reconvergence_pc].op == Opcode::ret);

  const Module endless = small_kernel(R"(
  ld.param.u32 %r1, [n];
  setp.eq.s32 %p1, %r1, 0;
  @%p1 bra SPIN;
  ret;
SPIN:
  bra.uni SPIN;
)");
  CHECK(endless.functions[0].instructions[2].reconvergence_pc == no_target);
  CHECK(endless.functions[0].instructions[4].reconvergence_pc == no_target);
}
