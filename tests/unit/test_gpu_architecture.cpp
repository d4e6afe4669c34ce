// Which compute capability a kernel needs, through the functions it calls, and the refusal.
#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "modules/common/errors.h"
#include "modules/gpu/architecture.h"
#include "modules/gpu/ptx/ptx_parser.h"

using namespace ohmvp;
using namespace ohmvp::gpu;
using Catch::Contains;

namespace {

// `plain` uses nothing past 7.0; `via_call` calls `rows`, which uses ldmatrix; `multiply` uses
// mma.sync.
const char* const k_ptx = R"(.version 7.0
.target sm_75
.address_size 64
.func rows(.param .b32 base)
{
  .reg .b32 %r<4>;
  ld.param.b32 %r1, [base];
  ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%r2, %r3}, [%r1];
  ret;
}
.visible .entry plain()
{
  exit;
}
.visible .entry via_call()
{
  .reg .b32 %r<2>;
  mov.u32 %r1, 0;
  {
  .param .b32 p;
  st.param.b32 [p], %r1;
  call.uni rows, (p);
  }
  exit;
}
.visible .entry multiply()
{
  .reg .b32 %r<4>;
  .reg .f32 %f<5>;
  mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2}, {%r3}, {%f1, %f2, %f3, %f4};
  exit;
}
.visible .entry volta_multiply()
{
  .reg .b32 %r<5>;
  .reg .f32 %f<9>;
  mma.sync.aligned.m8n8k4.col.row.f32.f16.f16.f32 {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, {%r1, %r2}, {%r3, %r4}, {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8};
  exit;
}
)";

}  // namespace

TEST_CASE("architecture: a kernel needs what it and the functions it calls use", "[tensor]") {
  const Module module = parse_ptx(k_ptx, "arch.ptx");
  CHECK(kernel_need(KernelLayout(module, "plain")).instruction == nullptr);
  const KernelNeed call = kernel_need(KernelLayout(module, "via_call"));
  CHECK(call.capability == ComputeCapability::sm_75);
  REQUIRE(call.function != nullptr);
  CHECK(call.function->name == "rows");
  CHECK(kernel_need(KernelLayout(module, "multiply")).capability == ComputeCapability::sm_75);

  for (const char* kernel : {"plain", "via_call", "multiply"})
    CHECK_NOTHROW(check_architecture(KernelLayout(module, kernel), ComputeCapability::sm_75));
  CHECK_NOTHROW(check_architecture(KernelLayout(module, "plain"), ComputeCapability::sm_70));
  CHECK_THROWS_AS(check_architecture(KernelLayout(module, "via_call"), ComputeCapability::sm_70),
                  ConfigError);
  CHECK_THROWS_WITH(
      check_architecture(KernelLayout(module, "via_call"), ComputeCapability::sm_70),
      Contains("arch.ptx:8: kernel 'via_call' (in 'rows') uses ldmatrix ('ldmatrix") &&
          Contains("needs compute capability 7.5 (sm_75, Turing) or later; this "
                   "GPU is 7.0 (sm_70, Volta) (gpu.compute_capability)"));
  CHECK_THROWS_WITH(
      check_architecture(KernelLayout(module, "multiply"), ComputeCapability::sm_70),
      Contains("arch.ptx:30: kernel 'multiply' uses mma.sync .m16n8k8 or .m8n8k16 ('mma.sync"));
  // Volta's own mma.sync shape.
  CHECK(kernel_need(KernelLayout(module, "volta_multiply")).instruction == nullptr);
  CHECK_NOTHROW(
      check_architecture(KernelLayout(module, "volta_multiply"), ComputeCapability::sm_70));
}

TEST_CASE("architecture: tensor-core instructions need 32-lane warps", "[tensor]") {
  const Module module = parse_ptx(k_ptx, "arch.ptx");
  for (const char* kernel : {"plain", "via_call", "multiply"})
    CHECK_NOTHROW(check_warp_size(KernelLayout(module, kernel), 32));
  CHECK_NOTHROW(check_warp_size(KernelLayout(module, "plain"), 64));
  CHECK_THROWS_WITH(check_warp_size(KernelLayout(module, "via_call"), 64),
                    Contains("arch.ptx:8: kernel 'via_call' (in 'rows') uses a tensor-core "
                             "instruction ('ldmatrix") &&
                        Contains("whose fragments need a warp of 32 lanes; this GPU's warps "
                                 "have 64 (gpu.warp_size)"));
  CHECK_THROWS_WITH(check_warp_size(KernelLayout(module, "volta_multiply"), 16),
                    Contains("arch.ptx:37: kernel 'volta_multiply' uses a tensor-core"));
}

