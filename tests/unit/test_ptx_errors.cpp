#include <catch2/catch.hpp>
#include <cstring>
#include <initializer_list>

#include "modules/common/errors.h"
#include "modules/gpu/simt/kernel_layout.h"
#include "tests/unit/ptx_test_util.h"

using namespace ohmvp::gpu;
using namespace ohmvp::gpu::test;

namespace {

// The message of the ConfigError that parsing `text` as `file` gives, or "no error".
std::string parse_error(const std::string& text, const std::string& file) {
  try {
    parse_ptx(text, file);
  } catch (const ohmvp::ConfigError& error) {
    return error.what();
  }
  return "no error";
}

// A module of snippet.ptx whose directives (line 4 on) are `text`.
std::string module_error(const std::string& text) {
  return parse_error(snippet_text(text), "snippet.ptx");
}

// A kernel whose body starts at line 8 of snippet.ptx.
std::string error_of(const std::string& body) {
  return module_error(
      ".visible .entry k(.param .u64 p)\n{\n.reg .pred %p<2>;\n"
      ".reg .b32 %r<4>; .reg .b16 %rs<4>; .reg .b64 %rd<4>; .reg .f32 %f<4>; .reg .f64 %fd<4>; "
      ".reg .u32 %u<4>; .reg .s64 %sd<4>; .reg .f16x2 %hh<4>;\n" +
      body + "\n}\n");
}

// Each of `bodies` loads as the body of error_of's kernel (the one that does not is named).
void check_all_load(std::initializer_list<const char*> bodies) {
  for (const char* body : bodies) {
    INFO(body);
    CHECK(error_of(body) == "no error");
  }
}

}  // namespace

TEST_CASE("ptx errors: unknown instructions and modifiers name file, line and text", "[ptx]") {
  CHECK(error_of("foo.u32 %r1, %r2;") ==
        "snippet.ptx:8: unknown instruction 'foo' in 'foo.u32 %r1, %r2;'");
  // Modifiers ptxas refuses: two roundings, fma without one, .ftz of an integer.
  CHECK_THAT(error_of("fma.rn.rz.f32 %f1, %f2, %f3, %f1;"),
             Catch::Contains("more than one rounding modifier in 'fma.rn.rz.f32'"));
  CHECK_THAT(error_of("fma.f32 %f1, %f2, %f3, %f1;"),
             Catch::Contains("fma needs a rounding modifier"));
  CHECK_THAT(error_of("add.ftz.u32 %r1, %r2, %r3;"),
             Catch::Contains("add.ftz takes a float type, got .u32"));
  CHECK(error_of("add.rn.ftz.f32 %f1, %f2, %f3;") == "no error");
  // A missing ';' or ':' is named, not the next line's words taken for operands.
  CHECK_THAT(
      error_of("exit\n  mov.u32 %r1, %r2;"),
      Catch::Contains("snippet.ptx:8: expected ';' after 'exit', found 'mov.u32' on line 9"));
  CHECK_THAT(error_of("ret"),
             Catch::Contains("snippet.ptx:8: expected ';' after 'ret', found '}'"));
  CHECK_THAT(error_of("membar.gl\n@%p1 bra $L;\n$L:\nret;"),
             Catch::Contains("expected ';' after 'membar.gl', found '@' on line 9"));
  CHECK_THAT(
      error_of("bra $L;\n$L\nret;"),
      Catch::Contains("snippet.ptx:9: unknown instruction '$L' (a label is followed by ':')"));
  // Operands may go on over lines.
  CHECK(error_of("mov.u32\n  %r1,\n  %r2;") == "no error");
  // Operand selectors are refused as such, not as undeclared registers.
  CHECK_THAT(error_of("mad.lo.s32 %r1, %r3.b0, %r2, %r1;"),
             Catch::Contains("operand selectors and destination masks ('%r3.b0') are not "
                             "supported"));
  CHECK(error_of("mov.u32 %r1, 1;\n  add.wrap.u32 %r1, %r2, %r3;") ==
        "snippet.ptx:9: unknown modifier '.wrap' of add in 'add.wrap.u32 %r1, %r2, %r3;'");
  CHECK(error_of("ld.global.v8.u32 %r1, [p];") ==
        "snippet.ptx:8: unknown modifier '.v8' of ld in 'ld.global.v8.u32 %r1, [p];'");
  CHECK(error_of("wmma.load.a.sync.aligned.row.m16n16k16.f16 {%r1}, [p];") ==
        "snippet.ptx:8: the A fragment has 8 registers, got 1 in "
        "'wmma.load.a.sync.aligned.row.m16n16k16.f16 {%r1}, [p];'");
  CHECK(error_of("shfl.down.b32 %r1, %r2, 1, 31;").find("shfl without .sync is not supported") !=
        std::string::npos);
  CHECK(error_of("atom.global.inc.s64 %r1, [p], 1;").find("atom.inc.s64 is no PTX atomic") !=
        std::string::npos);
  CHECK(error_of("mul.u32 %r1, %r2, %r3;").find("mul.u32 needs .lo, .hi or .wide") !=
        std::string::npos);
}

