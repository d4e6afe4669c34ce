#include <cmath>

#include "modules/gpu/simt/half.h"
#include "modules/gpu/simt/interpreter_internal.h"

namespace ohmvp::gpu::detail {
namespace {

double float_value(uint64_t bits, DataType type, bool ftz) {
  double value;
  switch (type) {
    case DataType::f16:
      value = f16_to_f64(static_cast<uint16_t>(bits));
      break;
    case DataType::bf16:
      value = bf16_to_f64(static_cast<uint16_t>(bits));
      break;
    case DataType::f32: {
      const float f = as_f32(bits);
      value = ftz && std::fpclassify(f) == FP_SUBNORMAL ? std::copysign(0.0, f) : f;
      return value;
    }
    default:
      return as_f64(bits);
  }
  if (ftz && type == DataType::f16 && (bits & 0x7c00) == 0) value = std::copysign(0.0, value);
  return value;
}

bool compare_float(CompareOp op, double a, double b) {
  const bool unordered = std::isnan(a) || std::isnan(b);
  switch (op) {
    case CompareOp::eq:
      return !unordered && a == b;
    case CompareOp::ne:
      return !unordered && a != b;
    case CompareOp::lt:
      return !unordered && a < b;
    case CompareOp::le:
      return !unordered && a <= b;
    case CompareOp::gt:
      return !unordered && a > b;
    case CompareOp::ge:
      return !unordered && a >= b;
    case CompareOp::equ:
      return unordered || a == b;
    case CompareOp::neu:
      return unordered || a != b;
    case CompareOp::ltu:
      return unordered || a < b;
    case CompareOp::leu:
      return unordered || a <= b;
    case CompareOp::gtu:
      return unordered || a > b;
    case CompareOp::geu:
      return unordered || a >= b;
    case CompareOp::num:
      return !unordered;
    case CompareOp::nan:
      return unordered;
    default:
      return false;
  }
}

bool compare_int(CompareOp op, uint64_t a, uint64_t b, DataType type) {
  const unsigned bits = type == DataType::pred ? 1 : type_bits(type);
  const uint64_t ua = a & width_mask(bits), ub = b & width_mask(bits);
  const bool is_signed = is_signed_int(type);
  const int64_t sa = sign_extend(a, bits), sb = sign_extend(b, bits);
  switch (op) {
    case CompareOp::eq:
      return ua == ub;
    case CompareOp::ne:
      return ua != ub;
    case CompareOp::lt:
      return is_signed ? sa < sb : ua < ub;
    case CompareOp::le:
      return is_signed ? sa <= sb : ua <= ub;
    case CompareOp::gt:
      return is_signed ? sa > sb : ua > ub;
    case CompareOp::ge:
      return is_signed ? sa >= sb : ua >= ub;
    case CompareOp::lo:
      return ua < ub;
    case CompareOp::ls:
      return ua <= ub;
    case CompareOp::hi:
      return ua > ub;
    case CompareOp::hs:
      return ua >= ub;
    default:
      return false;
  }
}

bool combine(BoolOp op, bool value, bool c) {
  switch (op) {
    case BoolOp::and_:
      return value && c;
    case BoolOp::or_:
      return value || c;
    case BoolOp::xor_:
      return value != c;
    case BoolOp::none:
      break;
  }
  return value;
}

// An integer comparison as unsigned comparisons of keys: the operands masked to the type's width,
// with the sign bit flipped for signed orderings (which orders two's complement values as
// unsigned ones), and the outcomes less, equal and greater that make it true. Not valid for
// the floating-point-only operators.
class IntCompare {
 public:
  IntCompare(CompareOp op, DataType type) {
    const unsigned bits = type == DataType::pred ? 1 : type_bits(type);
    m_mask = width_mask(bits);
    const bool signed_order =
        op == CompareOp::lt || op == CompareOp::le || op == CompareOp::gt || op == CompareOp::ge;
    if (signed_order && is_signed_int(type)) m_flip = uint64_t{1} << (bits - 1);
    struct Wanted {
      CompareOp op;
      unsigned outcomes;
    };
    static constexpr Wanted k_wanted[] = {{CompareOp::eq, k_equal},
                                          {CompareOp::ne, k_less | k_greater},
                                          {CompareOp::lt, k_less},
                                          {CompareOp::lo, k_less},
                                          {CompareOp::le, k_less | k_equal},
                                          {CompareOp::ls, k_less | k_equal},
                                          {CompareOp::gt, k_greater},
                                          {CompareOp::hi, k_greater},
                                          {CompareOp::ge, k_greater | k_equal},
                                          {CompareOp::hs, k_greater | k_equal}};
    for (const Wanted& wanted : k_wanted)
      if (wanted.op == op) m_outcomes = wanted.outcomes;  // none: 0, not valid
  }
  bool valid() const { return m_outcomes != 0; }
  bool operator()(uint64_t a, uint64_t b) const {
    const uint64_t ka = (a & m_mask) ^ m_flip, kb = (b & m_mask) ^ m_flip;
    const unsigned outcome = ka < kb ? k_less : ka == kb ? k_equal : k_greater;
    return (outcome & m_outcomes) != 0;
  }

