#include <cstring>

#include <catch2/catch.hpp>

#include "modules/common/errors.h"
#include "modules/gpu/ptx/ptx_disassembler.h"
#include "tests/unit/ptx_test_util.h"

using namespace ohmvp::gpu;
using namespace ohmvp::gpu::test;

namespace {

// The instruction at `line` of the fixture.
const Instruction& at_line(const Function& function, uint32_t line) {
  for (const Instruction& inst : function.instructions)
    if (inst.source_line == line) return inst;
  throw std::runtime_error("no instruction at line " + std::to_string(line));
}

std::string text_at_line(const Module& module, const Function& function, uint32_t line) {
  return format_instruction(module, function, at_line(function, line));
}

}  // namespace

TEST_CASE("ptx: every fixture compiled by nvcc loads", "[ptx]") {
  for (const char* name : {"basics.ptx",
                           "atomics.ptx",
                           "textures.ptx",
                           "surfaces.ptx",
                           "textures_lineinfo.ptx",
                           "stack.ptx",
                           "large.ptx",
                           "features.ptx",
                           "intrinsics.ptx",
                           "barrier_reduction.ptx",
                           "coherence.ptx",
                           "packed_integer.ptx",
                           "warp_locks.ptx",
                           "narrow_args.ptx",
                           "warp_match.ptx",
                           "warp_tiles.ptx",
                           "wide_integer.ptx",
                           "const_pointers.ptx",
                           "assertions.ptx",
                           "device_printf.ptx",
                           "function_pointers.ptx"}) {
    INFO(name);
    const Module module = load_fixture(name);
    CHECK(module.version_major == 9);
    CHECK(module.version_minor == 0);
    CHECK(module.target == "sm_75");
    CHECK(module.address_size == 64);
    size_t instructions = 0;
    for (const Function& function : module.functions) {
      instructions += function.instructions.size();
      CHECK(function.register_types.size() == function.register_count);
      for (const Instruction& inst : function.instructions)
        CHECK(!format_instruction(module, function, inst).empty());
    }
    CHECK(instructions > 20);
  }
  CHECK(load_fixture("large.ptx").functions.size() >= 7);
}

TEST_CASE("ptx: module-scope .const and .global variables with initialisers", "[ptx]") {
  const Module module = load_fixture("basics.ptx");
  const Symbol& weights = module.symbols[symbol_named(module, "c_weights")];
  CHECK(weights.space == StateSpace::const_);
  CHECK(weights.offset == 0);
  CHECK(weights.size == 16);
  CHECK(weights.align == 4);
  float values[4];
  REQUIRE(weights.initializer.size() == 16);
  std::memcpy(values, weights.initializer.data(), 16);
  CHECK(values[0] == 1.0f);
  CHECK(values[1] == -2.5f);
  CHECK(values[2] == 0.125f);
  CHECK(values[3] == 3.0f);
  CHECK(module.const_bytes == 16);

  const Symbol& counter = module.symbols[symbol_named(module, "g_counter")];
  CHECK(counter.type == DataType::u32);
  CHECK(counter.offset == 0);
  CHECK(counter.initializer == std::vector<uint8_t>{7, 0, 0, 0});
  const Symbol& table = module.symbols[symbol_named(module, "g_table")];
  CHECK(table.offset == 4);
  CHECK(table.initializer == std::vector<uint8_t>{255, 255, 2, 0, 44, 1});
  const Symbol& doubles = module.symbols[symbol_named(module, "g_doubles")];
  CHECK(doubles.offset == 16);  // 4 + 6 = 10, aligned to 8
  double d[2];
  std::memcpy(d, doubles.initializer.data(), 16);
  CHECK(d[0] == 1.5);
  CHECK(d[1] == -0.25);
  CHECK(module.global_bytes == 32);

  // A short initialiser keeps the bytes it gives; the rest of the variable is zero.
  const Module strings = parse_snippet(".global .align 1 .b8 $str[6] = {120, 61, 37, 100, 10};\n");
  const Symbol& str = strings.symbols[symbol_named(strings, "$str")];
  CHECK(str.initializer == std::vector<uint8_t>{'x', '=', '%', 'd', '\n'});
  CHECK(str.size == 6);

  // A __managed__ variable (nvcc: `.attribute(.managed)`) is an ordinary .global one here.
  const Module managed = parse_snippet(".global .attribute(.managed) .align 4 .u32 mv = 123;\n");
  const Symbol& mv = managed.symbols[symbol_named(managed, "mv")];
  CHECK(mv.space == StateSpace::global);
  CHECK(mv.initializer == std::vector<uint8_t>{123, 0, 0, 0});
}

