#pragma once

// Helpers shared by the interpreter's source files; not part of the public API.

#include <array>
#include <cfenv>
#include <cstdint>

#include "modules/gpu/lane_mask.h"
#include "modules/gpu/ptx/float_bits.h"
#include "modules/gpu/ptx/program.h"
#include "modules/gpu/simt/execution_context.h"
#include "modules/gpu/simt/memory_windows.h"
#include "modules/gpu/simt/warp_state.h"

namespace ohmvp::gpu::detail {

// A source operand resolved once per instruction, for the per-lane loops: a register's row of
// lane values (%tid: the warp's row of thread coordinates) or one value for every lane (an
// immediate, a symbol's address, a special register that is the same in every lane, 0 for
// operands that are no value); %laneid, %lanemask_* and negated predicates are read lane by
// lane through `per_lane`.
struct LaneSource {
  const uint64_t* row = nullptr;  // null: `constant`
  uint64_t constant = 0;
  const Operand* per_lane = nullptr;
};

// One instruction being executed: `lanes` are the active lanes whose guard holds.
struct Exec {
  WarpState& warp;
  const ExecutionContext& context;
  const Instruction& instruction;
  uint32_t function;
  uint32_t pc;
  uint64_t active;
  uint64_t lanes;
  // Lanes of other paths that take part in a warp-synchronous exchange from their own
  // instructions (meet_parked_paths): the sources hold their operands too; they write nothing.
  uint64_t partners = 0;
  DeviceFault fault{};
  // What read(x, index, lane) and write(x, lane, value) use; see prepare_operands().
  std::array<LaneSource, 6> sources{};
  uint64_t* destination = nullptr;  // operands[0]'s register row; null when it is no register

  bool failed() const { return fault.kind != FaultKind::none; }
  void fail(FaultKind kind, uint32_t lane, const char* detail = "", uint64_t address = 0,
            StateSpace space = StateSpace::generic) {
    if (failed()) return;
    fault = {kind, function, pc, lane, address, space, detail, {}};
  }
};

using gpu::for_each_lane;

inline uint64_t width_mask(unsigned bits) {
  return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
}

inline int64_t sign_extend(uint64_t value, unsigned bits) {
  if (bits >= 64) return static_cast<int64_t>(value);
  const uint64_t sign = uint64_t{1} << (bits - 1);
  value &= width_mask(bits);
  return static_cast<int64_t>((value ^ sign) - sign);
}

// The register image of an integer result of `type`: masked to its width, sign-extended for
// signed types (readers mask to their own type, so either image reads the same). Worked out
// once per instruction, outside the per-lane loops.
class IntImage {
 public:
  explicit IntImage(DataType type) {
    const unsigned bits = type == DataType::pred ? 1 : type_bits(type);
    if (bits >= 64 || bits == 0) return;
    m_mask = width_mask(bits);
    if (is_signed_int(type)) m_sign = uint64_t{1} << (bits - 1);
  }
  uint64_t operator()(uint64_t value) const { return ((value & m_mask) ^ m_sign) - m_sign; }

 private:
  uint64_t m_mask = ~uint64_t{0};
  uint64_t m_sign = 0;  // the sign bit of signed types
};

inline uint64_t int_image(DataType type, uint64_t value) {
  return IntImage(type)(value);
}

// Sets the host FPU's rounding direction for the directed modes and restores round-to-nearest
// after. The host's IEEE add/mul/div/sqrt/fma/conversions then round exactly as PTX asks.
class ScopedRounding {
 public:
  explicit ScopedRounding(RoundingMode mode) {
    int direction = FE_TONEAREST;
    switch (mode) {
      case RoundingMode::rz:
        direction = FE_TOWARDZERO;
        break;
      case RoundingMode::rm:
        direction = FE_DOWNWARD;
        break;
      case RoundingMode::rp:
        direction = FE_UPWARD;
        break;
      default:
        return;
    }
    m_changed = true;
    std::fesetround(direction);
  }
  ~ScopedRounding() {
    if (m_changed) std::fesetround(FE_TONEAREST);
  }
  ScopedRounding(const ScopedRounding&) = delete;
  ScopedRounding& operator=(const ScopedRounding&) = delete;