 private:
  static constexpr unsigned k_less = 1, k_equal = 2, k_greater = 4;
  uint64_t m_mask = 0;
  uint64_t m_flip = 0;
  unsigned m_outcomes = 0;
};

// setp on integers with register or constant sources, in a loop of its own.
bool integer_setp(Exec& x, DataType compare_type, bool has_c) {
  const Instruction& in = x.instruction;
  const IntCompare compare(in.mod.compare, compare_type);
  if (!compare.valid() || !plain_sources(x, has_c ? 3 : 2)) return false;
  const LaneSource c = x.sources[3];
  const uint64_t lanes = x.lanes;
  uint64_t* const p = x.destination;
  uint64_t* const q = in.dest_pred != no_register ? x.warp.row(in.dest_pred) : nullptr;
  const BoolOp bool_op = in.mod.bool_op;
  with_values(x.sources[1], [&](auto a) {
    with_values(x.sources[2], [&](auto b) {
      for_each_lane(
          lanes, [=](uint32_t lane) __attribute__((always_inline)) {
            const bool result = compare(a(lane), b(lane));
            const bool third = has_c ? (plain_value(c, lane) & 1) : false;
            p[lane] = combine(bool_op, result, third) ? 1 : 0;
            if (q) q[lane] = combine(bool_op, !result, third);
          });
    });
  });
  return true;
}

// set/setp on packed halves compare the low halves and the high halves apart: setp writes the
// low result to p and the high one to q; set writes each half of d (1.0 for a packed float
// destination, 0xffff for an integer one).
void packed_half_compare(Exec& x, DataType packed) {
  const Instruction& in = x.instruction;
  const DataType half = packed == DataType::f16x2 ? DataType::f16 : DataType::bf16;
  const bool has_c = in.mod.bool_op != BoolOp::none;
  const auto half_result = [&](uint64_t a, uint64_t b, unsigned shift, bool c) {
    const double ha = float_value((a >> shift) & 0xffff, half, in.mod.ftz);
    const double hb = float_value((b >> shift) & 0xffff, half, in.mod.ftz);
    return combine(in.mod.bool_op, compare_float(in.mod.compare, ha, hb), c);
  };
  const uint64_t true_half = in.type == DataType::f16x2    ? 0x3c00
                             : in.type == DataType::bf16x2 ? 0x3f80
                                                           : 0xffff;
  for_each_lane(x.lanes, [&](uint32_t lane) {
    const uint64_t a = read(x, 1, lane), b = read(x, 2, lane);
    const bool c = has_c ? (read(x, 3, lane) & 1) : false;
    const bool low = half_result(a, b, 0, c), high = half_result(a, b, 16, c);
    if (in.op == Opcode::setp) {
      write(x, lane, low ? 1 : 0);
      if (in.dest_pred != no_register) x.warp.reg(in.dest_pred, lane) = high ? 1 : 0;
    } else {
      write(x, lane, (low ? true_half : 0) | (high ? true_half << 16 : 0));
    }
  });
}

}  // namespace

void execute_compare(Exec& x) {
  const Instruction& in = x.instruction;
  switch (in.op) {
    case Opcode::setp:
    case Opcode::set: {
      // setp has one type suffix (in `type` or `source_type`); set.dtype.stype compares stype.
      const DataType compared =
          in.op == Opcode::set || in.source_type != DataType::none ? in.source_type : in.type;
      const DataType compare_type = compared == DataType::none ? in.type : compared;
      if (compare_type == DataType::f16x2 || compare_type == DataType::bf16x2)
        return packed_half_compare(x, compare_type);
      const bool floating = is_float(compare_type);
      const bool has_c = in.mod.bool_op != BoolOp::none;
      if (in.op == Opcode::setp && !floating && integer_setp(x, compare_type, has_c)) return;
      const LaneSource first = x.sources[1], second = x.sources[2], third = x.sources[3];
      for_each_lane(x.lanes, [&](uint32_t lane) {
        const uint64_t a = read(x, first, lane), b = read(x, second, lane);
        const bool result =
            floating ? compare_float(in.mod.compare, float_value(a, compare_type, in.mod.ftz),
                                     float_value(b, compare_type, in.mod.ftz))
                     : compare_int(in.mod.compare, a, b, compare_type);
        const bool c = has_c ? (read(x, third, lane) & 1) : false;
        const bool p = combine(in.mod.bool_op, result, c);
        if (in.op == Opcode::setp) {
          write(x, lane, p ? 1 : 0);
          if (in.dest_pred != no_register)
            x.warp.reg(in.dest_pred, lane) = combine(in.mod.bool_op, !result, c);
        } else if (in.type == DataType::f32) {  // a float destination gets 1.0 or 0.0
          write(x, lane, p ? 0x3f800000 : 0);
        } else if (in.type == DataType::f16) {
          write(x, lane, p ? 0x3c00 : 0);
        } else if (in.type == DataType::bf16) {
          write(x, lane, p ? 0x3f80 : 0);
        } else {
          write(x, lane, p ? width_mask(type_bits(in.type)) : 0);
        }
      });
      return;
    }
    case Opcode::selp:
      for_each_lane(x.lanes, [&](uint32_t lane) {
        write(x, lane, (read(x, 3, lane) & 1) ? read(x, 1, lane) : read(x, 2, lane));
      });
      return;
    case Opcode::slct: {
      const DataType c_type = in.source_type == DataType::none ? DataType::s32 : in.source_type;
      for_each_lane(x.lanes, [&](uint32_t lane) {
        const uint64_t c = read(x, 3, lane);
        const bool take_a = c_type == DataType::f32
                                ? float_value(c, DataType::f32, in.mod.ftz) >= 0.0
                                : sign_extend(c, type_bits(c_type)) >= 0;
        write(x, lane, take_a ? read(x, 1, lane) : read(x, 2, lane));
      });
      return;
    }
    default:
      x.fail(FaultKind::unsupported, 0, "comparison");
      return;
  }
}

}  // namespace ohmvp::gpu::detail