TEST_CASE("ptx: parameters, structs by value, return values and call sites", "[ptx]") {
  const Module module = load_fixture("basics.ptx");
  const Function& kernel = function_named(module, "struct_param");
  CHECK(kernel.is_kernel);
  CHECK(kernel.is_visible);
  REQUIRE(kernel.params.size() == 3);
  CHECK(module.symbols[kernel.params[0]].offset == 0);
  CHECK(module.symbols[kernel.params[1]].offset == 8);
  const Symbol& by_value = module.symbols[kernel.params[2]];
  CHECK(by_value.offset == 16);
  CHECK(by_value.size == 16);
  CHECK(by_value.align == 8);
  CHECK(by_value.type == DataType::b8);
  CHECK(kernel.param_bytes == 32);

  const Function& scaled = function_named(module, "_Z6scaledf6Params");
  CHECK_FALSE(scaled.is_kernel);
  REQUIRE(scaled.return_params.size() == 1);
  CHECK(module.symbols[scaled.return_params[0]].name == "func_retval0");
  CHECK(scaled.return_bytes == 4);
  CHECK(module.symbols[scaled.params[1]].offset == 8);
  CHECK(scaled.param_bytes == 24);

  // ld.param.f64 %fd1, [struct_param_param_2+8];
  const Instruction& load = at_line(kernel, 73);
  CHECK(load.op == Opcode::ld);
  CHECK(load.space == StateSpace::param);
  CHECK(load.type == DataType::f64);
  CHECK(load.operands[1].kind == Operand::Kind::address);
  CHECK(load.operands[1].symbol == kernel.params[2]);
  CHECK(load.operands[1].reg == no_register);
  CHECK(load.operands[1].offset == 8);

  // The call sequence: param0 (.b32), param1 (.align 8 .b8[16]), retval0 (.b32).
  const Instruction* call = nullptr;
  for (const Instruction& inst : kernel.instructions)
    if (inst.op == Opcode::call) call = &inst;
  REQUIRE(call != nullptr);
  CHECK(call->unit == UnitClass::branch);
  CHECK(call->mod.uniform);
  CHECK(call->operands[0].kind == Operand::Kind::function);
  CHECK(module.functions[call->operands[0].target].name == "_Z6scaledf6Params");
  REQUIRE(call->call_arguments.size() == 2);
  REQUIRE(call->call_returns.size() == 1);
  CHECK(module.symbols[call->call_arguments[0]].offset == 0);
  CHECK(module.symbols[call->call_arguments[1]].offset == 8);
  CHECK(module.symbols[call->call_returns[0]].offset == 24);
  CHECK(kernel.call_param_bytes == 28);
  CHECK(text_at_line(module, kernel, 96) ==
        "call.uni (retval0), _Z6scaledf6Params, (param0, param1)");
  CHECK(text_at_line(module, kernel, 102) == "ld.param.f32 %f3, [retval0]");
}

TEST_CASE("ptx: registers of nested scopes are flattened to distinct indices", "[ptx]") {
  const Module module = load_fixture("basics.ptx");
  const Function& kernel = function_named(module, "struct_param");
  // %p<2> %f<6> %r<8> %fd<2> %rd<12> and the call block's temp_param_reg.
  CHECK(kernel.register_count == 2 + 6 + 8 + 2 + 12 + 1);
  CHECK(kernel.register_names[0] == "%p0");
  CHECK(kernel.register_types[register_named(kernel, "%p1")] == DataType::pred);
  CHECK(kernel.register_types[register_named(kernel, "%fd1")] == DataType::f64);
  CHECK(kernel.register_types[register_named(kernel, "%rd11")] == DataType::b64);

  const Module nested = parse_snippet(R"(
.visible .entry k(.param .u32 n)
{
  .reg .b32 %r<3>;
  .reg .b32 t;
  ld.param.u32 %r1, [n];
  {
    .reg .b32 t;
    .param .b32 param0;
    mov.u32 t, %r1;
  }
  {
    .reg .b32 t;
    .param .b32 param0;
    mov.u32 t, 5;
  }
  mov.u32 t, 6;
}
)");
  const Function& k = nested.functions[0];
  CHECK(k.register_count == 6);
  const uint32_t outer = k.instructions[3].operands[0].reg;
  const uint32_t first = k.instructions[1].operands[0].reg;
  const uint32_t second = k.instructions[2].operands[0].reg;
  CHECK(outer == 3);
  CHECK(first == 4);
  CHECK(second == 5);
  CHECK(k.register_names[first] == "t");
  CHECK(k.call_param_bytes == 8);  // each scope's param0 is its own variable
}

