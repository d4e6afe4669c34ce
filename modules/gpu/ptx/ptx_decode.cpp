#include "modules/gpu/ptx/ptx_decode.h"

#include <algorithm>
#include <array>

#include "modules/gpu/ptx/atomic_alu.h"
#include "modules/gpu/ptx/operand_type_rules.h"
#include "modules/gpu/ptx/ptx_immediate.h"
#include "modules/gpu/ptx/ptx_matrix.h"
#include "modules/gpu/ptx/ptx_names.h"
#include "modules/gpu/ptx/unsupported_ptx.h"

namespace ohmvp::gpu {
namespace {

std::vector<std::string_view> split_pieces(std::string_view word) {
  std::vector<std::string_view> pieces;
  size_t start = 0;
  while (true) {
    const size_t dot = word.find('.', start);
    pieces.push_back(word.substr(start, dot == std::string_view::npos ? dot : dot - start));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return pieces;
}

[[noreturn]] void fail(const std::string& message) {
  throw DecodeError{message};
}

std::optional<MemoryScope> scope_from_name(std::string_view name) {
  if (name == "cta") return MemoryScope::cta;
  if (name == "gpu") return MemoryScope::gpu;
  if (name == "sys") return MemoryScope::sys;
  if (name == "cluster") return MemoryScope::cluster;
  return std::nullopt;
}

std::optional<MemoryOrder> order_from_name(std::string_view name) {
  if (name == "weak") return MemoryOrder::weak;
  if (name == "volatile") return MemoryOrder::volatile_;
  if (name == "relaxed") return MemoryOrder::relaxed;
  if (name == "acquire") return MemoryOrder::acquire;
  if (name == "release") return MemoryOrder::release;
  if (name == "acq_rel") return MemoryOrder::acq_rel;
  if (name == "sc") return MemoryOrder::sc;
  return std::nullopt;
}

bool is_cache_qualifier(std::string_view name) {
  static constexpr std::string_view k_plain[] = {"ca", "cg", "cs", "lu", "cv", "wb", "wt"};
  for (std::string_view q : k_plain)
    if (name == q) return true;
  if (name == "L2::cache_hint") return false;  // takes an extra operand
  return name.substr(0, 4) == "L1::" || name.substr(0, 4) == "L2::";
}

// redux.sync's operators (the integer reductions; atom's inc/dec/exch/cas have no redux form).
bool is_redux_operator(AtomicOp op) {
  return op == AtomicOp::add || op == AtomicOp::min || op == AtomicOp::max ||
         op == AtomicOp::and_ || op == AtomicOp::or_ || op == AtomicOp::xor_;
}

bool is_float_rounding(RoundingMode mode) {
  return mode == RoundingMode::rn || mode == RoundingMode::rz || mode == RoundingMode::rm ||
         mode == RoundingMode::rp;
}

// What a cvt needs of its rounding modifier, as the PTX ISA (and ptxas) have it: a float one
// where the value may lose precision (an integer or a wider float to a float), an integer one
// to turn a float into an integer (or, optionally, into an integral float of the same type),
// none otherwise.
void check_cvt_rounding(const Instruction& inst) {
  const DataType to = inst.type;
  const DataType from = inst.source_type;
  const RoundingMode mode = inst.mod.rounding;
  const bool float_mode = is_float_rounding(mode);
  const bool integer_mode = mode != RoundingMode::none && !float_mode;
  const std::string name = "cvt." + std::string(type_name(to)) + "." + std::string(type_name(from));
  const auto need = [&](const char* what) { fail(name + " needs " + what); };
  const auto refuse = [&](const char* why) {
    fail(name + " takes no ." + std::string(rounding_name(mode)) + " (" + why + ")");
  };
  constexpr const char* float_modes = "a rounding modifier (.rn, .rz, .rm or .rp)";
  if (!is_float(to) && !is_float(from)) {
    if (mode != RoundingMode::none) refuse("an integer conversion does not round");
  } else if (!is_float(to)) {
    if (!integer_mode) need("an integer rounding modifier (.rni, .rzi, .rmi or .rpi)");
  } else if (!is_float(from) || to == DataType::f16x2 || to == DataType::bf16x2 ||
             type_bytes(to) < type_bytes(from)) {
    if (!float_mode) need(float_modes);
  } else if (type_bytes(to) > type_bytes(from)) {
    if (mode != RoundingMode::none) refuse("widening a float is exact");
  } else if (float_mode) {
    refuse("a float of the same size rounds only to an integral value: .rni, .rzi, .rmi, .rpi");
  }
}

// tex, tld4, suld, sust: the geometry into mod.geometry, mod.layered and mod.cube; false for a
// piece that is none. Surfaces have no cube geometries (a cubemap surface is read as .a2d) and
// only tex and tld4 have .cube, .acube; tld4 takes the 2-D ones. Multisample textures fail.
bool apply_geometry(std::string_view piece, Opcode op, Modifiers& mod) {
  static constexpr struct {
    std::string_view name;
    uint8_t dimensions;
    bool layered, cube;
  } geometries[] = {{"1d", 1, false, false}, {"2d", 2, false, false}, {"3d", 3, false, false},
                    {"a1d", 1, true, false}, {"a2d", 2, true, false}, {"cube", 2, false, true},
                    {"acube", 2, true, true}};
  if (piece == "2dms" || piece == "a2dms")
    fail("multisample textures (." + std::string(piece) + ") are not supported");
  for (const auto& geometry : geometries) {
    if (piece != geometry.name) continue;
    const bool surface = op == Opcode::suld || op == Opcode::sust;
    if ((surface && geometry.cube) || (op == Opcode::tld4 && geometry.dimensions != 2))
      fail(std::string(opcode_name(op)) + " has no ." + std::string(piece) + " geometry (" +
           (surface ? ".1d .2d .3d .a1d .a2d; a cubemap surface is accessed as .a2d"
                    : ".2d .a2d .cube .acube") +
           ")");
    mod.geometry = geometry.dimensions;
    mod.layered = geometry.layered;
    mod.cube = geometry.cube;
    return true;
  }
  return false;
}

// Applies one modifier piece of `base` to `inst`; false if the opcode does not take it.
bool apply_modifier(std::string_view base, std::string_view piece, Instruction& inst) {
  Modifiers& mod = inst.mod;
  const Opcode op = inst.op;
  auto rounding = rounding_from_name(piece);
  switch (op) {
    case Opcode::ld:
    case Opcode::ldu:
    case Opcode::st:
    case Opcode::prefetch:
      if (auto space = space_from_name(piece);
          space && *space != StateSpace::reg && *space != StateSpace::tex) {
        inst.space = *space;
        return true;
      }
      if (piece == "v2" || piece == "v4") {
        if (op == Opcode::prefetch) return false;
        mod.vector_width = static_cast<uint8_t>(piece[1] - '0');
        return true;
      }
      if (piece == "nc" && op == Opcode::ld) return mod.non_coherent = true;
      if (op == Opcode::prefetch) {
        if (piece != "L1" && piece != "L2") return false;
        mod.prefetch_level = static_cast<uint8_t>(piece[1] - '0');
        return true;
      }
      if (auto scope = scope_from_name(piece)) {
        mod.scope = *scope;
        return true;
      }
      if (auto order = order_from_name(piece)) {
        if (*order == MemoryOrder::acquire && op == Opcode::st) return false;
        if (*order == MemoryOrder::release && op != Opcode::st) return false;
        if (*order == MemoryOrder::acq_rel || *order == MemoryOrder::sc) return false;
        mod.order = *order;
        return true;
      }
      if ((piece == "cg" || piece == "cv") && op != Opcode::st) mod.l2_only = true;
      return is_cache_qualifier(piece);
    case Opcode::cvta:
      if (piece == "to") return !(mod.to_generic = false);
      if (auto space = space_from_name(piece);
          space && (*space == StateSpace::global || *space == StateSpace::shared ||
                    *space == StateSpace::local || *space == StateSpace::const_ ||
                    *space == StateSpace::param)) {
        inst.space = *space;
        return true;
      }
      return false;
    case Opcode::cvt:
      if (rounding) return mod.rounding = *rounding, true;
      if (piece == "ftz") return mod.ftz = true;
      if (piece == "sat") return mod.sat = true;
      return false;
    case Opcode::add:
    case Opcode::sub:
      if (piece == "cc") return mod.carry_out = true;
      if (piece == "sat") return mod.sat = true;
      if (piece == "ftz") return mod.ftz = true;
      if (rounding && is_float_rounding(*rounding)) return mod.rounding = *rounding, true;
      return false;
    case Opcode::mul:
    case Opcode::mad:
    case Opcode::mul24:
    case Opcode::mad24:
      if (piece == "lo") return mod.mul = MulMode::lo, true;
      if (piece == "hi") return mod.mul = MulMode::hi, true;
      if (piece == "wide" && (op == Opcode::mul || op == Opcode::mad))
        return mod.mul = MulMode::wide, true;
      if (piece == "sat" && op == Opcode::mad24) return mod.sat = true;
      if (op == Opcode::mul24 || op == Opcode::mad24) return false;
      if (piece == "cc" && op == Opcode::mad) return mod.carry_out = true;
      if (piece == "sat") return mod.sat = true;
      if (piece == "ftz") return mod.ftz = true;
      if (rounding && is_float_rounding(*rounding)) return mod.rounding = *rounding, true;
      return false;
    case Opcode::div:
      if (piece == "approx") return mod.approx = true;
      if (piece == "full") return mod.full = true;
      [[fallthrough]];
    case Opcode::fma:
    case Opcode::rcp:
    case Opcode::sqrt:
      if (piece == "ftz") return mod.ftz = true;
      if (piece == "sat" && op == Opcode::fma) return mod.sat = true;
      if (piece == "approx" && op != Opcode::fma) return mod.approx = true;
      if (rounding && is_float_rounding(*rounding)) return mod.rounding = *rounding, true;
      return false;
    case Opcode::rsqrt:
    case Opcode::ex2:
    case Opcode::lg2:
    case Opcode::sin:
    case Opcode::cos:
    case Opcode::tanh:
      if (piece == "approx") return mod.approx = true;
      if (piece == "ftz" && op != Opcode::tanh) return mod.ftz = true;
      return false;
    case Opcode::min:
    case Opcode::max:
    case Opcode::abs:
    case Opcode::neg:
      return piece == "ftz" && (mod.ftz = true);
    case Opcode::shf:
      if (piece == "l") return mod.shift_left = true;
      if (piece == "r") return !(mod.shift_left = false);
      [[fallthrough]];
    case Opcode::bmsk:
    case Opcode::szext:
      if (piece == "clamp") return mod.clamp = true;
      return piece == "wrap";
    case Opcode::bfind:
      return piece == "shiftamt" && (mod.shift_right = true);
    case Opcode::prmt:
      if (auto mode = permute_mode_from_name(piece); mode && mod.permute == PermuteMode::none)
        return mod.permute = *mode, true;
      return false;
    case Opcode::vabsdiff4:
    case Opcode::vabsdiff2:
      if (piece == "add") return mod.accumulate = true;
      if (piece == "sat") return mod.sat = true;
      return false;
    case Opcode::dp2a:
      if (piece == "lo" && mod.mul == MulMode::none) return mod.mul = MulMode::lo, true;
      if (piece == "hi" && mod.mul == MulMode::none) return mod.mul = MulMode::hi, true;
      return false;
    case Opcode::isspacep:
      if (inst.space != StateSpace::generic) return false;
      if (piece == "shared::cta") return inst.space = StateSpace::shared, true;
      if (piece == "param::entry") return inst.space = StateSpace::param, true;
      if (auto space = space_from_name(piece);
          space && (*space == StateSpace::global || *space == StateSpace::shared ||
                    *space == StateSpace::local || *space == StateSpace::const_ ||
                    *space == StateSpace::param)) {
        inst.space = *space;
        return true;
      }
      return false;
    case Opcode::testp:
      if (auto property = test_property_from_name(piece);
          property && mod.test == TestProperty::none)
        return mod.test = *property, true;
      return false;
    case Opcode::redux:
      if (piece == "sync") return true;
      if (auto atomic = atomic_from_name(piece);
          atomic && mod.atomic == AtomicOp::none && is_redux_operator(*atomic))
        return mod.atomic = *atomic, true;
      return false;
    case Opcode::setp:
    case Opcode::set:
      if (auto compare = compare_from_name(piece); compare && mod.compare == CompareOp::none)
        return mod.compare = *compare, true;
      if (piece == "and") return mod.bool_op = BoolOp::and_, true;
      if (piece == "or") return mod.bool_op = BoolOp::or_, true;
      if (piece == "xor") return mod.bool_op = BoolOp::xor_, true;
      return piece == "ftz" && (mod.ftz = true);
    case Opcode::slct:
      return piece == "ftz" && (mod.ftz = true);
    case Opcode::bra:
    case Opcode::ret:
      return piece == "uni" && (mod.uniform = true);
    case Opcode::bar:
      if (piece == "sync" && mod.barrier == BarrierMode::warp) return true;
      if (piece == "sync") return mod.barrier = BarrierMode::sync, true;
      if (piece == "arrive") return mod.barrier = BarrierMode::arrive, true;
      if (piece == "red") return mod.barrier = BarrierMode::reduce, true;
      if (piece == "warp" && base == "bar") return mod.barrier = BarrierMode::warp, true;
      if (piece == "aligned") return true;
      if (mod.barrier == BarrierMode::reduce) {
        if (piece == "popc") return mod.barrier_reduction = BarrierReduction::popc, true;
        if (piece == "and") return mod.barrier_reduction = BarrierReduction::and_, true;
        if (piece == "or") return mod.barrier_reduction = BarrierReduction::or_, true;
      }
      return false;
    case Opcode::membar:
      if (piece == "cta") return mod.scope = MemoryScope::cta, true;
      if (piece == "gl") return mod.scope = MemoryScope::gpu, true;
      if (piece == "sys") return mod.scope = MemoryScope::sys, true;
      return false;
    case Opcode::fence:
      if (auto scope = scope_from_name(piece)) return mod.scope = *scope, true;
      if (piece == "sc") return mod.order = MemoryOrder::sc, true;
      if (piece == "acq_rel") return mod.order = MemoryOrder::acq_rel, true;
      return false;
    case Opcode::atom:
    case Opcode::red:
      if (piece == "global" || piece == "shared") {
        inst.space = *space_from_name(piece);
        return true;
      }
      if (auto atomic = atomic_from_name(piece); atomic && mod.atomic == AtomicOp::none)
        return mod.atomic = *atomic, true;
      if (piece == "noftz") return true;  // f16/bf16 add: subnormals kept (no flushing anyway)
      if (auto scope = scope_from_name(piece)) return mod.scope = *scope, true;
      if (auto order = order_from_name(piece); order && *order != MemoryOrder::weak &&
                                               *order != MemoryOrder::volatile_ &&
                                               *order != MemoryOrder::sc)
        return mod.order = *order, true;
      return false;
    case Opcode::shfl:
      if (piece == "sync") return true;
      if (piece == "up") return mod.shuffle = ShuffleMode::up, true;
      if (piece == "down") return mod.shuffle = ShuffleMode::down, true;
      if (piece == "bfly") return mod.shuffle = ShuffleMode::bfly, true;
      if (piece == "idx") return mod.shuffle = ShuffleMode::idx, true;
      return false;
    case Opcode::vote:
      if (piece == "sync") return true;
      if (piece == "all") return mod.vote = VoteMode::all, true;
      if (piece == "any") return mod.vote = VoteMode::any, true;
      if (piece == "uni") return mod.vote = VoteMode::uni, true;
      if (piece == "ballot") return mod.vote = VoteMode::ballot, true;
      return false;
    case Opcode::match:  // match.{any,all}.sync: the mode is kept as vote's all/any
      if (piece == "sync") return true;
      if (piece == "all") return mod.vote = VoteMode::all, true;
      if (piece == "any") return mod.vote = VoteMode::any, true;
      return false;
    case Opcode::tex:
      if (apply_geometry(piece, op, mod)) return true;
      if (piece == "v4") return mod.vector_width = 4, true;
      return false;
    case Opcode::tld4:
      if (apply_geometry(piece, op, mod)) return true;
      if (piece == "v4") return mod.vector_width = 4, true;
      for (uint8_t component = 0; component < 4; ++component)
        if (piece == std::string_view("rgba" + component, 1))
          return mod.gather_component = component, true;
      return false;
    case Opcode::suld:
    case Opcode::sust:
      if (piece == "b") return true;  // raw bits
      if (piece == "p")
        fail("formatted surface accesses (.p) are not supported; raw ones (.b) are");
      if (apply_geometry(piece, op, mod)) return true;
      if (piece == "v2") return mod.vector_width = 2, true;
      if (piece == "v4") return mod.vector_width = 4, true;
      if (piece == "trap") return mod.boundary = SurfaceBoundary::trap, true;
      if (piece == "clamp") return mod.boundary = SurfaceBoundary::clamp, true;
      if (piece == "zero") return mod.boundary = SurfaceBoundary::zero, true;
      // cache operators: the surface goes through the L1 as any global access
      return piece == "ca" || piece == "cg" || piece == "cs" || piece == "cv" || piece == "wb" ||
             piece == "wt";
    default:
      return false;
  }
}

bool needs_sync(Opcode op) {
  return op == Opcode::shfl || op == Opcode::vote || op == Opcode::redux || op == Opcode::match;
}

// Type suffixes each opcode takes: {min, max}.
std::pair<size_t, size_t> type_count(const Instruction& inst) {
  switch (inst.op) {
    case Opcode::bra:
    case Opcode::ret:
    case Opcode::exit:
    case Opcode::trap:
    case Opcode::brkpt:
    case Opcode::membar:
    case Opcode::fence:
    case Opcode::prefetch:
    case Opcode::isspacep:
      return {0, 0};
    case Opcode::bar:
      return inst.mod.barrier == BarrierMode::reduce ? std::pair<size_t, size_t>{1, 1}
                                                     : std::pair<size_t, size_t>{0, 0};
    case Opcode::cvt:
    case Opcode::set:
    case Opcode::slct:
    case Opcode::tex:
    case Opcode::tld4:
    case Opcode::dp4a:
    case Opcode::dp2a:
      return {2, 2};
    case Opcode::vabsdiff4:
    case Opcode::vabsdiff2:
      return {3, 3};
    default:
      return {1, 1};
  }
}

UnitClass float_unit(DataType type) {
  return type == DataType::f64 ? UnitClass::fp64 : UnitClass::fp32;
}

// How one operand position may be written and what type its immediate has.
struct Rule {
  enum : uint16_t {
    reg = 1,
    imm = 2,
    special = 4,
    address = 8,
    vector = 16,
    symbol = 32,
    label = 64,
    negatable = 128,
    pipe = 256,
    sink = 512,
    function = 1024,  // a function's address (a function pointer)
  };
  uint16_t kinds;
  DataType type;
};

constexpr uint16_t k_source = Rule::reg | Rule::imm;

// dp4a/dp2a: d and c are .u32 when a and b both are, else .s32.
DataType dot_product_type(const Instruction& inst) {
  return inst.type == DataType::u32 && inst.source_type == DataType::u32 ? DataType::u32
                                                                         : DataType::s32;
}

std::vector<Rule> operand_rules(const Instruction& inst, size_t given) {
  const DataType t = inst.type;
  const DataType pred = DataType::pred;
  const Rule dst{Rule::reg, t};
  const Rule src{k_source, t};
  const Rule psrc{Rule::reg | Rule::imm | Rule::negatable, pred};
  const Rule u32{k_source, DataType::u32};
  const Rule b32{k_source, DataType::b32};
  switch (inst.op) {
    case Opcode::mov: {
      const uint16_t address = type_bytes(t) == 8 ? Rule::function : 0;
      return {
          {Rule::reg | Rule::vector, t},
          {static_cast<uint16_t>(k_source | Rule::special | Rule::symbol | Rule::vector | address),
           t}};
    }
    case Opcode::ld:
    case Opcode::ldu:
      return {{static_cast<uint16_t>(inst.mod.vector_width > 1 ? Rule::vector : Rule::reg), t},
              {Rule::address, t}};
    case Opcode::st:
      return {{Rule::address, t},
              {static_cast<uint16_t>(inst.mod.vector_width > 1 ? static_cast<uint16_t>(Rule::vector)
                                                               : k_source),
               t}};
    case Opcode::prefetch:
      return {{Rule::address, t}};
    case Opcode::cvta:
      return {dst, {Rule::reg | Rule::symbol, t}};
    case Opcode::cvt:
      if ((t == DataType::f16x2 || t == DataType::bf16x2) && given == 3)
        return {dst, {k_source, inst.source_type}, {k_source, inst.source_type}};
      return {dst, {k_source | Rule::special, inst.source_type}};
    case Opcode::add:
    case Opcode::sub:
    case Opcode::min:
    case Opcode::max:
    case Opcode::and_:
    case Opcode::or_:
    case Opcode::xor_:
    case Opcode::copysign:
    case Opcode::rem:
    case Opcode::div:
    case Opcode::mul24:
      return {dst, src, src};
    case Opcode::mul:
      return {{Rule::reg, inst.mod.mul == MulMode::wide ? wide_type(t) : t}, src, src};
    case Opcode::mad:
      if (inst.mod.mul == MulMode::wide)
        return {{Rule::reg, wide_type(t)}, src, src, {k_source, wide_type(t)}};
      return {dst, src, src, src};
    case Opcode::mad24:
    case Opcode::fma:
    case Opcode::sad:
      return {dst, src, src, src};
    case Opcode::abs:
    case Opcode::neg:
    case Opcode::not_:
    case Opcode::cnot:
    case Opcode::brev:
    case Opcode::rcp:
    case Opcode::sqrt:
    case Opcode::rsqrt:
    case Opcode::ex2:
    case Opcode::lg2:
    case Opcode::sin:
    case Opcode::cos:
    case Opcode::tanh:
      return {dst, src};
    case Opcode::popc:
    case Opcode::clz:
    case Opcode::bfind:
      return {{Rule::reg, DataType::u32}, src};
    case Opcode::shl:
    case Opcode::shr:
      return {dst, src, u32};
    case Opcode::shf:
      return {dst, b32, b32, u32};
    case Opcode::bfe:
      return {dst, src, u32, u32};
    case Opcode::bfi:
      return {dst, src, src, u32, u32};
    case Opcode::prmt:
      return {dst, b32, b32, b32};
    case Opcode::lop3:
      return {dst, b32, b32, b32, {Rule::imm, DataType::u32}};
    case Opcode::dp4a:
    case Opcode::dp2a: {
      const DataType sum = dot_product_type(inst);
      return {{Rule::reg, sum}, {k_source, t}, {k_source, inst.source_type}, {k_source, sum}};
    }
    case Opcode::isspacep:  // a 32-bit register's address is taken as it is (zero-extended)
      return {{Rule::reg, pred}, {Rule::reg, DataType::b32}};
    case Opcode::vabsdiff4:
    case Opcode::vabsdiff2:
      return {dst, {k_source, inst.source_type}, {k_source, inst.mod.b_type}, src};
    case Opcode::testp:
      return {{Rule::reg, pred}, src};
    case Opcode::redux:
      return {dst, src, b32};
    case Opcode::match:  // d is a 32-bit lane mask whatever a's type
      if (inst.mod.vote == VoteMode::all)
        return {{Rule::reg | Rule::pipe, DataType::b32}, src, b32};
      return {{Rule::reg, DataType::b32}, src, b32};
    case Opcode::fns:
      return {dst, b32, b32, {k_source, DataType::s32}};
    case Opcode::bmsk:
      return {dst, b32, b32};
    case Opcode::szext:
      return {dst, src, u32};
    case Opcode::setp:
      if (inst.mod.bool_op != BoolOp::none) return {{Rule::reg | Rule::pipe, pred}, src, src, psrc};
      return {{Rule::reg | Rule::pipe, pred}, src, src};
    case Opcode::set:
      if (inst.mod.bool_op != BoolOp::none)
        return {dst, {k_source, inst.source_type}, {k_source, inst.source_type}, psrc};
      return {dst, {k_source, inst.source_type}, {k_source, inst.source_type}};
    case Opcode::selp:
      return {dst, src, src, psrc};
    case Opcode::slct:
      return {dst, src, src, {k_source, inst.source_type}};
    case Opcode::bra:
      return {{Rule::label, DataType::none}};
    case Opcode::ret:
    case Opcode::exit:
    case Opcode::trap:
    case Opcode::brkpt:
    case Opcode::membar:
    case Opcode::fence:
      return {};
    case Opcode::nanosleep:
      return {u32};
    case Opcode::bar:
      switch (inst.mod.barrier) {
        case BarrierMode::sync:
          return given == 2 ? std::vector<Rule>{u32, u32} : std::vector<Rule>{u32};
        case BarrierMode::arrive:
          return {u32, u32};
        case BarrierMode::warp:
          return {b32};
        case BarrierMode::reduce:
          if (given == 4) return {{Rule::reg, t}, u32, u32, psrc};
          return {{Rule::reg, t}, u32, psrc};
        case BarrierMode::none:
          break;
      }
      return {};
    case Opcode::atom:
      if (inst.mod.atomic == AtomicOp::cas) return {dst, {Rule::address, t}, src, src};
      return {dst, {Rule::address, t}, src};
    case Opcode::red:
      return {{Rule::address, t}, src};
    case Opcode::shfl:
      return {{Rule::reg | Rule::pipe, t}, b32, b32, b32, b32};
    case Opcode::vote:
      if (inst.mod.vote == VoteMode::ballot) return {{Rule::reg, DataType::b32}, psrc, b32};
      return {{Rule::reg, pred}, psrc, b32};
    case Opcode::activemask:
    case Opcode::stacksave:
      return {dst};
    case Opcode::stackrestore:
      return {src};
    case Opcode::alloca_:  // alloca.type d, size[, alignment]
      if (given == 3) return {dst, src, {Rule::imm, DataType::u32}};
      return {dst, src};
    case Opcode::tex:
    case Opcode::tld4:
      return {{Rule::vector, t},
              {Rule::reg | Rule::symbol, DataType::b64},
              {Rule::vector, inst.source_type}};
    case Opcode::suld:  // suld.b d, [surface, {x (bytes), y, z}]
      return {{Rule::vector, t},
              {Rule::reg | Rule::symbol, DataType::b64},
              {Rule::vector, DataType::b32}};
    case Opcode::sust:  // sust.b [surface, {x (bytes), y, z}], b
      return {{Rule::reg | Rule::symbol, DataType::b64},
              {Rule::vector, DataType::b32},
              {Rule::vector, t}};
    default:
      return {};
  }
}

std::string_view kind_name(Operand::Kind kind) {
  switch (kind) {
    case Operand::Kind::reg:
      return "a register";
    case Operand::Kind::imm:
      return "an immediate";
    case Operand::Kind::special:
      return "a special register";
    case Operand::Kind::address:
      return "an address";
    case Operand::Kind::vector:
      return "a vector";
    case Operand::Kind::symbol:
      return "a symbol";
    case Operand::Kind::label:
      return "a label";
    case Operand::Kind::function:
      return "a function";
    case Operand::Kind::sink:
      return "'_'";
    case Operand::Kind::none:
      break;
  }
  return "nothing";
}

uint16_t rule_bit(Operand::Kind kind) {
  switch (kind) {
    case Operand::Kind::reg:
      return Rule::reg;
    case Operand::Kind::imm:
      return Rule::imm;
    case Operand::Kind::special:
      return Rule::special;
    case Operand::Kind::address:
      return Rule::address;
    case Operand::Kind::vector:
      return Rule::vector;
    case Operand::Kind::symbol:
      return Rule::symbol;
    case Operand::Kind::label:
      return Rule::label;
    case Operand::Kind::sink:
      return Rule::sink;
    case Operand::Kind::function:
      return Rule::function;
    default:
      return 0;
  }
}

// ld, ldu, st and cvt take registers wider than their type (the value is chopped or extended);
// isspacep a 32- or 64-bit address.
bool takes_wider_registers(Opcode op) {
  return op == Opcode::ld || op == Opcode::ldu || op == Opcode::st || op == Opcode::cvt ||
         op == Opcode::isspacep || op == Opcode::suld || op == Opcode::sust;
}

std::string operand_text(size_t position) {
  return "operand " + std::to_string(position + 1);
}

void check_register(uint32_t reg, DataType taken, size_t position, const Instruction& inst,
                    const Function& function) {
  if (reg == no_register || reg >= function.register_types.size()) return;
  const DataType declared = function.register_types[reg];
  if (register_type_agrees(taken, declared, takes_wider_registers(inst.op))) return;
  const std::string operand = operand_text(position) + " '" + function.register_names[reg] + "'";
  if (taken == DataType::pred) fail(operand + " must be a predicate register");
  if (declared == DataType::pred)
    fail(operand + " is a predicate register, expected a " + type_text(taken) + " value");
  fail(operand + " is a " + type_text(declared) + " register, expected a " + type_text(taken) +
       " value");
}

// An address's register holds an integer or bits (as ptxas has it), not a float or predicate.
void check_address_register(uint32_t reg, size_t position, const Function& function) {
  if (reg == no_register || reg >= function.register_types.size()) return;
  const DataType declared = function.register_types[reg];
  if (declared == DataType::pred || is_float(declared))
    fail(operand_text(position) + " '" + function.register_names[reg] + "' is a " +
         type_text(declared) + " register; an address needs an integer or bit-size one");
}

// A vector of mov packs or unpacks a register: each element is a bit-size part of it.
void check_mov_parts(const Operand& vector, DataType taken, size_t position,
                     const Instruction& inst, const Function& function) {
  const DataType part = bits_of_size(type_bytes(taken) / vector.vector_count);
  for (size_t k = 0; k < vector.vector_count; ++k)
    check_register(vector.vector_regs[k], part, position, inst, function);
}

// A vector of ld, st or tex is read as one type (operand_type_rules.h: vector_type).
void check_vector(const Operand& vector, DataType taken, size_t position, const Instruction& inst,
                  const Function& function) {
  std::vector<DataType> element_types;
  for (size_t k = 0; k < vector.vector_count; ++k) {
    const uint32_t reg = vector.vector_regs[k];
    if (reg == no_register || reg >= function.register_types.size()) continue;
    if (function.register_types[reg] == DataType::pred)
      fail(operand_text(position) + " holds predicate register '" + function.register_names[reg] +
           "', expected " + type_text(taken) + " values");
    element_types.push_back(function.register_types[reg]);
  }
  if (element_types.empty()) return;
  const auto type = vector_type(element_types);
  if (!type) fail(operand_text(position) + " mixes registers of different sizes");
  if (!register_type_agrees(taken, *type, takes_wider_registers(inst.op)))
    fail(operand_text(position) + " is a vector of " + type_text(*type) + " registers, expected " +
         type_text(taken) + " values");
}

// A special register is read as its own width: .u64 for %clock64 and %globaltimer, either for
// %gridid, .u32 for the others, whose %tid, %ntid, %ctaid and %nctaid legacy code may also read
// as 16 bits. cvt converts from any integer width; no special register is a float.
void check_special_read(const Instruction& inst, SpecialRegister reg) {
  const std::string name(special_register_name(reg));
  const DataType read = inst.op == Opcode::cvt ? inst.source_type : inst.type;
  const std::string instruction =
      std::string(opcode_name(inst.op)) + "." + std::string(type_name(inst.type)) +
      (inst.op == Opcode::cvt ? "." + std::string(type_name(read)) : "");
  if (is_float(inst.type) || is_float(read))
    fail(instruction + " cannot take " + name + ": a special register is read only as an integer");
  if (inst.op == Opcode::cvt) return;
  const size_t bytes = type_bytes(read);
  const bool wide = reg == SpecialRegister::clock64 || reg == SpecialRegister::globaltimer;
  const bool legacy = reg == SpecialRegister::tid || reg == SpecialRegister::ntid ||
                      reg == SpecialRegister::ctaid || reg == SpecialRegister::nctaid;
  const bool fits = wide                             ? bytes == 8
                    : reg == SpecialRegister::gridid ? bytes == 4 || bytes == 8
                                                     : bytes == 4 || (legacy && bytes == 2);
  if (!fits)
    fail(instruction + " cannot read " + name + ", a " + (wide ? ".u64" : ".u32") + " register");
}

void check_operands(Instruction& inst, std::vector<RawOperand>& operands,
                    const Function& function) {
  const std::vector<Rule> rules = operand_rules(inst, operands.size());
  if (rules.size() != operands.size())
    fail("expected " + std::to_string(rules.size()) + " operand" + (rules.size() == 1 ? "" : "s") +
         " for " + std::string(opcode_name(inst.op)) + ", got " + std::to_string(operands.size()));
  for (size_t i = 0; i < operands.size(); ++i) {
    RawOperand& raw = operands[i];
    Operand& operand = raw.operand;
    const Rule& rule = rules[i];
    if (!(rule_bit(operand.kind) & rule.kinds))
      fail(operand_text(i) + " of " + std::string(opcode_name(inst.op)) + " cannot be " +
           std::string(kind_name(operand.kind)));
    if (operand.negated && !(rule.kinds & Rule::negatable))
      fail(operand_text(i) + " cannot be negated with '!'");
    if (raw.pipe_predicate != no_register) {
      if (!(rule.kinds & Rule::pipe)) fail(operand_text(i) + " cannot be 'd|p'");
      check_register(raw.pipe_predicate, DataType::pred, i, inst, function);
      inst.dest_pred = raw.pipe_predicate;
    }
    if (operand.kind == Operand::Kind::imm) {
      const ImmediateResult result = immediate_bits(raw.literal, raw.literal_negative, rule.type);
      if (!result.error.empty()) fail(result.error);
      operand.imm = result.bits;
    } else if (operand.kind == Operand::Kind::address) {
      check_address_register(operand.reg, i, function);
    } else if (operand.kind == Operand::Kind::reg) {
      check_register(operand.reg, rule.type, i, inst, function);
    } else if (operand.kind == Operand::Kind::special) {
      check_special_read(inst, operand.special);
    } else if (operand.kind == Operand::Kind::vector) {
      if (inst.op == Opcode::ld || inst.op == Opcode::ldu || inst.op == Opcode::st) {
        if (operand.vector_count != inst.mod.vector_width)
          fail("vector operand has " + std::to_string(operand.vector_count) + " elements, ." + "v" +
               std::to_string(inst.mod.vector_width) + " needs " +
               std::to_string(inst.mod.vector_width));
      }
      const bool fetch = inst.op == Opcode::tex || inst.op == Opcode::tld4;
      if (fetch && i == 0 && operand.vector_count != 4)
        fail(std::string(opcode_name(inst.op)) + " needs a destination vector of 4 registers");
      const auto too_few_coordinates = [&] {
        fail(std::string(opcode_name(inst.op)) + "." +
             geometry_name(inst.mod.geometry, inst.mod.layered, inst.mod.cube) + " needs " +
             std::to_string(inst.mod.coordinate_count()) + " coordinates");
      };
      if (fetch && i == 2 && operand.vector_count < inst.mod.coordinate_count())
        too_few_coordinates();
      const bool surface_data =
          (inst.op == Opcode::suld && i == 0) || (inst.op == Opcode::sust && i == 2);
      const bool surface_coordinates =
          (inst.op == Opcode::suld && i == 2) || (inst.op == Opcode::sust && i == 1);
      if (surface_data && operand.vector_count != inst.mod.vector_width)
        fail(std::string(opcode_name(inst.op)) + " with ." +
             (inst.mod.vector_width == 1 ? std::string("b")
                                         : "v" + std::to_string(inst.mod.vector_width)) +
             " needs " + std::to_string(inst.mod.vector_width) + " data register" +
             (inst.mod.vector_width == 1 ? "" : "s"));
      if (surface_coordinates && operand.vector_count < inst.mod.coordinate_count())
        too_few_coordinates();
      if (inst.op == Opcode::mov) {
        const size_t other = i == 0 ? 1 : 0;
        if (operands.size() == 2 && operands[other].operand.kind != Operand::Kind::reg)
          fail("mov with a vector operand packs or unpacks a register");
        if (operand.vector_count < 2 || type_bytes(inst.type) % operand.vector_count != 0)
          fail("mov." + std::string(type_name(inst.type)) + " cannot split into " +
               std::to_string(operand.vector_count) + " parts");
      }
      // '_' discards a destination's element; a vector that is read has none to give.
      const bool written =
          i == 0 && (inst.op == Opcode::ld || inst.op == Opcode::ldu || inst.op == Opcode::tex ||
                     inst.op == Opcode::mov || inst.op == Opcode::suld || inst.op == Opcode::tld4);
      for (size_t k = 0; k < operand.vector_count && !written; ++k)
        if (operand.vector_regs[k] == no_register)
          fail(operand_text(i) + " is read: its element " + std::to_string(k + 1) +
               " cannot be '_'");
      if (inst.op == Opcode::mov) {
        check_mov_parts(operand, rule.type, i, inst, function);
      } else {
        check_vector(operand, rule.type, i, inst, function);
      }
    }
  }
  inst.operand_count = static_cast<uint8_t>(operands.size());
  for (size_t i = 0; i < operands.size(); ++i) inst.operands[i] = operands[i].operand;
  // A CTA has barriers 0 to 15 (a register's value is checked when the barrier runs).
  if (inst.op == Opcode::bar && inst.mod.barrier != BarrierMode::warp) {
    const size_t id = inst.mod.barrier == BarrierMode::reduce ? 1 : 0;
    if (id < operands.size() && inst.operands[id].kind == Operand::Kind::imm &&
        inst.operands[id].imm >= cta_barriers)
      fail("barrier " + std::to_string(inst.operands[id].imm) + ": expected 0 to " +
           std::to_string(cta_barriers - 1) + " (a CTA has " + std::to_string(cta_barriers) +
           " barriers)");
  }
}

}  // namespace

UnitClass unit_class_of(const Instruction& inst) {
  switch (inst.op) {
    case Opcode::ld:
    case Opcode::ldu:
    case Opcode::st:
    case Opcode::prefetch:
    case Opcode::atom:
    case Opcode::red:
    case Opcode::tex:
    case Opcode::tld4:
    case Opcode::suld:
    case Opcode::sust:
      return UnitClass::ldst;
    case Opcode::bra:
    case Opcode::call:
    case Opcode::ret:
    case Opcode::exit:
    case Opcode::trap:
    case Opcode::brkpt:
      return UnitClass::branch;
    case Opcode::bar:
    case Opcode::membar:
    case Opcode::fence:
    case Opcode::nanosleep:
      return UnitClass::barrier;
    case Opcode::wmma_load_a:  // ordinary loads and stores (Raihan et al. 2019, Section III.C)
    case Opcode::wmma_load_b:
    case Opcode::wmma_load_c:
    case Opcode::wmma_store_d:
    case Opcode::ldmatrix:
      return UnitClass::ldst;
    case Opcode::wmma_mma:
    case Opcode::mma:
      return UnitClass::tensor;
    case Opcode::rcp:
    case Opcode::sqrt:
    case Opcode::rsqrt:
    case Opcode::ex2:
    case Opcode::lg2:
    case Opcode::sin:
    case Opcode::cos:
    case Opcode::tanh:
      return inst.type == DataType::f64 ? UnitClass::fp64 : UnitClass::sfu;
    case Opcode::div:
      if (inst.type == DataType::f64) return UnitClass::fp64;
      return is_float(inst.type) ? UnitClass::sfu : UnitClass::int_alu;
    case Opcode::cvt:
      if (inst.type == DataType::f64 || inst.source_type == DataType::f64) return UnitClass::fp64;
      if (is_float(inst.type) || is_float(inst.source_type)) return UnitClass::fp32;
      return UnitClass::int_alu;
    case Opcode::setp:
    case Opcode::set:
    case Opcode::slct:
      if (inst.type == DataType::f64 || inst.source_type == DataType::f64) return UnitClass::fp64;
      return is_float(inst.type) || is_float(inst.source_type) ? UnitClass::fp32
                                                               : UnitClass::int_alu;
    case Opcode::add:
    case Opcode::sub:
    case Opcode::mul:
    case Opcode::mad:
    case Opcode::fma:
    case Opcode::min:
    case Opcode::max:
    case Opcode::abs:
    case Opcode::neg:
    case Opcode::copysign:
    case Opcode::testp:
      return is_float(inst.type) ? float_unit(inst.type) : UnitClass::int_alu;
    default:
      return UnitClass::int_alu;
  }
}

namespace {

// Names decode_instruction takes besides opcode_from_name's: matrix instructions and aliases.
constexpr std::array<std::string_view, 8> k_other_names{"wmma", "mma",  "ldmatrix", "addc",
                                                        "subc", "madc", "barrier",  "prefetchu"};

}  // namespace

bool is_instruction_name(std::string_view base) {
  return opcode_from_name(base) ||
         std::find(k_other_names.begin(), k_other_names.end(), base) != k_other_names.end() ||
         unsupported_instruction(base);
}

void decode_instruction(std::string_view word, std::vector<RawOperand>& operands,
                        const Function& function, Instruction& inst) {
  const std::vector<std::string_view> pieces = split_pieces(word);
  const std::string_view base = pieces[0];
  if (base == "wmma" || base == "mma" || base == "ldmatrix") {
    decode_matrix_instruction(word, pieces, operands, function, inst);
    return;
  }
  std::optional<Opcode> op = opcode_from_name(base);
  if (base == "addc") op = Opcode::add, inst.mod.carry_in = true;
  if (base == "subc") op = Opcode::sub, inst.mod.carry_in = true;
  if (base == "madc") op = Opcode::mad, inst.mod.carry_in = true;
  if (base == "barrier") op = Opcode::bar;
  if (base == "prefetchu") op = Opcode::prefetch, inst.mod.uniform_prefetch = true;
  if (!op || *op == Opcode::call) {
    if (const auto refusal = unsupported_instruction(base)) throw DecodeError{*refusal, true};
    fail("unknown instruction '" + std::string(base) + "'");
  }
  inst.op = *op;
  std::vector<DataType> types;
  bool saw_sync = false;
  for (size_t i = 1; i < pieces.size(); ++i) {
    const std::string_view piece = pieces[i];
    if (piece.empty()) fail("empty modifier in '" + std::string(word) + "'");
    if (auto type = type_from_name(piece)) {
      types.push_back(*type);
      continue;
    }
    if (piece == "sync") saw_sync = true;
    if (rounding_from_name(piece) && inst.mod.rounding != RoundingMode::none)
      fail("more than one rounding modifier in '" + std::string(word) + "'");
    if (!apply_modifier(base, piece, inst)) {
      if (const auto refusal = unsupported_modifier(base, piece)) throw DecodeError{*refusal, true};
      fail("unknown modifier '." + std::string(piece) + "' of " + std::string(base));
    }
  }
  if (needs_sync(inst.op) && !saw_sync)
    fail(std::string(base) + " without .sync is not supported (use " + std::string(base) +
         ".sync)");
  const auto [min_types, max_types] = type_count(inst);
  if (types.size() < min_types || types.size() > max_types)
    fail(std::string(base) + " takes " + std::to_string(max_types) + " type suffix" +
         (max_types == 1 ? "" : "es") + ", got " + std::to_string(types.size()));
  if (!types.empty()) inst.type = types[0];
  if (types.size() > 1) inst.source_type = types[1];
  if (types.size() > 2) inst.mod.b_type = types[2];
  if (inst.op == Opcode::setp) inst.source_type = inst.type;

  // Shape checks that depend on more than one modifier.
  if ((inst.op == Opcode::setp || inst.op == Opcode::set) && inst.mod.compare == CompareOp::none)
    fail(std::string(base) + " needs a comparison (.eq, .lt, ...)");
  if ((inst.op == Opcode::atom || inst.op == Opcode::red)) {
    if (inst.mod.atomic == AtomicOp::none)
      fail(std::string(base) + " needs an operation (.add, .cas, ...)");
    if (inst.op == Opcode::red && inst.mod.atomic == AtomicOp::cas) fail("red.cas does not exist");
    if (inst.op == Opcode::red && inst.mod.atomic == AtomicOp::exch)
      fail("red.exch does not exist");
    if (const auto refusal =
            unsupported_atomic(base, atomic_name(inst.mod.atomic), type_name(inst.type)))
      throw DecodeError{*refusal, true};
    if (!atomic_supported(inst.mod.atomic, inst.type))
      fail(std::string(base) + "." + std::string(atomic_name(inst.mod.atomic)) + "." +
           std::string(type_name(inst.type)) +
           " is no PTX atomic (exch, cas, and, or, xor take .b32 or .b64; a float only add; "
           "add no .s64; inc and dec .u32)");
  }
  if (inst.op == Opcode::shfl && inst.mod.shuffle == ShuffleMode::none)
    fail("shfl.sync needs a mode (.up, .down, .bfly, .idx)");
  if (inst.op == Opcode::vote && inst.mod.vote == VoteMode::none)
    fail("vote.sync needs a mode (.all, .any, .uni, .ballot)");
  if (inst.op == Opcode::match && inst.mod.vote == VoteMode::none)
    fail("match.sync needs a mode (.any, .all)");
  if (inst.op == Opcode::match && inst.type != DataType::b32 && inst.type != DataType::b64)
    fail("match.sync takes .b32 or .b64, got ." + std::string(type_name(inst.type)));
  if (inst.op == Opcode::fns && inst.type != DataType::b32)
    fail("fns takes .b32, got ." + std::string(type_name(inst.type)));
  if (inst.op == Opcode::bmsk && inst.type != DataType::b32)
    fail("bmsk takes .b32, got ." + std::string(type_name(inst.type)));
  if (inst.op == Opcode::szext && inst.type != DataType::u32 && inst.type != DataType::s32)
    fail("szext takes .u32 or .s32, got ." + std::string(type_name(inst.type)));
  if (inst.op == Opcode::testp && inst.mod.test == TestProperty::none)
    fail("testp needs a property (.finite, .infinite, .number, .notanumber, .normal, .subnormal)");
  if (inst.op == Opcode::testp && inst.type != DataType::f32 && inst.type != DataType::f64)
    fail("testp takes .f32 or .f64, got ." + std::string(type_name(inst.type)));
  if (inst.op == Opcode::redux) {
    if (inst.mod.atomic == AtomicOp::none)
      fail("redux.sync needs an operation (.add, .min, .max, .and, .or, .xor)");
    const bool bitwise = inst.mod.atomic == AtomicOp::and_ || inst.mod.atomic == AtomicOp::or_ ||
                         inst.mod.atomic == AtomicOp::xor_;
    if (bitwise ? inst.type != DataType::b32
                : inst.type != DataType::u32 && inst.type != DataType::s32)
      fail("redux.sync." + std::string(atomic_name(inst.mod.atomic)) + " takes " +
           (bitwise ? ".b32" : ".u32 or .s32") + ", got ." + std::string(type_name(inst.type)));
  }
  if (inst.op == Opcode::bar && inst.mod.barrier == BarrierMode::none)
    fail(std::string(base) + " needs .sync, .arrive or .red");
  if (inst.op == Opcode::bar && inst.mod.barrier == BarrierMode::reduce &&
      inst.mod.barrier_reduction == BarrierReduction::none)
    fail("bar.red needs .popc, .and or .or");
  if (inst.op == Opcode::lop3 && inst.type != DataType::b32)
    fail("lop3 takes .b32, got ." + std::string(type_name(inst.type)));
  if (inst.op == Opcode::dp4a || inst.op == Opcode::dp2a) {
    for (const DataType type : {inst.type, inst.source_type})
      if (type != DataType::u32 && type != DataType::s32)
        fail(std::string(base) + " takes .u32 or .s32 for a and b, got ." +
             std::string(type_name(type)));
  }
  if (inst.op == Opcode::vabsdiff4 || inst.op == Opcode::vabsdiff2) {
    for (const DataType type : {inst.type, inst.source_type, inst.mod.b_type})
      if (type != DataType::u32 && type != DataType::s32)
        fail(std::string(base) + " takes .u32 or .s32 for d, a and b, got ." +
             std::string(type_name(type)));
  }
  if (inst.op == Opcode::dp2a && inst.mod.mul == MulMode::none)
    fail("dp2a needs .lo or .hi (the bytes of b it takes)");
  if ((inst.op == Opcode::alloca_ || inst.op == Opcode::stacksave ||
       inst.op == Opcode::stackrestore) &&
      inst.type != DataType::u32 && inst.type != DataType::u64)
    fail(std::string(base) + " takes .u32 or .u64, got ." + std::string(type_name(inst.type)));
  if (inst.op == Opcode::isspacep && inst.space == StateSpace::generic)
    fail("isspacep needs a state space (.global, .shared, .local, .const, .param)");
  if (inst.op == Opcode::tex && inst.mod.geometry == 0)
    fail("tex needs a geometry (.1d, .2d, .3d, .a1d, .a2d, .cube, .acube)");
  if (inst.op == Opcode::tex && inst.mod.vector_width != 4) fail("tex needs .v4");
  if (inst.op == Opcode::tld4 && (inst.mod.geometry != 2 || inst.mod.vector_width != 4))
    fail("tld4 needs a geometry (.2d, .a2d, .cube, .acube) and .v4");
  if (inst.op == Opcode::tld4 && inst.source_type != DataType::f32)
    fail("tld4 takes .f32 coordinates");
  if (inst.op == Opcode::tex && inst.mod.cube && inst.source_type != DataType::f32)
    fail("tex." + geometry_name(inst.mod.geometry, inst.mod.layered, inst.mod.cube) +
         " takes .f32 coordinates");
  if ((inst.op == Opcode::suld || inst.op == Opcode::sust) && inst.mod.geometry == 0)
    fail(std::string(base) + " needs a geometry (.1d, .2d, .3d, .a1d, .a2d)");
  if ((inst.op == Opcode::suld || inst.op == Opcode::sust) &&
      !(inst.type == DataType::b8 || inst.type == DataType::b16 || inst.type == DataType::b32 ||
        inst.type == DataType::b64))
    fail(std::string(base) + " takes .b8, .b16, .b32 or .b64 data, got ." +
         std::string(type_name(inst.type)));
  if (inst.op == Opcode::cvta && inst.space == StateSpace::generic)
    fail("cvta needs a state space (.global, .shared, .local, .const, .param)");
  if ((inst.op == Opcode::mul || inst.op == Opcode::mad) && !is_float(inst.type) &&
      inst.mod.mul == MulMode::none)
    fail(std::string(base) + "." + std::string(type_name(inst.type)) + " needs .lo, .hi or .wide");
  if ((inst.op == Opcode::mul24 || inst.op == Opcode::mad24) && inst.mod.mul == MulMode::none)
    fail(std::string(base) + " needs .lo or .hi");
  if (inst.op == Opcode::mad24 && inst.mod.sat &&
      (inst.mod.mul != MulMode::hi || inst.type != DataType::s32))
    fail("mad24 saturates only as mad24.hi.sat.s32");
  if (inst.op == Opcode::div && is_float(inst.type) && inst.type != DataType::f64 &&
      !inst.mod.approx && !inst.mod.full && inst.mod.rounding == RoundingMode::none)
    fail("div." + std::string(type_name(inst.type)) + " needs .approx, .full or a rounding mode");
  if (inst.op == Opcode::cvt) check_cvt_rounding(inst);
  const bool takes_pred = inst.op == Opcode::mov || inst.op == Opcode::and_ ||
                          inst.op == Opcode::or_ || inst.op == Opcode::xor_ ||
                          inst.op == Opcode::not_ || inst.op == Opcode::vote ||
                          inst.op == Opcode::bar;
  if ((inst.type == DataType::pred || inst.source_type == DataType::pred) && !takes_pred)
    fail(std::string(base) +
         " takes no .pred (only mov, and, or, xor, not, vote and bar.red do; "
         "selp and setp turn a predicate into an integer and back)");
  if (inst.op == Opcode::fma && inst.mod.rounding == RoundingMode::none)
    fail("fma needs a rounding modifier (.rn, .rz, .rm or .rp)");
  const bool arithmetic = inst.op == Opcode::add || inst.op == Opcode::sub ||
                          inst.op == Opcode::mul || inst.op == Opcode::mad ||
                          inst.op == Opcode::min || inst.op == Opcode::max ||
                          inst.op == Opcode::abs || inst.op == Opcode::neg;
  if (arithmetic && inst.mod.ftz && !is_float(inst.type))
    fail(std::string(base) + ".ftz takes a float type, got ." + std::string(type_name(inst.type)));
  check_operands(inst, operands, function);
  inst.unit = unit_class_of(inst);
}

}  // namespace ohmvp::gpu