namespace {

// The module loads; the message of the refusal to lay out (and so run) kernel `k` of it.
std::string kernel_refusal(const std::string& body) {
  const Module module =
      parse_ptx(snippet_text(".visible .entry k(.param .u64 p)\n{\n.reg .pred %p<2>;\n"
                             ".reg .b32 %r<4>; .reg .f32 %f<4>;\n" +
                             body + "\n}\n"),
                "snippet.ptx");
  try {
    KernelLayout layout(module, "k");
  } catch (const ohmvp::ConfigError& error) {
    return error.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("ptx errors: cvt roundings, .pred types and special-register widths as ptxas has them",
          "[ptx]") {
  // A float rounding where precision may be lost, an integer one from float to integer.
  CHECK_THAT(error_of("cvt.s32.f32 %r1, %f1;"),
             Catch::Contains("snippet.ptx:8: cvt.s32.f32 needs an integer rounding modifier "
                             "(.rni, .rzi, .rmi or .rpi)"));
  CHECK_THAT(error_of("cvt.f32.s32 %f1, %r1;"),
             Catch::Contains("cvt.f32.s32 needs a rounding modifier (.rn, .rz, .rm or .rp)"));
  CHECK_THAT(error_of("cvt.f32.f64 %f1, %fd1;"), Catch::Contains("cvt.f32.f64 needs a rounding"));
  CHECK_THAT(error_of("cvt.rn.s32.s64 %r1, %rd1;"),
             Catch::Contains("cvt.s32.s64 takes no .rn (an integer conversion does not round)"));
  CHECK_THAT(error_of("cvt.rn.f64.f32 %fd1, %f1;"),
             Catch::Contains("cvt.f64.f32 takes no .rn (widening a float is exact)"));
  CHECK_THAT(error_of("cvt.rn.f32.f32 %f1, %f2;"),
             Catch::Contains("cvt.f32.f32 takes no .rn (a float of the same size rounds only"));
  CHECK_THAT(error_of("cvt.rn.s32.f32 %r1, %f1;"), Catch::Contains("needs an integer rounding"));
  CHECK_THAT(error_of("cvt.rni.f32.s32 %f1, %r1;"), Catch::Contains("needs a rounding modifier"));
  check_all_load({"cvt.rzi.s32.f32 %r1, %f1;", "cvt.rn.f32.s32 %f1, %r1;",
                  "cvt.rn.f32.f64 %f1, %fd1;", "cvt.f64.f32 %fd1, %f1;", "cvt.f32.f32 %f1, %f2;",
                  "cvt.rni.f32.f32 %f1, %f2;", "cvt.sat.s32.s64 %r1, %rd1;",
                  "cvt.u64.u32 %rd1, %r1;"});
  // Only the predicate instructions take .pred.
  CHECK_THAT(error_of("ld.global.pred %p1, [%rd1];"),
             Catch::Contains("ld takes no .pred (only mov, and, or, xor, not, vote and bar.red"));
  CHECK_THAT(error_of("st.global.pred [%rd1], %p1;"), Catch::Contains("st takes no .pred"));
  CHECK_THAT(error_of("add.pred %p1, %p0, %p1;"), Catch::Contains("add takes no .pred"));
  check_all_load({"and.pred %p1, %p0, %p1;", "not.pred %p1, %p0;",
                  "vote.sync.all.pred %p1, %p0, -1;", "bar.red.and.pred %p1, 0, %p0;"});
  // %clock64 and %globaltimer are 64-bit, %gridid either, the rest 32 (or 16 for %tid and kin).
  CHECK_THAT(error_of("mov.u32 %r1, %clock64;"),
             Catch::Contains("mov.u32 cannot read %clock64, a .u64 register"));
  CHECK_THAT(error_of("mov.u64 %rd1, %tid.x;"),
             Catch::Contains("mov.u64 cannot read %tid, a .u32 register"));
  CHECK_THAT(error_of("mov.u16 %rs1, %laneid;"), Catch::Contains("cannot read %laneid"));
  CHECK_THAT(error_of("mov.f32 %f1, %tid.x;"),
             Catch::Contains("mov.f32 cannot take %tid: a special register is read only as an "
                             "integer"));
  CHECK_THAT(error_of("cvt.rn.f32.u32 %f1, %tid.x;"),
             Catch::Contains("cvt.f32.u32 cannot take %tid"));
  check_all_load({"mov.u64 %rd1, %clock64;", "mov.u32 %r1, %gridid;", "mov.u64 %rd1, %gridid;",
                  "mov.u16 %rs1, %ctaid.y;", "cvt.u32.u64 %r1, %clock64;",
                  "cvt.u64.u32 %rd1, %laneid;"});
}

TEST_CASE("ptx errors: a variable named as an address is in the space the instruction reaches",
          "[ptx]") {
  const auto error_in = [](const std::string& instruction) {
    return module_error(
        ".const .align 4 .b32 cv[4];\n.global .align 4 .b32 gv[4];\n"
        ".visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<2>;\n.reg .b64 %rd<2>;\n"
        ".shared .align 4 .b32 sv[4];\n.local .align 4 .b32 lv[4];\n.param .b32 arg;\n" +
        instruction + "\nret;\n}\n");
  };
  // As ptxas has it: generic accesses reach .global, .shared and .local variables.
  for (const char* fine :
       {"ld.u32 %r1, [gv];", "st.global.u32 [gv], %r1;", "ld.u32 %r1, [sv];",
        "st.shared.u32 [sv], %r1;", "st.u32 [lv], %r1;", "ld.local.u32 %r1, [lv];",
        "ld.const.u32 %r1, [cv];", "ld.param.u64 %rd1, [p];", "st.param.b32 [arg], %r1;",
        "atom.shared.add.u32 %r1, [sv], 1;"}) {
    INFO(fine);
    CHECK(error_in(fine) == "no error");
  }
  CHECK(error_in("ld.u32 %r1, [cv];") ==
        "snippet.ptx:13: 'cv' is a .const variable, which ld without a state space does not "
        "reach (give .const) in 'ld.u32 %r1, [cv];'");
  CHECK_THAT(error_in("ld.global.u32 %r1, [sv];"),
             Catch::Contains("'sv' is a .shared variable, which ld.global does not reach"));
  CHECK_THAT(error_in("ld.u64 %rd1, [p];"),
             Catch::Contains("'p' is a .param variable, which ld without a state space"));
  CHECK_THAT(error_in("st.const.u32 [cv], %r1;"),
             Catch::Contains("'cv' is a .const variable: .const memory is read only"));
  CHECK_THAT(error_in("st.param.u64 [p], %rd1;"),
             Catch::Contains("'p' is a .param variable, an input of the function: it cannot be "
                             "written"));
}

TEST_CASE("ptx errors: PTX the model does not run refuses the kernels that reach it", "[ptx]") {
  CHECK(kernel_refusal("vadd4.u32.u32.u32.sat %r1, %r2, %r3, %r1;") ==
        "snippet.ptx:8: kernel 'k' cannot run 'vadd4.u32.u32.u32.sat %r1, %r2, %r3, %r1;': "
        "'vadd4' (a SIMD video instruction) is not supported; docs/gpu_ptx.md lists the "
        "instructions this model runs");
  CHECK_THAT(kernel_refusal("cp.async.ca.shared.global [p], [p], 16;"),
             Catch::Contains("'cp' (an asynchronous copy or memory barrier object (sm_80 and "
                             "later)) is not supported"));
  CHECK_THAT(kernel_refusal("elect.sync %r1|%p1, 0xffffffff;"),
             Catch::Contains("'elect' (a warp leader election (sm_90)) is not supported"));
  CHECK_THAT(kernel_refusal("@%p1 min.NaN.f32 %f1, %f2, %f3;"),
             Catch::Contains("cannot run '@%p1 min.NaN.f32 %f1, %f2, %f3;': modifier '.NaN' of "
                             "min (PTX ISA 7.0, sm_80) is not supported"));
  CHECK_THAT(kernel_refusal("max.relu.s32 %r1, %r2, %r3;"),
             Catch::Contains("modifier '.relu' of max (PTX ISA 8.0, sm_90) is not supported"));
  CHECK_THAT(kernel_refusal("min.u16x2 %r1, %r2, %r3;"),
             Catch::Contains("type '.u16x2' of min (PTX ISA 8.0, sm_90) is not supported"));
  CHECK_THAT(
      kernel_refusal("fence.proxy.alias;"),
      Catch::Contains(
          "modifier '.proxy' of fence (PTX ISA 7.5 and later, sm_70 and later) is not supported"));
  CHECK_THAT(kernel_refusal("ld.mmio.relaxed.sys.global.u32 %r1, [p];"),
             Catch::Contains("modifier '.mmio' of ld (PTX ISA 8.2, sm_70) is not supported"));
  CHECK_THAT(kernel_refusal("atom.global.v2.f32.add {%f1, %f2}, [p], {%f2, %f3};"),
             Catch::Contains("vector '.v2' of atom (PTX ISA 8.1, sm_90) is not supported"));
  CHECK_THAT(kernel_refusal("st.mmio.relaxed.sys.global.u32 [p], %r1;"),
             Catch::Contains("modifier '.mmio' of st (PTX ISA 8.2, sm_70) is not supported"));
  CHECK_THAT(kernel_refusal("red.global.v4.f32.add [p], {%f1, %f2, %f3, %f1};"),
             Catch::Contains("vector '.v4' of red (PTX ISA 8.1, sm_90) is not supported"));
  CHECK_THAT(kernel_refusal("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes"
                            ".add.u32 [p], %r1, [p];"),
             Catch::Contains("modifier '.async' of red (PTX ISA 8.1, sm_90) is not supported"));
  CHECK_THAT(kernel_refusal("atom.global.add.noftz.bf16 %r1, [p], %r2;"),
             Catch::Contains("atom.add.bf16 (PTX ISA 7.8, sm_90) is not supported"));
  CHECK_THAT(kernel_refusal("red.global.add.noftz.bf16x2 [p], %r1;"),
             Catch::Contains("red.add.bf16x2 (PTX ISA 7.8, sm_90) is not supported"));
  // Operands of any shape: surface reductions take a bracketed handle and coordinate vector.
  CHECK_THAT(kernel_refusal("sured.b.add.1d.u32.trap [p, {%r2}], %r1;"),
             Catch::Contains("'sured' (a surface reduction or query) is not supported"));
  // Unknown PTX still fails the load.
  CHECK(error_of("vadd9.u32 %r1, %r2, %r3;").find("unknown instruction 'vadd9'") !=
        std::string::npos);
}

TEST_CASE("ptx errors: a module's other kernels run beside one it cannot", "[ptx]") {
  const Module module = parse_ptx(snippet_text(R"(.func video(.param .b32 x)
{
.reg .b32 %r<3>;
ld.param.b32 %r1, [x];
vadd4.u32.u32.u32.add %r2, %r1, %r1, %r1;
ret;
}
.visible .entry calls_video()
{
.reg .b32 %r<2>;
mov.u32 %r1, 0;
{
.param .b32 p;
st.param.b32 [p], %r1;
call.uni video, (p);
}
ret;
}
.visible .entry plain()
{
ret;
}
)"),
                                  "snippet.ptx");
  CHECK_NOTHROW(KernelLayout(module, "plain"));
  // Called through a pointer first (which alone would only fault if it ran), then directly.
  const Module both = parse_ptx(snippet_text(R"(.func (.param .b32 r) video(.param .b32 x)
{
.reg .b32 %r<3>;
ld.param.b32 %r1, [x];
vadd4.u32.u32.u32.sat %r2, %r1, %r1, %r1;
st.param.b32 [r], %r2;
ret;
}
.visible .entry k()
{
.reg .b32 %r<2>;
.reg .b64 %rd<2>;
mov.u32 %r1, 0;
mov.u64 %rd1, video;
{
.param .b32 p;
st.param.b32 [p], %r1;
.param .b32 q;
prototype_0 : .callprototype (.param .b32 _) _ (.param .b32 _);
call (q), %rd1, (p), prototype_0;
}
{
.param .b32 p;
st.param.b32 [p], %r1;
.param .b32 q;
call (q), video, (p);
}
ret;
}
)"),
                                "snippet.ptx");
  CHECK_THROWS_WITH(KernelLayout(both, "k"), Catch::Contains("kernel 'k' cannot run 'vadd4"));
  CHECK_THROWS_WITH(KernelLayout(module, "calls_video"),
                    "snippet.ptx:8: kernel 'calls_video' cannot run 'vadd4.u32.u32.u32.add "
                    "%r2, %r1, %r1, %r1;' in 'video': 'vadd4' (a SIMD video instruction) is "
                    "not supported; docs/gpu_ptx.md lists the instructions this model runs");
}

TEST_CASE("ptx errors: testp, redux.sync and prmt modes", "[ptx]") {
  CHECK(error_of("testp.f32 %p1, %r1;").find("testp needs a property") != std::string::npos);
  CHECK(error_of("testp.finite.u32 %p1, %r1;").find("testp takes .f32 or .f64, got .u32") !=
        std::string::npos);
  CHECK(error_of("testp.finite.nan.f32 %p1, %r1;").find("unknown modifier '.nan' of testp") !=
        std::string::npos);
  CHECK(error_of("redux.add.s32 %r1, %r2, -1;").find("redux without .sync is not supported") !=
        std::string::npos);
  CHECK(error_of("redux.sync.s32 %r1, %r2, -1;").find("redux.sync needs an operation") !=
        std::string::npos);
  CHECK(error_of("redux.sync.inc.u32 %r1, %r2, -1;").find("unknown modifier '.inc' of redux") !=
        std::string::npos);
  CHECK(error_of("redux.sync.and.u32 %r1, %r2, -1;").find("redux.sync.and takes .b32, got .u32") !=
        std::string::npos);
  CHECK(error_of("redux.sync.add.b32 %r1, %r2, -1;")
            .find("redux.sync.add takes .u32 or .s32, got .b32") != std::string::npos);
  CHECK(error_of("match.any.b32 %r1, %r2, -1;").find("match without .sync is not supported") !=
        std::string::npos);
  CHECK(error_of("match.sync.b32 %r1, %r2, -1;").find("match.sync needs a mode (.any, .all)") !=
        std::string::npos);
  CHECK(error_of("match.any.sync.u32 %r1, %r2, -1;").find("match.sync takes .b32 or .b64") !=
        std::string::npos);
  CHECK(error_of("match.any.sync.b32 %r1|%p1, %r2, -1;").find("operand 1 cannot be 'd|p'") !=
        std::string::npos);
  CHECK(
      error_of("match.all.sync.b64 %rd1, %rd2, -1;").find("operand 1 '%rd1' is a .b64 register") !=
      std::string::npos);
  CHECK(error_of("fns.b64 %rd1, %rd2, 0, 1;").find("fns takes .b32, got .b64") !=
        std::string::npos);
  CHECK(error_of("prmt.b32.f4e.b4e %r1, %r2, %r3, 1;").find("unknown modifier '.b4e' of prmt") !=
        std::string::npos);
  CHECK(error_of("prmt.b32.fwd %r1, %r2, %r3, 1;").find("unknown modifier '.fwd' of prmt") !=
        std::string::npos);
}

TEST_CASE("ptx errors: lop3, dp4a, dp2a, isspacep and 0 in a vector", "[ptx]") {
  const auto says = [](const std::string& body, const std::string& text) {
    INFO(body);
    const std::string error = error_of(body);
    CHECK_THAT(error, Catch::Matchers::Contains(text));
  };
  says("lop3.b64 %rd1, %rd2, %rd3, %rd1, 0x96;", "lop3 takes .b32, got .b64");
  says("bar.sync 16;", "barrier 16: expected 0 to 15 (a CTA has 16 barriers)");
  says("bar.red.popc.u32 %r1, 16, %p1;", "barrier 16: expected 0 to 15");
  says("lop3.b32 %r1, %r2, %r3, %r1, %r2;", "operand 5 of lop3 cannot be a register");
  says("dp4a.u32 %r1, %r2, %r3, %r1;", "dp4a takes 2 type suffixes, got 1");
  says("dp4a.f32.u32 %r1, %r2, %r3, %r1;", "dp4a takes .u32 or .s32 for a and b, got .f32");
  says("dp2a.u32.s32 %r1, %r2, %r3, %r1;", "dp2a needs .lo or .hi");
  says("mad24.lo.sat.s32 %r1, %r2, %r3, %r1;", "mad24 saturates only as mad24.hi.sat.s32");
  says("mad24.hi.sat.u32 %r1, %r2, %r3, %r1;", "mad24 saturates only as mad24.hi.sat.s32");
  says("mul24.hi.sat.s32 %r1, %r2, %r3;", "unknown modifier '.sat' of mul24");
  says("dp4a.u32.s32 %r1, %r2, %r3, %rd1;", "operand 4 '%rd1' is a .b64 register, expected a .s32");
  says("isspacep %p1, %rd1;", "isspacep needs a state space");
  says("vabsdiff4.u32.u32 %r1, %r2, %r3, %r1;", "vabsdiff4 takes 3 type suffixes, got 2");
  says("vabsdiff2.f32.u32.u32 %r1, %r2, %r3, %r1;", "takes .u32 or .s32 for d, a and b, got .f32");
  says("vabsdiff4.u32.u32.u32.min %r1, %r2, %r3, %r1;", "unknown modifier '.min' of vabsdiff4");
  says("isspacep.tex %p1, %rd1;", "unknown modifier '.tex' of isspacep");
  says("isspacep.global %r1, %rd1;", "operand 1 '%r1' must be a predicate register");
  says("isspacep.global %p1, %rs1;", "operand 2 '%rs1' is a .b16 register, expected a .b32");
  says("mov.b32 %r1, {1, %rs1};", "vector elements must be registers or 0, found '1'");
  says("st.global.v2.u32 [p], {0, %r1};", "a vector element may be 0 only in mov's parts");
}

TEST_CASE("ptx errors: function addresses and indirect calls", "[ptx]") {
  const std::string function = ".func (.param .b32 r) f(.param .b32 a)\n{\nret;\n}\n";
  const auto kernel_error = [&](const std::string& body) {
    return module_error(function + ".visible .entry k()\n{\n.reg .b64 %rd<2>; .reg .b32 %r<2>;\n" +
                        ".param .b32 p; .param .b32 q;\n" + body + "\n}\n");
  };
  CHECK_THAT(kernel_error("mov.u64 %rd1, f;"), Catch::Matches("no error"));
  CHECK_THAT(kernel_error("mov.u32 %r1, f;"),
             Catch::Contains("operand 2 of mov cannot be a function"));
  CHECK_THAT(kernel_error("proto: .callprototype (.param .b32 _) _ (.param .b32 _);\n"
                          "call (q), %r1, (p), proto;"),
             Catch::Contains("an indirect call takes a 64-bit register holding a function's "
                             "address, '%r1' is .b32"));
  CHECK_THAT(kernel_error("call (q), %rd1, (p);"),
             Catch::Contains("an indirect call ends in its .callprototype label, found ';'"));
  CHECK_THAT(kernel_error("proto: .callprototype (.param .b32 _) _ (.param .b32 _);\n"
                          "call (q), f, (p), proto;"),
             Catch::Contains("a call prototype belongs to an indirect call"));
  CHECK_THAT(module_error(".global .u64 pointers[1] = {x};\n"),
             Catch::Contains("unknown function or variable 'x' in the initialiser of 'pointers'"));
  CHECK_THAT(module_error(function + ".global .u32 narrow[1] = {f};\n"),
             Catch::Contains("an address in an initialiser of 4-byte elements; addresses take 8 "
                             "bytes"));
}

TEST_CASE("ptx errors: addresses an initialiser cannot hold, unknown variable attributes",
          "[ptx]") {
  CHECK_THAT(
      module_error(".global .align 8 .u64 p = generic(nowhere);\n"),
      Catch::Contains("snippet.ptx:4: unknown variable 'nowhere' in the initialiser of 'p'"));
  CHECK_THAT(module_error(".shared .align 4 .b8 s[8];\n.global .align 8 .u64 p = generic(s);\n"),
             Catch::Contains("snippet.ptx:5: the initialiser of 'p' takes the address of 's', a "
                             ".shared variable; only .global and .const variables have addresses "
                             "before a launch"));
  CHECK_THAT(module_error(".global .align 4 .b8 a[8];\n.global .align 4 .u32 p = generic(a);\n"),
             Catch::Contains("snippet.ptx:5: an address in an initialiser of 4-byte elements"));
  CHECK_THAT(
      module_error(".global .align 4 .b8 a[8];\n.global .u8 p[2] = {0xF0(generic(a)), 0};\n"),
      Catch::Contains("address mask 0xF0 is not 0xFF shifted by whole bytes"));
  CHECK_THAT(module_error(".global .align 4 .b8 a[8];\n.global .u64 p = generic(a)+;\n"),
             Catch::Contains("snippet.ptx:5: expected an offset"));
  CHECK_THAT(module_error(".global .attribute(.unified) .u32 v;\n"),
             Catch::Contains("snippet.ptx:4: unknown variable attribute '.unified' (.managed is "
                             "known)"));
}

TEST_CASE("ptx errors: operands", "[ptx]") {
  CHECK(error_of("mov.u32 %r9, 1;") ==
        "snippet.ptx:8: undeclared register '%r9' in 'mov.u32 %r9, 1;'");
  // A file cut short after a register's prefix.
  CHECK(module_error(".visible .entry k()\n{\n.reg .b32 %r<4>;\nmov.u32 %r1, %r") ==
        "snippet.ptx:7: the file ends inside this instruction, at '%r' (is it cut short?) in "
        "'mov.u32 %r1, %r'");
  CHECK(error_of("bra.uni NOWHERE;") ==
        "snippet.ptx:8: unknown label 'NOWHERE' in 'bra.uni NOWHERE;'");
  CHECK(error_of("ld.global.u32 %r1, [missing];") ==
        "snippet.ptx:8: unknown symbol 'missing' in 'ld.global.u32 %r1, [missing];'");
  CHECK(error_of("add.u32 %r1, %r2;") ==
        "snippet.ptx:8: expected 3 operands for add, got 2 in 'add.u32 %r1, %r2;'");
  CHECK(error_of("add.u32 %r1, %r2, [p];") ==
        "snippet.ptx:8: operand 3 of add cannot be an address in 'add.u32 %r1, %r2, [p];'");
  CHECK(error_of("add.u32 %r1, %r2, 12z;") ==
        "snippet.ptx:8: bad integer literal '12z' in 'add.u32 %r1, %r2, 12z;'");
  CHECK(error_of("add.u32 %r1, %r2, 1.5;") ==
        "snippet.ptx:8: floating-point literal '1.5' for an integer operand in 'add.u32 %r1, %r2, "
        "1.5;'");
  CHECK(error_of("add.u16 %rs1, %rs2, 70000;").find("does not fit") != std::string::npos);
  CHECK(error_of("mov.f32 %r1, 0f3F80;") ==
        "snippet.ptx:8: bad floating-point literal '0f3F80' in 'mov.f32 %r1, 0f3F80;'");
  CHECK(error_of("add.u32 %r1, %p1, 1;") ==
        "snippet.ptx:8: operand 2 '%p1' is a predicate register, expected a .u32 value in "
        "'add.u32 %r1, %p1, 1;'");
  CHECK(error_of("@%r1 ret;") ==
        "snippet.ptx:8: guard '%r1' is not a predicate register in '@%r1 ret;'");
  CHECK(error_of("add.u32 %r1, !%r2, 1;").find("cannot be negated") != std::string::npos);
  CHECK(error_of("ld.global.v2.u32 {%r1, %r2, %r3}, [p];").find("vector operand has 3 elements") !=
        std::string::npos);
  CHECK(error_of("mov.u32 %r1, %tid;").find("%tid needs .x, .y or .z") != std::string::npos);
  CHECK(error_of("mov.u32 %r1, %envreg32;") ==
        "snippet.ptx:8: undeclared register '%envreg32' in 'mov.u32 %r1, %envreg32;'");
}

// Each case here was also put to ptxas (CUDA 13, sm_75), which agrees, except that it takes a
// predicate register inside a vector, which the model refuses.
TEST_CASE("ptx errors: a register's declared type agrees with its place", "[ptx]") {
  auto accepted = [](const std::string& body) { return error_of(body) == "no error"; };
  CHECK(error_of("add.f32 %f1, %rd1, %f2;") ==
        "snippet.ptx:8: operand 2 '%rd1' is a .b64 register, expected a .f32 value in "
        "'add.f32 %f1, %rd1, %f2;'");
  CHECK(error_of("add.f32 %f1, %u1, %f2;") ==
        "snippet.ptx:8: operand 2 '%u1' is a .u32 register, expected a .f32 value in "
        "'add.f32 %f1, %u1, %f2;'");
  CHECK(error_of("add.s32 %r1, %f1, %r2;").find("'%f1' is a .f32 register") != std::string::npos);
  CHECK(error_of("add.s32 %rd1, %r1, %r2;").find("'%rd1' is a .b64 register") != std::string::npos);
  CHECK(error_of("mov.u32 %r1, %rd1;").find("expected a .u32 value") != std::string::npos);
  CHECK(error_of("setp.lt.f64 %p1, %f1, %f2;").find("'%f1' is a .f32 register, expected a .f64") !=
        std::string::npos);
  CHECK(error_of("selp.b32 %r1, %r2, %r3, %r1;").find("operand 4 '%r1' must be a predicate") !=
        std::string::npos);
  CHECK(error_of("ld.global.s32 %f1, [p];").find("'%f1' is a .f32 register") != std::string::npos);
  CHECK(error_of("ld.global.f32 %fd1, [p];").find("'%fd1' is a .f64 register") !=
        std::string::npos);
  CHECK(error_of("st.global.u32 [p], %rs1;").find("'%rs1' is a .b16 register") !=
        std::string::npos);
  CHECK(error_of("cvt.rn.f32.s32 %f1, %f2;").find("'%f2' is a .f32 register, expected a .s32") !=
        std::string::npos);
  CHECK(error_of("shl.b32 %r1, %r2, %rd1;").find("operand 3 '%rd1'") != std::string::npos);
  // Bit-size registers stand for any type of their size; integers of one size for each other.
  CHECK(accepted("add.f32 %r1, %r2, %f1;"));
  CHECK(accepted("add.s32 %u1, %r1, %u2;"));
  CHECK(accepted("and.b32 %f1, %f2, %u1;"));
  CHECK(accepted("add.u32 %hh1, %hh2, %u1;"));
  CHECK(accepted("add.f16x2 %r1, %hh1, %r2;"));
  // ld, st and cvt take wider registers (chopped or extended); a float type a bit-size one only.
  CHECK(accepted("ld.global.u8 %r1, [%rd3];"));
  CHECK(accepted("ld.global.s16 %sd1, [%rd3];"));
  CHECK(accepted("ld.global.f32 %rd1, [%rd3];"));
  CHECK(accepted("st.global.b16 [%rd3], %f1;"));
  CHECK(accepted("cvt.u16.u32 %r1, %rd1;"));
  CHECK(accepted("cvt.rn.f16.f32 %rs1, %f1;"));
  CHECK(error_of("ld.global.u16 %f1, [p];").find("'%f1' is a .f32 register") != std::string::npos);
  // Vectors: mov's parts are bit-size; ld/st/tex read one type from the registers.
  CHECK(accepted("mov.b64 %rd1, {%r1, %f1};"));
  CHECK(accepted("mov.b32 {%rs1, %rs2}, %f1;"));
  CHECK(
      error_of("mov.b64 %rd1, {%rs1, %rs2};").find("'%rs1' is a .b16 register, expected a .b32") !=
      std::string::npos);
  CHECK(accepted("ld.global.v2.f32 {%r1, %f1}, [%rd3];"));
  CHECK(accepted("ld.global.v2.f32 {%u1, %u2}, [%rd3];"));
  CHECK(accepted("ld.global.v2.u16 {%r1, %u1}, [%rd3];"));
  CHECK(error_of("ld.global.v2.s32 {%f1, %f2}, [p];") ==
        "snippet.ptx:8: operand 1 is a vector of .f32 registers, expected .s32 values in "
        "'ld.global.v2.s32 {%f1, %f2}, [p];'");
  CHECK(error_of("st.global.v2.f32 [p], {%fd1, %fd2};").find("vector of .f64 registers") !=
        std::string::npos);
  CHECK(error_of("ld.global.v2.b32 {%r1, %rd1}, [p];").find("mixes registers of different sizes") !=
        std::string::npos);
  CHECK(error_of("ld.global.v2.b32 {%r1, %p1}, [p];").find("holds predicate register '%p1'") !=
        std::string::npos);
  // Textures: 1-D, 2-D and 3-D, as many coordinates as dimensions.
  CHECK(accepted("tex.2d.v4.f32.s32 {%f1, %f2, %f3, %f1}, [%rd1, {%r1, %r2}];"));
  CHECK(accepted("tex.3d.v4.f32.s32 {%f1, %f2, %f3, %f1}, [%rd1, {%r1, %r2, %r3, %r3}];"));
  CHECK(error_of("tex.3d.v4.f32.s32 {%f1, %f2, %f3, %f1}, [%rd1, {%r1, %r2}];")
            .find("tex.3d needs 3 coordinates") != std::string::npos);
  // An address's register holds an integer or bits.
  CHECK(error_of("ld.global.f32 %f1, [%f2];") ==
        "snippet.ptx:8: operand 2 '%f2' is a .f32 register; an address needs an integer or "
        "bit-size one in 'ld.global.f32 %f1, [%f2];'");
  CHECK(error_of("st.global.u16 [%p1], %rs2;").find("'%p1' is a .pred register") !=
        std::string::npos);
  CHECK(accepted("ld.shared.u32 %r1, [%r2+4];"));
  CHECK(accepted("ld.global.u32 %r1, [%rd1];"));
  // '_' discards an element written, but a vector that is read cannot hold it.
  CHECK(accepted("ld.global.v2.b32 {%r1, _}, [%rd3];"));
  CHECK(accepted("mov.b64 {%r1, _}, %rd1;"));
  CHECK(error_of("st.global.v2.b32 [p], {%r1, _};") ==
        "snippet.ptx:8: operand 2 is read: its element 2 cannot be '_' in "
        "'st.global.v2.b32 [p], {%r1, _};'");
  CHECK(error_of("mov.b64 %rd1, {_, %r1};").find("operand 2 is read: its element 1") !=
        std::string::npos);
}

TEST_CASE("ptx errors: directives, declarations and calls", "[ptx]") {
  CHECK(module_error(".foo 3;\n") == "snippet.ptx:4: unknown directive '.foo' in '.foo 3;'");
  CHECK(module_error(".global .texref t;\n") ==
        "snippet.ptx:4: texture references (.texref) are not supported; use texture objects in "
        "'.global .texref t;'");
  CHECK(module_error(".global .align 4 .b8 g[2] = {1, 2, 3};\n") ==
        "snippet.ptx:4: initialiser has 3 elements, the variable holds 2 in "
        "'.global .align 4 .b8 g[2] = {1, 2, 3};'");
  CHECK(module_error(".visible .entry k()\n{\n.reg .b32 %r<2>;\n.reg .b32 %r1;\n}\n") ==
        "snippet.ptx:7: register '%r1' is declared twice in this scope in '.reg .b32 %r1;'");
  CHECK(module_error(".visible .entry k(.param .u64 p, .param .u64 p)\n{\n}\n")
            .find("snippet.ptx:4: parameter 'p' is declared twice") != std::string::npos);
  CHECK(module_error(".func (.param .b32 r) f(.param .b32 r)\n{\n}\n")
            .find("'r' is both a return value and a parameter") != std::string::npos);
  CHECK(module_error(".visible .entry k()\n{\n.maxnreg 3;\n}\n")
            .find("unknown directive '.maxnreg' in a function body") != std::string::npos);
  CHECK(module_error(".visible .entry k()\n{\n  call.uni g, ();\n}\n") ==
        "snippet.ptx:6: unknown function 'g' in 'call.uni g, ();'");
  CHECK(module_error(".visible .entry k()\n{\n  ret;\n") ==
        "snippet.ptx:4: function 'k' has no closing '}' in '.visible .entry k()'");
  CHECK(
      module_error(".func f(.param .b32 a)\n{\nret;\n}\n.visible .entry k()\n{\n{\n.param .b32 x;\n"
                   ".param .b32 y;\ncall.uni f, (x, y);\n}\n}\n") ==
      "snippet.ptx:13: call to 'f' passes 2 arguments, it takes 1 in 'call.uni f, (x, y);'");

  // CUDA's limits on constant memory, local memory a thread and kernel parameters.
  CHECK(parse_error(snippet_text(".const .align 4 .b8 big[65537];\n"), "c.ptx") ==
        "c.ptx: .const variables take 65537 bytes; a GPU's constant memory holds 65536");
  CHECK(module_error(".visible .entry k(.param .align 4 .b8 p[40000])\n{\nret;\n}\n") ==
        "snippet.ptx:4: kernel 'k' takes 40000 bytes of parameters; a launch passes at most "
        "32764 in '.visible .entry k(.param .align 4 .b8 p[40000])'");
  CHECK(module_error(".visible .entry k()\n{\n.local .align 4 .b8 l[600000];\nret;\n}\n") ==
        "snippet.ptx:4: 'k' has 600000 bytes of .local variables; a thread may have 524288 in "
        "'.visible .entry k()'");
  CHECK(module_error(".global .b8 g[4294967296][4294967296];\n") ==
        "snippet.ptx:4: array 'g' is too large (more than 2^48 elements) in '.global .b8 "
        "g[4294967296][4294967296];'");
  // A bad line is quoted up to 200 bytes, the problem up to 300.
  const std::string long_name(5000, 'x');
  CHECK(error_of(long_name + ";").size() < 600);

  // A module begins with .version.
  CHECK(parse_error("\n// nothing\n", "raw.ptx") ==
        "raw.ptx: empty: expected PTX beginning with .version");
  CHECK(parse_error("\xEF\xBB\xBF" + snippet_text(""), "bom.ptx") == "no error");
  // Lines may end in CR LF or a lone CR (a comment then ends at the CR); lines still count.
  const std::string bad_line = "// a comment\n.visible .entry k()\n{\n  foo;\n}\n";
  const std::string expected = "eol.ptx:7: unknown instruction 'foo'";
  for (const char* eol : {"\r\n", "\r"}) {
    std::string text = snippet_text(bad_line);
    for (size_t at = text.find('\n'); at != std::string::npos;
         at = text.find('\n', at + std::strlen(eol)))
      text.replace(at, 1, eol);
    INFO("line end " << (eol[1] ? "CR LF" : "CR"));
    CHECK(parse_error(text, "eol.ptx").rfind(expected, 0) == 0);
  }
  CHECK(parse_error(".target sm_75\n.version 9.0\n", "raw.ptx") ==
        "raw.ptx:1: expected .version first (every PTX module begins with it), found '.target' in "
        "'.target sm_75'");
  CHECK(parse_error(".version 9.0\n.target sm_75\n.version 9.0\n", "raw.ptx")
            .rfind("raw.ptx:3: a second .version", 0) == 0);
  CHECK(parse_error(".version 9.0\n.target sm_75\n.target sm_80\n", "raw.ptx")
            .rfind("raw.ptx:3: a second .target", 0) == 0);
  CHECK(parse_error(".version 9.0\n.target compute_75\n", "raw.ptx")
            .rfind("raw.ptx:2: unknown target 'compute_75': expected sm_NN", 0) == 0);
  CHECK(parse_error(".version 9.0\n.target sm_7x\n", "raw.ptx")
            .rfind("raw.ptx:2: unknown target 'sm_7x'", 0) == 0);
  CHECK_NOTHROW(parse_ptx(".version 9.0\n.target sm_90a\n.address_size 64\n", "raw.ptx"));
  // .target comes next; without .address_size PTX has 32-bit addresses.
  CHECK(parse_error(".version 9.0\n.address_size 64\n", "raw.ptx") ==
        "raw.ptx:2: expected .target after .version (a module names its target next), found "
        "'.address_size' in '.address_size 64'");
  CHECK(parse_error(".version 9.0\n.target sm_75\n.visible .entry k()\n{\nret;\n}\n", "raw.ptx") ==
        "raw.ptx: no .address_size: PTX then has 32-bit addresses, which the model does not run "
        "(nvcc writes .address_size 64 after .target)");
  CHECK(parse_error(snippet_text(".address_size 64\n"), "raw.ptx")
            .rfind("raw.ptx:4: a second .address_size", 0) == 0);

  // A call of a function without a body loads; a launch of a kernel that reaches it fails.
  const Module external = parse_ptx(
      snippet_text(
          ".extern .func helper\n();\n.visible .entry k()\n{\ncall.uni helper, ();\nret;\n}\n"),
      "external.ptx");
  CHECK_THROWS_WITH(KernelLayout(external, "k"),
                    "external.ptx:8: kernel 'k' calls 'helper', which has no body (external "
                    "functions are not supported)");
  // <<<>>> in device code (-rdc) runs; the device runtime's other functions are told as such.
  const Module device_runtime =
      parse_ptx(snippet_text(".extern .func (.param .b32 error) cudaStreamCreateWithFlags\n();\n"
                             ".visible .entry parent()\n{\n.param .b32 error;\n"
                             "call.uni (error), cudaStreamCreateWithFlags, ();\nret;\n}\n"),
                "parent.ptx");
  CHECK_THROWS_WITH(KernelLayout(device_runtime, "parent"),
                    "parent.ptx:9: kernel 'parent' calls 'cudaStreamCreateWithFlags', a device "
                    "runtime function the model does not run (of dynamic parallelism only <<<>>> "
                    "into the NULL, tail-launch and fire-and-forget streams runs)");
  const Module device_launch = parse_ptx(
      snippet_text(".extern .func (.param .b64 buffer) __cudaCDP2GetParameterBufferV2\n();\n"
                   ".visible .entry parent()\n{\n.param .b64 buffer;\n"
                   "call.uni (buffer), __cudaCDP2GetParameterBufferV2, ();\nret;\n}\n"),
      "parent.ptx");
  CHECK(KernelLayout(device_launch, "parent").uses_heap());
}

TEST_CASE("ptx errors: unreadable file names the path", "[ptx]") {
  try {
    load_ptx_file("/nonexistent/dir/kernel.ptx");
    FAIL("loaded");
  } catch (const ohmvp::ConfigError& error) {
    CHECK(std::string(error.what()) ==
          "cannot read PTX file '/nonexistent/dir/kernel.ptx': No such file or directory");
  }
  CHECK_THROWS_WITH(load_ptx_file(OHMVP_SOURCE_DIR),
                    "cannot read PTX file '" OHMVP_SOURCE_DIR "': a folder, not a file");
}

TEST_CASE("ptx errors: surface texture and gather forms the model does not run", "[ptx]") {
  CHECK(error_of("suld.p.2d.b32.trap {%r1}, [%rd1, {%r2, %r3}];") ==
        "snippet.ptx:8: formatted surface accesses (.p) are not supported; raw ones (.b) are in "
        "'suld.p.2d.b32.trap {%r1}, [%rd1, {%r2, %r3}];'");
  CHECK(error_of("tex.2dms.v4.f32.s32 {%f1, %f2, %f3, %f1}, [%rd1, {%r1, %r2, %r3, %r3}];")
            .find("multisample textures (.2dms) are not supported") != std::string::npos);
  CHECK(error_of("suld.b.cube.b32.trap {%r1}, [%rd1, {%r1, %r2, %r3, %r3}];")
            .find("suld has no .cube geometry (.1d .2d .3d .a1d .a2d; a cubemap surface is "
                  "accessed as .a2d)") != std::string::npos);
  CHECK(error_of("tld4.r.1d.v4.f32.f32 {%f1, %f2, %f3, %f1}, [%rd1, {%f1}];")
            .find("tld4 has no .1d geometry (.2d .a2d .cube .acube)") != std::string::npos);
  CHECK(error_of("tex.cube.v4.f32.s32 {%f1, %f2, %f3, %f1}, [%rd1, {%r1, %r2, %r3, %r3}];")
            .find("tex.cube takes .f32 coordinates") != std::string::npos);
  CHECK(error_of("tex.a2d.v4.f32.f32 {%f1, %f2, %f3, %f1}, [%rd1, {%r1, %f2}];")
            .find("tex.a2d needs 3 coordinates") != std::string::npos);
  CHECK(
      error_of("sust.b.a1d.b32.trap [%rd1, {%r1}], {%r1};").find("sust.a1d needs 2 coordinates") !=
      std::string::npos);
  CHECK(error_of("suld.b.2d.v2.b32.trap {%r1}, [%rd1, {%r2, %r3}];")
            .find("suld with .v2 needs 2 data registers") != std::string::npos);
  CHECK(error_of("suld.b.2d.f32.trap {%r1}, [%rd1, {%r2, %r3}];")
            .find("suld takes .b8, .b16, .b32 or .b64 data, got .f32") != std::string::npos);
  CHECK(error_of("sust.b.3d.b32.zero [%rd1, {%r1, %r2}], {%r3};")
            .find("sust.3d needs 3 coordinates") != std::string::npos);
  CHECK(error_of("suld.b.b32.trap {%r1}, [%rd1, {%r2}];")
            .find("suld needs a geometry (.1d, .2d, .3d") != std::string::npos);
  CHECK(error_of("tld4.g.2d.v4.f32.s32 {%f1, %f2, %f3, %f1}, [%rd1, {%r1, %r2}];")
            .find("tld4 takes .f32 coordinates") != std::string::npos);
  CHECK(error_of("tld4.b.2d.v4.f32.f32 {%f1, %f2, %f3, %f1}, [%rd1, {%f1, %f2}];") == "no error");
  // The layered and cubemap forms nvcc writes for tex1DLayered ... surfCubemapwrite.
  check_all_load({"tex.a1d.v4.f32.f32 {%f1, %f2, %f3, %f1}, [%rd1, {%r1, %f2}];",
                  "tex.a2d.v4.f32.f32 {%f1, %f2, %f3, %f1}, [%rd1, {%r1, %f2, %f3, %f3}];",
                  "tex.cube.v4.f32.f32 {%f1, %f2, %f3, %f1}, [%rd1, {%f1, %f2, %f3, %f3}];",
                  "tex.acube.v4.f32.f32 {%f1, %f2, %f3, %f1}, [%rd1, {%r1, %f1, %f2, %f3}];",
                  "tld4.r.a2d.v4.f32.f32 {%f1, %f2, %f3, %f1}, [%rd1, {%r1, %f2, %f3, %f3}];",
                  "tld4.a.cube.v4.f32.f32 {%f1, %f2, %f3, %f1}, [%rd1, {%f1, %f2, %f3, %f3}];",
                  "suld.b.a1d.b32.trap {%r3}, [%rd1, {%r1, %r2}];",
                  "sust.b.a2d.v2.b32.trap [%rd1, {%r1, %r2, %r3, %r3}], {%r2, %r3};"});
  // v4.b8 data in 16-bit registers, as nvcc writes surf3Dread<uchar4>.
  CHECK(error_of("suld.b.3d.v4.b8.clamp {%rs1, %rs2, %rs3, %rs1}, [%rd1, {%r1, %r2, %r3, %r3}];") ==
        "no error");
}