TEST_CASE("ptx: shared memory, static and dynamic, module and function scope", "[ptx]") {
  const Module module = load_fixture("basics.ptx");
  const uint32_t reduce =
      static_cast<uint32_t>(&function_named(module, "shared_reduce") - module.functions.data());
  const uint32_t tile = symbol_named(module, "_ZZ13shared_reduceE4tile");
  const uint32_t dynamic = symbol_named(module, "dynamic_tile");
  CHECK(module.symbols[tile].space == StateSpace::shared);
  CHECK(module.symbols[tile].function == static_cast<int32_t>(reduce));
  CHECK(module.symbols[tile].offset == 0);
  CHECK(module.static_shared_bytes[reduce] == 1024);
  CHECK(module.symbols[dynamic].is_extern);
  CHECK(module.symbols[dynamic].size == 0);
  CHECK(module.shared_offset(reduce, dynamic) == 1024);

  const Module snippet = parse_snippet(R"(
.shared .align 4 .b8 common_a[12];
.shared .align 8 .b8 common_b[8];
.extern .shared .align 16 .b8 dyn[];
.visible .entry uses_b()
{
  .reg .b32 %r<2>;
  .shared .align 4 .b8 own[4];
  mov.u32 %r0, common_b;
  mov.u32 %r1, own;
  ld.shared.u32 %r1, [dyn+4];
}
.visible .entry uses_nothing()
{
  .shared .align 2 .b8 mine[6];
  .reg .b32 %r<1>;
  st.shared.u32 [mine], %r0;
}
)");
  CHECK(snippet.symbols[symbol_named(snippet, "common_a")].offset == 0);
  CHECK(snippet.symbols[symbol_named(snippet, "common_b")].offset == 16);
  CHECK(snippet.symbols[symbol_named(snippet, "own")].offset == 24);
  CHECK(snippet.static_shared_bytes[0] == 28);
  CHECK(snippet.shared_offset(0, symbol_named(snippet, "dyn")) == 32);
  CHECK(snippet.symbols[symbol_named(snippet, "mine")].offset == 0);
  CHECK(snippet.static_shared_bytes[1] == 6);
  CHECK(snippet.shared_offset(1, symbol_named(snippet, "dyn")) == 16);
  const Instruction& mov = snippet.functions[0].instructions[0];
  CHECK(mov.operands[1].kind == Operand::Kind::symbol);
  CHECK(mov.operands[1].symbol == symbol_named(snippet, "common_b"));
}

TEST_CASE("ptx: local depots with %SP and %SPL", "[ptx]") {
  const Module module = load_fixture("stack.ptx");
  const Function& kernel = function_named(module, "depot");
  const uint32_t depot = symbol_named(module, "__local_depot1");
  CHECK(module.symbols[depot].space == StateSpace::local);
  CHECK(module.symbols[depot].size == 64);
  CHECK(module.symbols[depot].align == 16);
  CHECK(kernel.local_bytes == 64);
  CHECK(kernel.register_types[register_named(kernel, "%SP")] == DataType::b64);
  bool saw_depot_move = false, saw_cvta = false;
  for (const Instruction& inst : kernel.instructions) {
    if (inst.op == Opcode::mov && inst.operands[1].kind == Operand::Kind::symbol) {
      CHECK(inst.operands[1].symbol == depot);
      CHECK(inst.operands[0].reg == register_named(kernel, "%SPL"));
      saw_depot_move = true;
    }
    if (inst.op == Opcode::cvta && inst.space == StateSpace::local) {
      CHECK(inst.mod.to_generic);
      CHECK(format_instruction(module, kernel, inst) == "cvta.local.u64 %SP, %SPL");
      saw_cvta = true;
    }
  }
  CHECK(saw_depot_move);
  CHECK(saw_cvta);
}

TEST_CASE("ptx: decoded instructions of the fixtures", "[ptx]") {
  const Module module = load_fixture("basics.ptx");
  const Function& kernel = function_named(module, "struct_param");
  const Instruction& tid = at_line(kernel, 78);  // mov.u32 %r6, %tid.x;
  CHECK(tid.operands[1].kind == Operand::Kind::special);
  CHECK(tid.operands[1].special == SpecialRegister::tid);
  CHECK(tid.operands[1].component == 0);
  const Instruction& branch = at_line(kernel, 81);  // @%p1 bra $L__BB2_2;
  CHECK(branch.op == Opcode::bra);
  CHECK(branch.guard_reg == register_named(kernel, "%p1"));
  CHECK_FALSE(branch.guard_negated);
  CHECK(branch.operands[0].kind == Operand::Kind::label);
  CHECK(kernel.instructions[branch.operands[0].target].op == Opcode::ret);
  const Instruction& wide = at_line(kernel, 84);  // mul.wide.s32 %rd4, %r2, 4;
  CHECK(wide.op == Opcode::mul);
  CHECK(wide.mod.mul == MulMode::wide);
  CHECK(wide.type == DataType::s32);
  CHECK(wide.operands[2].kind == Operand::Kind::imm);
  CHECK(wide.operands[2].imm == 4);
  CHECK(wide.unit == UnitClass::int_alu);
  const Instruction& cvta = at_line(kernel, 83);  // cvta.to.global.u64
  CHECK_FALSE(cvta.mod.to_generic);
  CHECK(cvta.space == StateSpace::global);

  const Function& local = function_named(module, "local_array");
  CHECK(at_line(local, 207).operands[2].imm == 0xAAAAAAABu);  // mul.wide.u32 ..., -1431655765
  CHECK(text_at_line(module, local, 207) == "mul.wide.u32 %rd18, %r25, 2863311531");
  CHECK(at_line(local, 205).operands[1].symbol == symbol_named(module, "g_counter"));

  const Function& halves = function_named(module, "doubles_and_halves");
  bool saw_f16_add = false, saw_f16_cvt = false;
  for (const Instruction& inst : halves.instructions) {
    if (inst.op == Opcode::add && inst.type == DataType::f16) saw_f16_add = true;
    if (inst.op == Opcode::cvt && inst.type == DataType::f16 && inst.source_type == DataType::f32) {
      CHECK(inst.mod.rounding == RoundingMode::rn);
      CHECK(inst.unit == UnitClass::fp32);
      saw_f16_cvt = true;
    }
    if (inst.op == Opcode::sqrt) CHECK(inst.unit == UnitClass::fp64);
    if (inst.op == Opcode::sin) CHECK(inst.unit == UnitClass::sfu);
  }
  CHECK(saw_f16_add);
  CHECK(saw_f16_cvt);
}