TEST_CASE("architecture: redux.sync and the bf16 and f16x2 conversions need 8.0", "[tensor]") {
  const Module module = parse_ptx(R"(.version 7.0
.target sm_80
.address_size 64
.visible .entry reduce()
{
  .reg .b32 %r<3>;
  redux.sync.add.u32 %r1, %r2, -1;
  exit;
}
.visible .entry to_bf16()
{
  .reg .b16 %h<2>;
  .reg .f32 %f<2>;
  cvt.rn.bf16.f32 %h1, %f1;
  exit;
}
.visible .entry pack()
{
  .reg .b32 %r<2>;
  .reg .f32 %f<3>;
  cvt.rn.f16x2.f32 %r1, %f1, %f2;
  exit;
}
.visible .entry to_f16()
{
  .reg .b16 %h<2>;
  .reg .f32 %f<2>;
  cvt.rn.f16.f32 %h1, %f1;
  exit;
}
)",
                                  "ampere.ptx");
  for (const char* kernel : {"reduce", "to_bf16", "pack"}) {
    INFO(kernel);
    CHECK(kernel_need(KernelLayout(module, kernel)).capability == ComputeCapability::sm_80);
  }
  CHECK(kernel_need(KernelLayout(module, "to_f16")).instruction == nullptr);
  CHECK_THROWS_WITH(check_architecture(KernelLayout(module, "reduce"), ComputeCapability::sm_75),
                    Contains("ampere.ptx:7: kernel 'reduce' uses redux.sync ('redux.sync") &&
                        Contains("needs compute capability 8.0 (sm_80, Ampere) or later; this "
                                 "GPU is 7.5 (sm_75, Turing)"));
  CHECK_THROWS_WITH(check_architecture(KernelLayout(module, "to_bf16"), ComputeCapability::sm_75),
                    Contains("uses cvt to or from bf16, or to f16x2"));
}

TEST_CASE("architecture: tanh and half ex2 need 7.5; half min/max and bf16 arithmetic 8.0",
          "[tensor]") {
  struct Case {
    const char* kernel;
    const char* instruction;
    ComputeCapability needs;
  };
  const std::vector<Case> cases = {
      {"tangent", "tanh.approx.f32 %f1, %f2;", ComputeCapability::sm_75},
      {"half_exp", "ex2.approx.f16x2 %r1, %r2;", ComputeCapability::sm_75},
      {"float_exp", "ex2.approx.f32 %f1, %f2;", ComputeCapability::sm_70},
      {"half_max", "max.f16x2 %r1, %r2, %r3;", ComputeCapability::sm_80},
      {"bf16_fma", "fma.rn.bf16 %h1, %h2, %h3, %h4;", ComputeCapability::sm_80},
  };
  // One kernel per line from line 4 on: the kernel of case i is on line 4 + i.
  std::string text = ".version 7.0\n.target sm_80\n.address_size 64\n";
  for (const Case& c : cases)
    text += std::string(".visible .entry ") + c.kernel +
            "() { .reg .f32 %f<3>; .reg .b32 %r<4>; .reg .b16 %h<5>; " + c.instruction +
            " exit; }\n";
  const Module module = parse_ptx(text, "newer.ptx");
  for (const Case& c : cases) {
    INFO(c.kernel);
    CHECK(kernel_need(KernelLayout(module, c.kernel)).capability == c.needs);
  }
  CHECK_THROWS_WITH(check_architecture(KernelLayout(module, "tangent"), ComputeCapability::sm_70),
                    Contains("newer.ptx:4: kernel 'tangent' uses tanh.approx ('tanh.approx.f32"));
  CHECK_THROWS_WITH(check_architecture(KernelLayout(module, "half_max"), ComputeCapability::sm_75),
                    Contains("uses min/max on f16, f16x2, bf16 or bf16x2"));
}

TEST_CASE("architecture: errors name the earliest PTX line whatever the order run", "[tensor]") {
  Module module = parse_ptx(R"(.version 7.0
.target sm_80
.address_size 64
.visible .entry two_needs()
{
  .reg .b16 %h<2>;
  .reg .b32 %r<4>;
  .reg .f32 %f<2>;
  cvt.rn.bf16.f32 %h1, %f1;
  redux.sync.add.u32 %r1, %r2, -1;
  mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%f1, %f1, %f1, %f1}, {%r1, %r2}, {%r3}, {%f1, %f1, %f1, %f1};
  ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%r2, %r3}, [%r1];
  exit;
}
)",
                            "order.ptx");
  // What the load-hoisting pass may do: run the instructions in another order than written.
  std::vector<Instruction>& instructions = module.functions[0].instructions;
  std::reverse(instructions.begin(), instructions.end() - 1);
  const KernelLayout layout(module, "two_needs");
  REQUIRE(kernel_need(layout).instruction != nullptr);
  CHECK(kernel_need(layout).instruction->source_line == 9);
  CHECK_THROWS_WITH(check_architecture(layout, ComputeCapability::sm_75),
                    Contains("order.ptx:9: kernel 'two_needs' uses cvt to or from bf16"));
  CHECK_THROWS_WITH(check_warp_size(layout, 64), Contains("order.ptx:11: kernel 'two_needs' uses "
                                                          "a tensor-core instruction ('mma.sync"));
}