 private:
  bool m_changed = false;
};

uint64_t special_value(const Exec& x, const Operand& operand, uint32_t lane);
// A symbol's address in its own state space (see memory_windows.h).
uint64_t symbol_address(const Exec& x, uint32_t symbol);

inline uint64_t read(const Exec& x, const Operand& operand, uint32_t lane) {
  switch (operand.kind) {
    case Operand::Kind::reg: {
      const uint64_t value = x.warp.reg(operand.reg, lane);
      return operand.negated ? (value & 1) ^ 1 : value;
    }
    case Operand::Kind::imm:
      return operand.imm;
    case Operand::Kind::special:
      return special_value(x, operand, lane);
    case Operand::Kind::symbol:
      return symbol_address(x, operand.symbol) + static_cast<uint64_t>(operand.offset);
    case Operand::Kind::function:
      return function_address(operand.target);
    default:
      return 0;
  }
}

// The lanes of `active` whose guard predicate (if `in` has one) holds.
inline uint64_t guarded_lanes(const WarpState& warp, const Instruction& in, uint64_t active) {
  if (in.guard_reg == no_register) return active;
  uint64_t guarded = 0;
  for_each_lane(active, [&](uint32_t lane) {
    if (((warp.reg(in.guard_reg, lane) & 1) != 0) != in.guard_negated)
      guarded |= uint64_t{1} << lane;
  });
  return guarded;
}

// Fills x.sources and x.destination from the instruction's operands (the register window must
// not change while they are used: call and ret read no sources through them).
void prepare_operands(Exec& x);

// The instruction at `pc` of x's function as the path of `lanes` runs it there (its guard
// applied, its operands prepared): another path of x's warp, parked at its own instruction.
Exec path_exec(const Exec& x, uint64_t lanes, uint32_t pc);

// Whether sources 1..count are all registers or constants (none read per lane) and the
// destination is a register: what the per-lane loops with local copies of the sources need.
inline bool plain_sources(const Exec& x, unsigned count) {
  for (unsigned i = 1; i <= count; ++i)
    if (x.sources[i].per_lane) return false;
  return x.destination != nullptr;
}

// A lane's value of a register or constant source (see plain_sources).
inline uint64_t plain_value(const LaneSource& source, uint32_t lane) {
  return source.row ? source.row[lane] : source.constant;
}

// A plain source's lane values, for loops instantiated once for a register row and once for a
// constant (no per-lane test of which it is).
struct RowValues {
  const uint64_t* row;
  uint64_t operator()(uint32_t lane) const { return row[lane]; }
};
struct ConstantValue {
  uint64_t value;
  uint64_t operator()(uint32_t) const { return value; }
};
template <class F>
__attribute__((always_inline)) inline void with_values(const LaneSource& source, F&& f) {
  if (source.row)
    f(RowValues{source.row});
  else
    f(ConstantValue{source.constant});
}

// destination[lane] = f(sources 1..Arity) in every lane, for plain_sources(x, Arity). The loop
// body holds copies of the sources, the destination and `f` (which should capture by value):
// locals that a lambda kept out of line also refers to would be reloaded in every lane.
template <unsigned Arity, class F>
inline void map_plain(Exec& x, F f) {
  const uint64_t lanes = x.lanes;
  uint64_t* const destination = x.destination;
  with_values(x.sources[1], [&](auto a) {
    if constexpr (Arity == 1) {
      for_each_lane(
          lanes, [=](uint32_t lane)
                     __attribute__((always_inline)) { destination[lane] = f(a(lane)); });
    } else {
      with_values(x.sources[2], [&](auto b) {
        if constexpr (Arity == 2) {
          for_each_lane(
              lanes, [=](uint32_t lane) __attribute__((always_inline)) {
                destination[lane] = f(a(lane), b(lane));
              });
        } else {
          with_values(x.sources[3], [&](auto c) {
            for_each_lane(
                lanes, [=](uint32_t lane) __attribute__((always_inline)) {
                  destination[lane] = f(a(lane), b(lane), c(lane));
                });
          });
        }
      });
    }
  });
}

// A lane's value of a source; the hot loops read through local copies of x.sources, which the
// compiler keeps in registers (register writes could otherwise change `constant` for it).
inline uint64_t read(const Exec& x, const LaneSource& source, uint32_t lane) {
  if (__builtin_expect(source.per_lane != nullptr, 0)) return read(x, *source.per_lane, lane);
  return source.row ? source.row[lane] : source.constant;
}

inline uint64_t read(const Exec& x, unsigned index, uint32_t lane) {
  return read(x, x.sources[index], lane);
}

inline void write(Exec& x, const Operand& destination, uint32_t lane, uint64_t value) {
  if (destination.kind == Operand::Kind::reg) x.warp.reg(destination.reg, lane) = value;
}

inline void write(Exec& x, uint32_t lane, uint64_t value) {
  if (x.destination) x.destination[lane] = value;
}

// For warps wider than 32 lanes, 32-bit warp masks (ballot, activemask, lanemask_*, shfl/vote
// member masks) describe the 32-lane half the lane belongs to.
inline unsigned half_shift(const Exec& x, uint32_t lane) {
  return x.warp.warp_size() > 32 ? (lane & 32) : 0;
}

// A warp-synchronous instruction's 32-bit member mask as lanes of the warp: the same mask for
// both halves of a wider warp.
inline uint64_t expand_member_mask(const Exec& x, uint64_t member) {
  member &= 0xffffffff;
  return x.warp.warp_size() > 32 ? member | (member << 32) : member;
}

// The grid-linear index of the CTA's first thread (memory_windows.h, local storage).
inline uint64_t cta_first_thread(const Exec& x) {
  return uint64_t{x.context.cta_linear} * x.context.block.count();
}

// The device address of `lane`'s .local byte `address`, given its CTA's cta_first_thread.
inline uint64_t local_device_address(const Exec& x, uint64_t first_thread, uint32_t lane,
                                     uint64_t address) {
  return x.context.local_region_base +
         (first_thread + x.warp.thread_linear(lane)) * x.context.local_stride + address;
}

// Where a generic address points: shared, local or global, and the address inside that space.
struct Place {
  StateSpace space;
  uint64_t address;  // inside that space; device address for global
};

// Inline: the per-lane loops of ld/st and of the wmma loads and stores call these.
inline StateSpace symbol_space(const Exec& x, const Operand& operand) {
  return operand.symbol < x.context.layout->module().symbols.size()
             ? x.context.layout->module().symbols[operand.symbol].space
             : StateSpace::generic;
}

// An address operand resolved once per instruction (see lane_address).
struct AddressSource {
  const uint64_t* row = nullptr;   // the address register's row, if any
  uint64_t constant = 0;           // symbol address and offset
  const Operand* value = nullptr;  // an operand that is no [address]: its value is the address
};

inline AddressSource address_source(const Exec& x, const Operand& operand, StateSpace space) {
  AddressSource source;
  if (operand.kind != Operand::Kind::address) {
    source.value = &operand;
    return source;
  }
  source.constant = static_cast<uint64_t>(operand.offset);
  if (operand.symbol != UINT32_MAX) {
    source.constant += symbol_address(x, operand.symbol);
    if (space == StateSpace::generic) {
      const StateSpace own = symbol_space(x, operand);
      if (own == StateSpace::shared) source.constant += shared_window_base;
      if (own == StateSpace::local) source.constant += local_window_base;
      if (own == StateSpace::const_) source.constant += x.context.const_segment_base;
    }
  } else if (operand.reg != no_register) {
    source.row = x.warp.row(operand.reg);
  }
  return source;
}

// The lane's address in the instruction's space (generic: a generic address).
inline uint64_t lane_address(const Exec& x, const AddressSource& source, uint32_t lane) {
  if (source.value) return read(x, *source.value, lane);
  return (source.row ? source.row[lane] : 0) + source.constant;
}

inline Place resolve_generic(uint64_t address) {
  if (address - shared_window_base < shared_window_size)
    return {StateSpace::shared, address - shared_window_base};
  if (address - local_window_base < local_window_size)
    return {StateSpace::local, address - local_window_base};
  if (address - param_window_base < param_window_size)
    return {StateSpace::param, address - param_window_base};
  return {StateSpace::global, address};
}

// Host pointer for a shared, const or param access that executes at once, or null (out of the
// window).
inline uint8_t* immediate_pointer(Exec& x, StateSpace space, uint64_t address, uint32_t bytes,
                                  uint32_t lane) {
  const ExecutionContext& context = x.context;
  switch (space) {
    case StateSpace::shared:
      if (address > context.shared_bytes || context.shared_bytes - address < bytes) return nullptr;
      return context.shared + address;
    case StateSpace::const_:
      if (address > context.const_bytes || context.const_bytes - address < bytes) return nullptr;
      return const_cast<uint8_t*>(context.const_bank + address);
    case StateSpace::param:
      if (address & param_arena_tag) {
        const uint64_t offset = address & ~param_arena_tag;
        if (offset > x.warp.param_arena_bytes() || x.warp.param_arena_bytes() - offset < bytes)
          return nullptr;
        return x.warp.param_arena(lane) + offset;
      }
      if (address > context.kernel_argument_bytes ||
          context.kernel_argument_bytes - address < bytes)
        return nullptr;
      return const_cast<uint8_t*>(context.kernel_arguments + address);
    default:
      return nullptr;
  }
}

void execute_integer(Exec& x);
void execute_float(Exec& x);
void execute_convert(Exec& x);
void execute_compare(Exec& x);
void execute_bits(Exec& x);
void execute_warp_collective(Exec& x);  // shfl, vote, redux, match

// The other paths whose lanes in `members` wait at their own bar.warp.sync or shfl/vote/redux/
// match.sync (WarpState::for_each_parked_path: the arms of a divergent branch, or paths a yield
// separated) meet the executing one there, as the threads do on sm_70. An exchange runs as one
// instruction: each parked path's instruction runs for its lanes, and `x` is set up to run for
// the executing lanes, every lane's operands taken from its own instruction. False when a path
// waits at a different instruction or qualifiers. `x.partners` are then the parked paths' lanes
// that ran their instructions, and the caller moves those paths on
// (WarpState::pass_parked_paths).
bool meet_parked_paths(Exec& x, uint64_t members);

// A call of a runtime function (Function::is_runtime_call): __assertfail or vprintf.
void execute_runtime_call(Exec& x, const Function& callee);
void execute_memory(Exec& x, bool& pending);
void execute_texture(Exec& x, bool& pending);
void execute_surface(Exec& x, bool& pending);
void execute_fragment_memory(Exec& x, bool& pending);  // wmma.load / wmma.store
void execute_matrix_multiply(Exec& x);                 // wmma.mma / mma.sync
void execute_ldmatrix(Exec& x);
// Writes a completed wmma.load's bytes into its fragment registers.
void write_loaded_fragment(WarpState& warp, const MemoryRequest& request);

}  // namespace ohmvp::gpu::detail