TEST_CASE("ptx: atomics, warp operations and textures", "[ptx]") {
  const Module module = load_fixture("atomics.ptx");
  const Function& atomics = function_named(module, "atomics");
  int cas = 0, shared_atomics = 0, float_adds = 0;
  for (const Instruction& inst : atomics.instructions) {
    if (inst.op != Opcode::atom) continue;
    CHECK(inst.unit == UnitClass::ldst);
    if (inst.mod.atomic == AtomicOp::cas) {
      ++cas;
      CHECK(inst.operand_count == 4);
    }
    if (inst.space == StateSpace::shared) ++shared_atomics;
    if (inst.mod.atomic == AtomicOp::add && inst.type == DataType::f32 &&
        inst.operands[2].kind == Operand::Kind::imm) {
      CHECK(inst.operands[2].imm == 0x3FC00000u);  // 1.5f
      ++float_adds;
    }
  }
  CHECK(cas == 3);
  CHECK(shared_atomics == 5);
  CHECK(float_adds == 1);

  const Function& warp = function_named(module, "warp_ops");
  int shuffles = 0, votes = 0;
  for (const Instruction& inst : warp.instructions) {
    if (inst.op == Opcode::shfl) {
      ++shuffles;
      CHECK(inst.operand_count == 5);
      CHECK(inst.dest_pred != no_register);
      CHECK(warp.register_types[inst.dest_pred] == DataType::pred);
    }
    if (inst.op == Opcode::vote) ++votes;
    if (inst.op == Opcode::vote && inst.mod.vote == VoteMode::ballot)
      CHECK(format_instruction(module, warp, inst).rfind("vote.sync.ballot.b32 %r", 0) == 0);
  }
  CHECK(shuffles == 4);
  CHECK(votes == 3);

  const Function& reductions = function_named(module, "reductions");
  int bar_reds = 0;
  for (const Instruction& inst : reductions.instructions)
    if (inst.op == Opcode::bar && inst.mod.barrier == BarrierMode::reduce) {
      ++bar_reds;
      CHECK(inst.unit == UnitClass::barrier);
    }
  CHECK(bar_reds == 3);

  const Module textures = load_fixture("textures.ptx");
  const Function& fetch2d = function_named(textures, "fetch2d");
  const Instruction* tex = nullptr;
  for (const Instruction& inst : fetch2d.instructions)
    if (inst.op == Opcode::tex) tex = &inst;
  REQUIRE(tex != nullptr);
  CHECK(tex->mod.geometry == 2);
  CHECK(tex->type == DataType::f32);
  CHECK(tex->source_type == DataType::f32);
  CHECK(tex->operands[0].vector_count == 4);
  CHECK(tex->operands[1].kind == Operand::Kind::reg);
  CHECK(tex->operands[2].vector_count == 2);
  CHECK(format_instruction(textures, fetch2d, *tex) ==
        "tex.2d.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd1, {%f2, %f4}]");
}

TEST_CASE("ptx: surface loads and stores decode with geometry, vector, type and boundary",
          "[ptx]") {
  const Module surfaces = load_fixture("surfaces.ptx");
  std::vector<std::string> texts;
  for (const char* kernel : {"scale2d", "bump3d", "bounds1d"}) {
    const Function& function = function_named(surfaces, kernel);
    for (const Instruction& inst : function.instructions)
      if (inst.op == Opcode::suld || inst.op == Opcode::sust)
        texts.push_back(format_instruction(surfaces, function, inst));
  }
  // As nvcc wrote them (tests/data/ptx/surfaces.ptx), less the tab and the semicolon.
  CHECK(texts ==
        std::vector<std::string>{
            "suld.b.2d.b32.trap {%r10}, [%rd1, {%r9, %r2}]",
            "sust.b.2d.b32.trap [%rd2, {%r9, %r2}], {%r11}",
            "suld.b.3d.v4.b8.trap {%rs1, %rs2, %rs3, %rs4}, [%rd1, {%r14, %r11, %r2, %r2}]",
            "sust.b.3d.v4.b8.trap [%rd1, {%r14, %r11, %r2, %r2}], {%rs9, %rs10, %rs11, %rs12}",
            "suld.b.1d.b32.clamp {%r4}, [%rd1, {%r3}]", "suld.b.1d.b32.zero {%r5}, [%rd1, {%r3}]",
            "sust.b.1d.b32.zero [%rd2, {%r3}], {%r1}"});
  const Function& bump = function_named(surfaces, "bump3d");
  for (const Instruction& inst : bump.instructions) {
    if (inst.op != Opcode::suld) continue;
    CHECK(inst.mod.geometry == 3);
    CHECK(inst.mod.vector_width == 4);
    CHECK(inst.type == DataType::b8);
    CHECK(inst.unit == UnitClass::ldst);
  }
}

