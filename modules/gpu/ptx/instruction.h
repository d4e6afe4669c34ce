#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "modules/gpu/ptx/ptx_types.h"

namespace ohmvp::gpu {

// The decoded form of one PTX instruction. The parser produces it once at load time; the
// interpreter executes it over a warp's active mask; the SM model reads its unit class and
// registers for issue and the scoreboard. Nothing here refers back to the PTX text except
// `source_line`, which error and fault messages quote.

// One row per group.
// clang-format off
enum class Opcode : uint8_t {
  // data movement
  ld, ldu, st, mov, cvta, cvt, prefetch,
  // integer and floating-point arithmetic
  add, sub, mul, mad, mul24, mad24, div, rem, min, max, abs, neg, copysign, sad,
  fma, rcp, sqrt, rsqrt, ex2, lg2, sin, cos, tanh, testp,
  // logic and bits
  and_, or_, xor_, not_, cnot, shl, shr, popc, clz, brev, bfe, bfi, prmt, bfind, fns,
  // comparison and selection
  setp, set, selp, slct,
  // control flow
  bra, call, ret, exit, trap, brkpt, nanosleep,
  // synchronisation and memory ordering
  bar, membar, fence,
  // atomics
  atom, red,
  // warp-level
  shfl, vote, activemask, match, redux,
  // textures
  tex,
  // tensor cores: warp-wide matrix fragments (docs/gpu_tensor.md)
  wmma_load_a, wmma_load_b, wmma_load_c, wmma_store_d, wmma_mma, mma,
  // funnel shift (shf.l / shf.r with .wrap or .clamp), appended by the parser work
  shf,
  // ldmatrix: 8x8 b16 matrices from shared memory into mma.sync fragments (tensor-core work)
  ldmatrix,
  // three-input logic, byte and halfword dot products, generic-address space tests
  lop3, dp4a, dp2a, isspacep,
  // SIMD video: per-byte and per-halfword absolute differences (__vabsdiff*, __vsad*, __vabs*)
  vabsdiff4, vabsdiff2,
  // the thread's stack: alloca (dynamic .local storage), stacksave / stackrestore
  alloca_, stacksave, stackrestore,
  // a bit mask of a position and width (cuda::bitmask, CUB's radix sort); sign or zero extension
  // of a value's low N bits
  bmsk, szext,
  // surface loads and stores of raw bits (suld.b, sust.b: surf1Dread ... surf3Dwrite); the
  // four texels of a bilinear footprint (tld4: tex2Dgather)
  suld, sust, tld4,
  // PTX the model does not run (unsupported_ptx.h), kept in its place so that only the kernels
  // that reach it are refused (Function::unsupported holds what it was)
  unsupported,
};
// clang-format on

// wmma.*, mma.sync and ldmatrix: .sync.aligned tensor-core work on fragments spread over the
// whole warp.
constexpr bool is_tensor_core_op(Opcode op) {
  return (op >= Opcode::wmma_load_a && op <= Opcode::mma) || op == Opcode::ldmatrix;
}
static_assert(static_cast<int>(Opcode::mma) - static_cast<int>(Opcode::wmma_load_a) == 5,
              "the wmma opcodes and mma stand together");

// The hardware unit that executes an instruction, for issue and latency in the SM model.
enum class UnitClass : uint8_t { int_alu, fp32, fp64, sfu, ldst, branch, barrier, tensor };

enum class CompareOp : uint8_t {
  none, eq, ne, lt, le, gt, ge, lo, ls, hi, hs,
  equ, neu, ltu, leu, gtu, geu, num, nan,
};

enum class BoolOp : uint8_t { none, and_, or_, xor_ };

// `rn rz rm rp` for floating-point results; the `i` forms round a float to an integral value.
enum class RoundingMode : uint8_t { none, rn, rz, rm, rp, rni, rzi, rmi, rpi };

enum class AtomicOp : uint8_t { none, add, min, max, inc, dec, and_, or_, xor_, exch, cas };

// `.lo`, `.hi` and `.wide` of mul/mad (and dp2a's `.lo`/`.hi`: which bytes of b); `none` for
// the floating-point forms.
enum class MulMode : uint8_t { none, lo, hi, wide };

enum class ShuffleMode : uint8_t { none, up, down, bfly, idx };

enum class VoteMode : uint8_t { none, all, any, uni, ballot };

// prmt's mode: none is the default byte selector; the others are .f4e .b4e .rc8 .ecl .ecr .rc16.
enum class PermuteMode : uint8_t { none, f4e, b4e, rc8, ecl, ecr, rc16 };

// testp's property.
enum class TestProperty : uint8_t { none, finite, infinite, number, notanumber, normal, subnormal };

// bar.sync / barrier.sync, bar.arrive, bar.red; `warp` is bar.warp.sync (__syncwarp).
enum class BarrierMode : uint8_t { none, sync, arrive, reduce, warp };

// bar.red's reduction: .popc.u32, .and.pred, .or.pred.
enum class BarrierReduction : uint8_t { none, popc, and_, or_ };

// Scope of atom/red/fence/membar and of ld/st .relaxed/.acquire/.release (membar.cta/.gl/.sys map
// to cta/gpu/sys). The functional model is sequentially consistent; the timing model's L1 heeds
// the scopes that reach other SMs.
enum class MemoryScope : uint8_t { none, cta, gpu, sys, cluster };
constexpr bool reaches_other_sms(MemoryScope scope) {
  return scope == MemoryScope::gpu || scope == MemoryScope::sys;
}

// Memory-ordering qualifier of ld/st/atom/red/fence.
enum class MemoryOrder : uint8_t { none, weak, volatile_, relaxed, acquire, release, acq_rel, sc };

// Tile shape of wmma.* (m16n16k16, m32n8k16, m8n32k16; m8n8k32 s4/u4) and mma.sync (m16n8k8
// f16, m8n8k16 s8/u8, m8n8k32 s4/u4, and Volta's m8n8k4 f16: four 8x8x4 tiles, one per quad
// pair).
enum class MatrixShape : uint8_t {
  none,
  m16n16k16,
  m32n8k16,
  m8n32k16,
  m16n8k8,
  m8n8k16,
  m8n8k4,
  m8n8k32
};

// Memory layout of a matrix fragment: .row (row-major) or .col (column-major).
enum class MatrixLayout : uint8_t { none, row, col };

// %envreg0..31 is `envreg` with the number in Operand::component.
// clang-format off
enum class SpecialRegister : uint8_t {
  tid, ntid, ctaid, nctaid, laneid, warpid, nwarpid, smid, nsmid, gridid,
  clock, clock64, globaltimer, lanemask_eq, lanemask_lt, lanemask_le, lanemask_gt, lanemask_ge,
  dynamic_smem_size, total_smem_size, globaltimer_lo, globaltimer_hi, clock_hi, envreg, warp_sz,
};
// clang-format on

constexpr uint32_t no_register = UINT32_MAX;
constexpr uint32_t no_target = UINT32_MAX;

struct Operand {
  enum class Kind : uint8_t {
    none,
    reg,      // `reg`
    imm,      // `imm`: raw bits, already converted to the operand's type
    special,  // `special` with `component` 0..2 for .x/.y/.z
    address,  // [reg + offset], [symbol + offset] or [offset]; reg/symbol may be absent
    vector,   // {a, b, ...}: `vector_count` (<= 8) registers in `vector_regs`; no_register is `_`
    symbol,   // a variable's address used as a value (mov.u64 %rd, g) or a call argument
    label,    // branch target, resolved to `target` (an instruction index)
    function, // call target: index into Module::functions
    sink,     // `_`
  };
  Kind kind = Kind::none;
  bool negated = false;  // `!%p` on a predicate source
  uint8_t component = 0;
  uint8_t vector_count = 0;
  SpecialRegister special = SpecialRegister::tid;
  uint32_t reg = no_register;
  uint32_t symbol = UINT32_MAX;  // index into Module::symbols
  uint32_t target = no_target;   // label: instruction index; function: function index
  static constexpr size_t k_max_vector = 8;  // a wmma fragment has up to 8 registers
  std::array<uint32_t, k_max_vector> vector_regs{no_register, no_register, no_register,
                                                 no_register, no_register, no_register,
                                                 no_register, no_register};
  int64_t offset = 0;  // address displacement
  uint64_t imm = 0;
};

// suld/sust out of bounds (cudaBoundaryModeTrap / Clamp / Zero): a device fault, the nearest
// element, or a load of 0 and no store.
enum class SurfaceBoundary : uint8_t { trap, clamp, zero };

struct Modifiers {
  RoundingMode rounding = RoundingMode::none;
  CompareOp compare = CompareOp::none;
  BoolOp bool_op = BoolOp::none;
  AtomicOp atomic = AtomicOp::none;  // atom/red operator; also redux.sync's (add min max and or xor)
  MulMode mul = MulMode::none;
  ShuffleMode shuffle = ShuffleMode::none;
  VoteMode vote = VoteMode::none;
  BarrierMode barrier = BarrierMode::none;
  uint8_t vector_width = 1;  // .v2 / .v4 on ld/st/tex
  // tex, tld4, suld, sust: the dimensions of what is sampled, 1 (.1d, .a1d), 2 (.2d, .a2d, and a
  // cubemap's face: .cube, .acube) or 3 (.3d); `layered`: the coordinates start with a layer
  // index (.a1d, .a2d, .acube); `cube`: three direction coordinates pick a cubemap's face.
  uint8_t geometry = 0;
  bool layered = false;
  bool cube = false;
  uint32_t coordinate_count() const { return geometry + layered + cube; }
  // suld/sust: what an access outside the surface does (.trap, .clamp, .zero)
  SurfaceBoundary boundary = SurfaceBoundary::trap;
  uint8_t gather_component = 0;  // tld4: .r .g .b .a (0 to 3)
  bool ftz = false;
  bool sat = false;
  bool approx = false;
  bool carry_out = false;  // .cc
  bool carry_in = false;   // addc / subc / madc
  bool uniform = false;    // .uni
  bool to_generic = true;  // cvta: true for cvta.<space>, false for cvta.to.<space>
  bool clamp = false;      // shf, bmsk, szext: .clamp (else .wrap)
  bool shift_right = false;  // .shiftamt of bfind
  bool full = false;        // div.full.f32 (approximate, 2 ulp)
  bool non_coherent = false;  // ld.global.nc
  // ld .cg/.cv (cached in L2 only / fetched again): the load bypasses the SM's L1.
  bool l2_only = false;
  bool shift_left = false;  // shf.l (false: shf.r); the mode is .wrap unless `clamp`
  BarrierReduction barrier_reduction = BarrierReduction::none;
  MemoryScope scope = MemoryScope::none;
  MemoryOrder order = MemoryOrder::none;
  PermuteMode permute = PermuteMode::none;
  TestProperty test = TestProperty::none;
  // wmma.* and mma.sync: the tile shape; `layout_a` is the layout of wmma.load/store's matrix
  // and of A in wmma.mma/mma.sync, `layout_b` B's; `accumulator_type` is C's type of
  // wmma.mma/mma.sync (the instruction's `type` is D's, `source_type` A's and B's).
  MatrixShape shape = MatrixShape::none;
  MatrixLayout layout_a = MatrixLayout::none;
  MatrixLayout layout_b = MatrixLayout::none;
  DataType accumulator_type = DataType::none;
  bool satfinite = false;  // integer wmma.mma: clamp D to the s32 range instead of wrapping
  bool accumulate = false;  // vabsdiff2/4 .add: d = c + the sum of the elements' differences
  DataType b_type =
      DataType::none;      // vabsdiff2/4, integer mma.sync: b's type (the third type suffix)
  bool transpose = false;  // ldmatrix .trans (its .x1/.x2/.x4 is vector_width)
  uint8_t prefetch_level = 0;     // prefetch .L1 (1) or .L2 (2): for the disassembly only
  bool uniform_prefetch = false;  // prefetchu
};

struct Instruction {
  Opcode op = Opcode::mov;
  UnitClass unit = UnitClass::int_alu;
  DataType type = DataType::none;         // the instruction's (first) type suffix
  DataType source_type = DataType::none;  // second type: cvt's source, slct's c, setp's compare
  StateSpace space = StateSpace::generic; // ld/st/atom/red/cvta/prefetch
  Modifiers mod;

  uint32_t guard_reg = no_register;  // @%p / @!%p
  bool guard_negated = false;

  // Destination(s) first, then sources, in PTX order. tex: operands[0] the destination vector,
  // operands[1] the texture handle (reg or imm), operands[2] the coordinates (a vector, or a
  // reg for .1d); `type` is the destination type, `source_type` the coordinate type. `dest_pred` is the second destination of
  // `setp p|q` and `shfl.sync d|p`.
  uint8_t operand_count = 0;
  std::array<Operand, 6> operands{};
  uint32_t dest_pred = no_register;

  // call: (ret-args) and (args) as symbols of call-site .param variables.
  std::vector<uint32_t> call_returns;
  std::vector<uint32_t> call_arguments;

  // Filled by the control-flow analysis: for a bra, the instruction index of its immediate
  // post-dominator (where a divergent warp reconverges); `no_target` if it is the function exit.
  uint32_t reconvergence_pc = no_target;

  uint32_t source_line = 0;  // 1-based line in the PTX file
};

}  // namespace ohmvp::gpu