TEST_CASE("ptx: hand-written forms of every instruction family decode", "[ptx]") {
  const Module module = parse_snippet(R"(
.global .align 4 .f32 gf[2] = {1.0, -0f40000000};
.global .align 8 .f64 gd = 0d3FF0000000000000;
.global .align 2 .b16 gh[2] = {0x3C00, 7};
.global .align 1 .s8 gs[3] = {-1, 0x7f, 0b101};
.visible .entry all(.param .u32 c, .param .u64 .ptr .global .align 2 p, .param .align 16 .b8 s[32])
.maxntid 128, 2, 1
.minnctapersm 4
{
  .reg .pred %p<4>;
  .reg .b16 %rs<3>;
  .reg .b32 %r<10>;
  .reg .f32 %f<6>;
  .reg .b64 %rd<6>;
  .reg .f64 %fd<3>;
  mov.b32 %r1, 0x10;
  mov.u32 %r2, 017;
  mov.u32 %r3, 0b11;
  mov.u32 %r4, 42U;
  mov.f32 %f1, 1.5;
  mov.f32 %f2, 0f3F800000;
  mov.f64 %fd1, 0d4000000000000000;
  mov.f64 %fd2, -2.5e1;
  mov.b64 %rd1, {%r1, %r2};
  mov.b64 {%r3, %r4}, %rd1;
  mov.b32 {%rs1, %rs2}, %r1;
  mov.u64 %rd2, gf;
  ld.global.nc.v2.f32 {%f3, %f4}, [%rd2+-8];
  ld.volatile.shared.u32 %r5, [%r1+4];
  ld.global.relaxed.gpu.L1::evict_last.u32 %r5, [0x100];
  st.global.v4.u32 [%rd2], {%r1, %r2, %r3, %r4};
  ld.param.v2.u32 {%r1, _}, [s+16];
  ldu.global.f32 %f1, [%rd2];
  setp.ltu.and.f32 %p1|%p2, %f1, %f2, !%p3;
  setp.nan.f64 %p1, %fd1, %fd2;
  @!%p1 add.cc.u32 %r1, %r2, -1;
  addc.cc.u32 %r2, %r3, 0;
  subc.u32 %r3, %r3, %r4;
  madc.hi.cc.u32 %r4, %r1, %r2, %r3;
  mad.wide.s32 %rd3, %r1, -2, %rd2;
  mul.hi.u32 %r5, %r1, %r2;
  mul24.lo.s32 %r5, %r1, %r2;
  add.sat.s32 %r5, %r1, %r2;
  div.full.f32 %f1, %f2, %f3;
  div.rn.ftz.f32 %f1, %f2, %f3;
  div.s32 %r1, %r2, %r3;
  rem.u64 %rd1, %rd2, 10;
  fma.rn.sat.f32 %f1, %f2, %f3, 0f00000000;
  rcp.rn.f64 %fd1, %fd2;
  rsqrt.approx.ftz.f32 %f1, %f2;
  ex2.approx.ftz.f32 %f1, %f2;
  lg2.approx.f32 %f1, %f2;
  cos.approx.ftz.f32 %f1, %f2;
  tanh.approx.f32 %f1, %f2;
  copysign.f32 %f1, %f2, %f3;
  min.ftz.f32 %f1, %f2, %f3;
  abs.s32 %r1, %r2;
  neg.f64 %fd1, %fd2;
  cvt.rni.s32.f32 %r1, %f1;
  cvt.sat.u8.s32 %rs1, %r1;
  cvt.rn.bf16.f32 %rs1, %f1;
  cvt.rn.f16x2.f32 %r1, %f1, %f2;
  cvt.u32.u16 %r1, %ctaid.y;
  and.pred %p1, %p2, %p3;
  not.b32 %r1, %r2;
  cnot.b32 %r1, %r2;
  shl.b64 %rd1, %rd2, 3;
  shr.s32 %r1, %r2, %r3;
  shf.l.wrap.b32 %r1, %r2, %r3, 5;
  bfe.u32 %r1, %r2, 8, 4;
  bfi.b32 %r1, %r2, %r3, 8, 4;
  prmt.b32 %r1, %r2, %r3, 0x3210;
  bfind.u32 %r1, %r2;
  popc.b64 %r1, %rd1;
  clz.b32 %r1, %r2;
  brev.b64 %rd1, %rd2;
  selp.f32 %f1, %f2, 0f3F800000, %p1;
  slct.f32.s32 %f1, %f2, %f3, %r1;
  atom.shared.cas.b64 %rd1, [%r1], %rd2, %rd3;
  atom.global.gpu.relaxed.exch.b32 %r1, [%rd1], 5;
  red.global.add.f32 [%rd1+4], %f1;
  red.shared.max.s32 [%r1], -3;
  shfl.sync.idx.b32 %r1, %r2, 0, 0x1f, -1;
  vote.sync.uni.pred %p1, !%p2, 0xffffffff;
  activemask.b32 %r1;
  bar.sync 0;
  bar.sync 1, 64;
  barrier.sync.aligned 0;
  bar.arrive 1, 64;
  bar.warp.sync -1;
  membar.cta;
  fence.acq_rel.gpu;
  mov.u32 %r1, %laneid;
  mov.u64 %rd1, %clock64;
  mov.u64 %rd1, %globaltimer;
  mov.u32 %r1, %lanemask_lt;
  mov.u32 %r1, %dynamic_smem_size;
  mov.u32 %r1, %nctaid.z;
  tex.1d.v4.s32.s32 {%r1, %r2, %r3, %r4}, [%rd1, {%r5}];
  mad24.hi.sat.s32 %r5, %r1, %r2, %r3;
  trap;
  exit;
}
)");
  const Function& f = module.functions[0];
  CHECK(f.max_threads == 256);
  CHECK(f.min_ctas_per_sm == 4);
  CHECK(module.symbols[f.params[1]].offset == 8);  // .align 2 after .ptr is the pointee's
  CHECK(module.symbols[f.params[1]].align == 8);
  CHECK(module.symbols[f.params[2]].offset == 16);
  CHECK(f.param_bytes == 48);
  const Symbol& gf = module.symbols[symbol_named(module, "gf")];
  CHECK(gf.initializer == std::vector<uint8_t>{0, 0, 0x80, 0x3f, 0, 0, 0, 0xc0});
  CHECK(module.symbols[symbol_named(module, "gd")].initializer ==
        std::vector<uint8_t>{0, 0, 0, 0, 0, 0, 0xf0, 0x3f});
  CHECK(module.symbols[symbol_named(module, "gh")].initializer ==
        std::vector<uint8_t>{0, 0x3c, 7, 0});
  CHECK(module.symbols[symbol_named(module, "gs")].initializer ==
        std::vector<uint8_t>{0xff, 0x7f, 5});

  std::vector<std::string> text;
  for (const Instruction& inst : f.instructions)
    text.push_back(format_instruction(module, f, inst));
  const std::vector<std::string> expected = {
      "mov.b32 %r1, 16",
      "mov.u32 %r2, 15",
      "mov.u32 %r3, 3",
      "mov.u32 %r4, 42",
      "mov.f32 %f1, 0f3FC00000",
      "mov.f32 %f2, 0f3F800000",
      "mov.f64 %fd1, 0d4000000000000000",
      "mov.f64 %fd2, 0dC039000000000000",
      "mov.b64 %rd1, {%r1, %r2}",
      "mov.b64 {%r3, %r4}, %rd1",
      "mov.b32 {%rs1, %rs2}, %r1",
      "mov.u64 %rd2, gf",
      "ld.global.nc.v2.f32 {%f3, %f4}, [%rd2+-8]",
      "ld.shared.volatile.u32 %r5, [%r1+4]",
      "ld.global.gpu.relaxed.u32 %r5, [256]",
      "st.global.v4.u32 [%rd2], {%r1, %r2, %r3, %r4}",
      "ld.param.v2.u32 {%r1, _}, [s+16]",
      "ldu.global.f32 %f1, [%rd2]",
      "setp.ltu.and.f32 %p1|%p2, %f1, %f2, !%p3",
      "setp.nan.f64 %p1, %fd1, %fd2",
      "@!%p1 add.cc.u32 %r1, %r2, 4294967295",
      "addc.cc.u32 %r2, %r3, 0",
      "subc.u32 %r3, %r3, %r4",
      "madc.hi.cc.u32 %r4, %r1, %r2, %r3",
      "mad.wide.s32 %rd3, %r1, -2, %rd2",
      "mul.hi.u32 %r5, %r1, %r2",
      "mul24.lo.s32 %r5, %r1, %r2",
      "add.sat.s32 %r5, %r1, %r2",
      "div.full.f32 %f1, %f2, %f3",
      "div.rn.ftz.f32 %f1, %f2, %f3",
      "div.s32 %r1, %r2, %r3",
      "rem.u64 %rd1, %rd2, 10",
      "fma.rn.sat.f32 %f1, %f2, %f3, 0f00000000",
      "rcp.rn.f64 %fd1, %fd2",
      "rsqrt.approx.ftz.f32 %f1, %f2",
      "ex2.approx.ftz.f32 %f1, %f2",
      "lg2.approx.f32 %f1, %f2",
      "cos.approx.ftz.f32 %f1, %f2",
      "tanh.approx.f32 %f1, %f2",
      "copysign.f32 %f1, %f2, %f3",
      "min.ftz.f32 %f1, %f2, %f3",
      "abs.s32 %r1, %r2",
      "neg.f64 %fd1, %fd2",
      "cvt.rni.s32.f32 %r1, %f1",
      "cvt.sat.u8.s32 %rs1, %r1",
      "cvt.rn.bf16.f32 %rs1, %f1",
      "cvt.rn.f16x2.f32 %r1, %f1, %f2",
      "cvt.u32.u16 %r1, %ctaid.y",
      "and.pred %p1, %p2, %p3",
      "not.b32 %r1, %r2",
      "cnot.b32 %r1, %r2",
      "shl.b64 %rd1, %rd2, 3",
      "shr.s32 %r1, %r2, %r3",
      "shf.l.wrap.b32 %r1, %r2, %r3, 5",
      "bfe.u32 %r1, %r2, 8, 4",
      "bfi.b32 %r1, %r2, %r3, 8, 4",
      "prmt.b32 %r1, %r2, %r3, 12816",
      "bfind.u32 %r1, %r2",
      "popc.b64 %r1, %rd1",
      "clz.b32 %r1, %r2",
      "brev.b64 %rd1, %rd2",
      "selp.f32 %f1, %f2, 0f3F800000, %p1",
      "slct.f32.s32 %f1, %f2, %f3, %r1",
      "atom.shared.cas.b64 %rd1, [%r1], %rd2, %rd3",
      "atom.global.gpu.relaxed.exch.b32 %r1, [%rd1], 5",
      "red.global.add.f32 [%rd1+4], %f1",
      "red.shared.max.s32 [%r1], -3",
      "shfl.sync.idx.b32 %r1, %r2, 0, 31, 4294967295",
      "vote.sync.uni.pred %p1, !%p2, 4294967295",
      "activemask.b32 %r1",
      "bar.sync 0",
      "bar.sync 1, 64",
      "bar.sync 0",
      "bar.arrive 1, 64",
      "bar.warp.sync 4294967295",
      "membar.cta",
      "fence.gpu.acq_rel",
      "mov.u32 %r1, %laneid",
      "mov.u64 %rd1, %clock64",
      "mov.u64 %rd1, %globaltimer",
      "mov.u32 %r1, %lanemask_lt",
      "mov.u32 %r1, %dynamic_smem_size",
      "mov.u32 %r1, %nctaid.z",
      "tex.1d.v4.s32.s32 {%r1, %r2, %r3, %r4}, [%rd1, {%r5}]",
      "mad24.hi.sat.s32 %r5, %r1, %r2, %r3",
      "trap",
      "exit",
  };
  REQUIRE(text.size() == expected.size());
  for (size_t i = 0; i < expected.size(); ++i) CHECK(text[i] == expected[i]);

  auto inst = [&](size_t i) -> const Instruction& { return f.instructions[i]; };
  CHECK(inst(12).mod.non_coherent);
  CHECK(inst(12).operands[1].offset == -8);
  CHECK(inst(14).operands[1].reg == no_register);
  CHECK(inst(14).operands[1].offset == 256);
  CHECK(inst(16).operands[0].vector_regs[1] == no_register);
  CHECK(inst(18).dest_pred == register_named(f, "%p2"));
  CHECK(inst(18).mod.bool_op == BoolOp::and_);
  CHECK(inst(18).operands[3].negated);
  CHECK(inst(18).unit == UnitClass::fp32);
  CHECK(inst(19).unit == UnitClass::fp64);
  CHECK(inst(20).guard_negated);
  CHECK(inst(20).mod.carry_out);
  CHECK(inst(21).mod.carry_in);
  CHECK(inst(24).operands[3].kind == Operand::Kind::reg);
  CHECK(inst(24).operands[2].imm == 0xFFFFFFFEu);
  CHECK(inst(31).operands[2].imm == 10);
  CHECK(inst(34).unit == UnitClass::sfu);
  CHECK(inst(33).unit == UnitClass::fp64);
  CHECK(inst(43).mod.rounding == RoundingMode::rni);
  CHECK(inst(44).mod.sat);
  CHECK(inst(47).operands[1].component == 1);
  CHECK(inst(53).mod.shift_left);
  CHECK(inst(63).mod.atomic == AtomicOp::cas);
  CHECK(inst(65).op == Opcode::red);
  CHECK(inst(66).operands[1].imm == 0xFFFFFFFDu);
  CHECK(inst(72).mod.barrier == BarrierMode::sync);
  CHECK(inst(74).mod.barrier == BarrierMode::warp);
  CHECK(inst(76).mod.scope == MemoryScope::gpu);
  CHECK(inst(76).unit == UnitClass::barrier);
  CHECK(inst(84).mod.sat);
  CHECK(inst(84).mod.mul == MulMode::hi);
  CHECK(inst(85).unit == UnitClass::branch);
}

TEST_CASE("ptx: testp, redux.sync, prmt modes, shf, bar.warp.sync and WARP_SZ decode as executed",
          "[ptx]") {
  const Module module = parse_snippet(R"(
.visible .entry seams(.param .u64 p)
{
  .reg .pred %p<3>;
  .reg .b32 %r<8>;
  .reg .f64 %fd<2>;
  testp.notanumber.f32 %p1, %r1;
  testp.subnormal.f64 %p2, %fd1;
  redux.sync.add.s32 %r1, %r2, -1;
  redux.sync.max.u32 %r1, %r2, %r3;
  redux.sync.xor.b32 %r1, %r2, 0xffff;
  prmt.b32 %r4, %r1, %r2, 0x3210;
  prmt.b32.ecl %r4, %r1, %r2, %r3;
  prmt.b32.rc16 %r4, %r1, %r2, 1;
  shf.l.wrap.b32 %r5, %r1, %r2, %r3;
  shf.r.clamp.b32 %r5, %r1, %r2, 7;
  bar.warp.sync -1;
  mov.u32 %r6, WARP_SZ;
  ret;
}
)");
  const Function& seams = function_named(module, "seams");
  const std::vector<Instruction>& in = seams.instructions;
  REQUIRE(in.size() == 13);
  CHECK(in[11].operands[1].kind == Operand::Kind::special);  // PTX's predefined constant
  CHECK(in[11].operands[1].special == SpecialRegister::warp_sz);
  CHECK(in[0].op == Opcode::testp);
  CHECK(in[0].mod.test == TestProperty::notanumber);
  CHECK(in[0].type == DataType::f32);
  CHECK(in[0].unit == UnitClass::fp32);
  CHECK(in[1].mod.test == TestProperty::subnormal);
  CHECK(in[1].unit == UnitClass::fp64);
  CHECK(in[2].op == Opcode::redux);
  CHECK(in[2].mod.atomic == AtomicOp::add);
  CHECK(in[2].type == DataType::s32);
  CHECK(in[2].operand_count == 3);
  CHECK(in[3].mod.atomic == AtomicOp::max);
  CHECK(in[4].mod.atomic == AtomicOp::xor_);
  CHECK(in[5].mod.permute == PermuteMode::none);
  CHECK(in[6].mod.permute == PermuteMode::ecl);
  CHECK(in[7].mod.permute == PermuteMode::rc16);
  CHECK(in[8].op == Opcode::shf);
  CHECK(in[8].mod.shift_left);
  CHECK_FALSE(in[8].mod.clamp);
  CHECK_FALSE(in[9].mod.shift_left);
  CHECK(in[9].mod.clamp);
  CHECK(in[10].op == Opcode::bar);
  CHECK(in[10].mod.barrier == BarrierMode::warp);
  CHECK(format_instruction(module, seams, in[0]) == "testp.notanumber.f32 %p1, %r1");
  CHECK(format_instruction(module, seams, in[2]) == "redux.sync.add.s32 %r1, %r2, -1");
  CHECK(format_instruction(module, seams, in[6]) == "prmt.ecl.b32 %r4, %r1, %r2, %r3");
  CHECK(format_instruction(module, seams, in[9]) == "shf.r.clamp.b32 %r5, %r1, %r2, 7");
  CHECK(format_instruction(module, seams, in[10]) == "bar.warp.sync 4294967295");
}

TEST_CASE("ptx: match.sync and fns print as PTX writes them", "[ptx]") {
  const Module module = load_fixture("warp_match.ptx");
  const Function& keys = function_named(module, "match_keys");
  CHECK(text_at_line(module, keys, 45) == "match.any.sync.b32 %r8, %r7, %r6");
  CHECK(text_at_line(module, keys, 52) == "match.all.sync.b32 %r11|%p2, %r10, %r6");
  CHECK(text_at_line(module, keys, 63) == "match.all.sync.b64 %r14|%p3, %rd14, %r6");
  CHECK(text_at_line(module, function_named(module, "nth_set"), 153) ==
        "fns.b32 %r8, %r5, %r6, %r7");
}

TEST_CASE("ptx: function addresses and indirect calls load and print", "[ptx]") {
  const Module module = load_fixture("function_pointers.ptx");
  const Function& kernel = function_named(module, "dispatch");
  uint32_t square = 0;
  while (module.functions[square].name != "_Z6squaref") ++square;
  const Instruction& call = at_line(kernel, 159);
  CHECK(call.op == Opcode::call);
  CHECK(call.operands[0].kind == Operand::Kind::reg);
  CHECK(text_at_line(module, kernel, 159) == "call (retval0), %rd19, (param0)");
  CHECK(text_at_line(module, kernel, 215) == "mov.u64 %rd32, _Z6squaref");
  CHECK(at_line(kernel, 215).operands[1].target == square);
  // The table's initialiser holds the functions' addresses; the module lists them as taken.
  const Symbol& table = module.symbols[symbol_named(module, "table")];
  uint64_t first = 0;
  std::memcpy(&first, table.initializer.data(), 8);
  CHECK(first == function_address(square));
  CHECK(std::count(module.address_taken.begin(), module.address_taken.end(), square) == 1);
}

TEST_CASE("ptx: dp4a, dp2a, lop3, isspacep, vabsdiff, prefetchu and a 0 in mov's parts print",
          "[ptx]") {
  const Module module = load_fixture("packed_integer.ptx");
  const Function& kernel = module.functions[0];
  CHECK(text_at_line(module, kernel, 52) == "prefetchu.L1 [%rd1]");
  CHECK(text_at_line(module, kernel, 64) == "dp4a.s32.s32 %r1, %r2, %r3, %r4");
  CHECK(text_at_line(module, kernel, 77) == "dp2a.hi.u32.u32 %r13, %r2, %r3, %r16");
  CHECK(text_at_line(module, kernel, 82) == "lop3.b32 %r17, %r2, %r3, %r24, 150");
  CHECK(text_at_line(module, kernel, 109) == "isspacep.shared %p3, %rd22");
  CHECK(text_at_line(module, kernel, 135) == "vabsdiff2.u32.u32.u32.add %r33, %r2, %r3, %r33");
  CHECK(text_at_line(module, kernel, 146) == "atom.add.f16 %rs2, [%rd2], %rs1");
  CHECK(text_at_line(module, kernel, 153) == "mov.b32 %f2, {0, %rs4}");
}
