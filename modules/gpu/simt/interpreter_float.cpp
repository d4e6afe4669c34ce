#include <cmath>

#include "modules/gpu/simt/half.h"
#include "modules/gpu/simt/interpreter_internal.h"

namespace ohmvp::gpu::detail {
namespace {

template <class T>
T flush(T value, bool ftz) {
  return ftz && std::fpclassify(value) == FP_SUBNORMAL ? std::copysign(T{0}, value) : value;
}

template <class T>
T saturate(T value) {
  if (std::isnan(value)) return T{0};
  return value <= T{0} ? T{0} : value > T{1} ? T{1} : value;  // -0.0 too gives +0.0
}

bool is_bfloat(DataType type) {
  return type == DataType::bf16 || type == DataType::bf16x2;
}

double widen_half(uint16_t bits, DataType type, bool ftz) {
  if (is_bfloat(type)) return flush(bf16_to_f64(bits), ftz);
  if (ftz && (bits & 0x7c00) == 0) return (bits & 0x8000) ? -0.0 : 0.0;
  return f16_to_f64(bits);
}

uint16_t narrow_half(double value, DataType type, RoundingMode mode, bool ftz, bool sat) {
  if (sat) value = saturate(value);
  uint16_t bits = is_bfloat(type) ? f64_to_bf16(value, mode) : f64_to_f16(value, mode);
  const uint16_t exponent_mask = is_bfloat(type) ? 0x7f80 : 0x7c00;
  if (ftz && (bits & exponent_mask) == 0) bits &= 0x8000;
  return bits;
}

// Runs `op` on each active lane's 1..3 floating-point sources, with the instruction's rounding
// mode, .ftz and .sat. f16/bf16 operands compute in binary64 and round once to 16 bits: exact for
// add, sub, mul; div and sqrt round correctly because binary64 has more than twice the bits.
// div.approx.f32 is a * (1/b) with the reciprocal flushed to zero for 2^126 < |b| < 2^128 (PTX
// ISA): the quotient there is a signed zero, or NaN for an infinite a. Elsewhere it is within
// 2 ulp of a / b, which this model computes exactly.
template <class T>
T approximate_quotient(T a, T b) {
  const T magnitude = std::fabs(b);
  if (magnitude > std::ldexp(T{1}, 126) && magnitude < std::ldexp(T{1}, 128))
    return a * std::copysign(T{0}, b);
  return a / b;
}

template <class Op>
void elementwise(Exec& x, unsigned arity, Op op) {
  const Instruction& in = x.instruction;
  const bool ftz = in.mod.ftz, sat = in.mod.sat;
  const RoundingMode mode =
      in.mod.rounding == RoundingMode::none ? RoundingMode::rn : in.mod.rounding;
  ScopedRounding rounding(mode);
  switch (in.type) {
    case DataType::f32:
      if (!ftz && !sat && mode == RoundingMode::rn && plain_sources(x, arity)) {
        // The usual case, with the sources read through local copies in a loop of its own.
        map_plain<3>(x, [=](uint64_t a, uint64_t b, uint64_t c) {
          const float result = static_cast<float>(op(as_f32(a), as_f32(b), as_f32(c)));
          return std::isnan(result) ? canonical_f32_nan : f32_bits(result);
        });
        return;
      }
      for_each_lane(x.lanes, [&](uint32_t lane) {
        const float a = flush(as_f32(read(x, 1, lane)), ftz);
        const float b = arity > 1 ? flush(as_f32(read(x, 2, lane)), ftz) : 0.0f;
        const float c = arity > 2 ? flush(as_f32(read(x, 3, lane)), ftz) : 0.0f;
        float result = flush(static_cast<float>(op(a, b, c)), ftz);
        if (sat) result = saturate(result);
        write(x, lane, std::isnan(result) ? canonical_f32_nan : f32_bits(result));
      });
      return;
    case DataType::f64:
      for_each_lane(x.lanes, [&](uint32_t lane) {
        const double a = as_f64(read(x, 1, lane));
        const double b = arity > 1 ? as_f64(read(x, 2, lane)) : 0.0;
        const double c = arity > 2 ? as_f64(read(x, 3, lane)) : 0.0;
        double result = static_cast<double>(op(a, b, c));
        if (sat) result = saturate(result);
        write(x, lane, std::isnan(result) ? canonical_f64_nan : f64_bits(result));
      });
      return;
    case DataType::f16:
    case DataType::bf16:
    case DataType::f16x2:
    case DataType::bf16x2: {
      const unsigned halves = type_bytes(in.type) / 2;
      for_each_lane(x.lanes, [&](uint32_t lane) {
        const uint64_t a = read(x, 1, lane), b = arity > 1 ? read(x, 2, lane) : 0,
                       c = arity > 2 ? read(x, 3, lane) : 0;
        uint64_t result = 0;
        for (unsigned h = 0; h < halves; ++h) {
          const unsigned shift = 16 * h;
          const double value = op(widen_half(static_cast<uint16_t>(a >> shift), in.type, ftz),
                                  widen_half(static_cast<uint16_t>(b >> shift), in.type, ftz),
                                  widen_half(static_cast<uint16_t>(c >> shift), in.type, ftz));
          result |= uint64_t{narrow_half(value, in.type, mode, ftz, sat)} << shift;
        }
        write(x, lane, result);
      });
      return;
    }
    default:
      x.fail(FaultKind::unsupported, 0, "floating-point type");
      return;
  }
}

// rcp.approx.ftz.f64 and rsqrt.approx.ftz.f64 read only the upper 32 bits of a and write only the
// upper 32 bits of d (the lower are zero); subnormal inputs and results flush to sign-preserving
// zero; a NaN gives 0x7fffffff00000000 (PTX ISA). The model computes the truncated input's
// result exactly and truncates it.
void upper_word_approximation(Exec& x, bool square_root) {
  constexpr uint64_t upper_word = 0xffffffff00000000ULL;
  const auto flush64 = [](double value) {
    return std::fpclassify(value) == FP_SUBNORMAL ? std::copysign(0.0, value) : value;
  };
  for_each_lane(x.lanes, [&](uint32_t lane) {
    const double a = flush64(as_f64(read(x, 1, lane) & upper_word));
    const double result = flush64(square_root ? 1.0 / std::sqrt(a) : 1.0 / a);
    write(x, lane, std::isnan(result) ? 0x7fffffff00000000ULL : f64_bits(result) & upper_word);
  });
}

template <class T>
T ptx_min_max(T a, T b, bool take_min) {
  if (std::isnan(a)) return b;  // both NaN: b is NaN and canonicalised by the caller
  if (std::isnan(b)) return a;
  if (a == b) return (std::signbit(a) == take_min) ? a : b;  // -0 < +0
  return (a < b) == take_min ? a : b;
}

// abs, neg and copysign act on the sign bits only (a NaN keeps its payload).
void sign_operation(Exec& x) {
  const Instruction& in = x.instruction;
  uint64_t sign_bits;
  switch (in.type) {
    case DataType::f32:
      sign_bits = 0x80000000ULL;
      break;
    case DataType::f64:
      sign_bits = 0x8000000000000000ULL;
      break;
    case DataType::f16:
    case DataType::bf16:
      sign_bits = 0x8000;
      break;
    case DataType::f16x2:
    case DataType::bf16x2:
      sign_bits = 0x80008000ULL;
      break;
    default:
      x.fail(FaultKind::unsupported, 0, "floating-point type");
      return;
  }
  // .ftz (abs and neg on f32, f16 and f16x2) flushes a subnormal input, so the result is zero.
  const bool ftz = in.mod.ftz;
  const bool halves = in.type == DataType::f16 || in.type == DataType::f16x2;
  for_each_lane(x.lanes, [&](uint32_t lane) {
    uint64_t a = read(x, 1, lane);
    if (ftz && in.type == DataType::f32) a = f32_bits(flush(as_f32(a), true));
    if (ftz && halves) {
      for (unsigned shift = 0; shift < 8 * type_bytes(in.type); shift += 16)
        if (((a >> shift) & 0x7c00) == 0) a &= ~(uint64_t{0x7fff} << shift);
    }
    switch (in.op) {
      case Opcode::abs:
        a &= ~sign_bits;
        break;
      case Opcode::neg:
        a ^= sign_bits;
        break;
      default: {  // copysign d, a, b: b's magnitude with a's sign
        uint64_t b = read(x, 2, lane);
        a = (b & ~sign_bits) | (a & sign_bits);
      }
    }
    write(x, lane, a);
  });
}

template <class T>
bool test_property(T value, TestProperty property) {
  switch (property) {
    case TestProperty::finite:
      return std::isfinite(value);
    case TestProperty::infinite:
      return std::isinf(value);
    case TestProperty::number:
      return !std::isnan(value);
    case TestProperty::notanumber:
      return std::isnan(value);
    case TestProperty::normal:
      return std::fpclassify(value) == FP_NORMAL;
    case TestProperty::subnormal:
      return std::fpclassify(value) == FP_SUBNORMAL;
    case TestProperty::none:
      break;
  }
  return false;
}

}  // namespace

void execute_float(Exec& x) {
  const Instruction& in = x.instruction;
  switch (in.op) {
    case Opcode::add:
      elementwise(x, 2, [](auto a, auto b, auto) { return a + b; });
      return;
    case Opcode::sub:
      elementwise(x, 2, [](auto a, auto b, auto) { return a - b; });
      return;
    case Opcode::mul:
      elementwise(x, 2, [](auto a, auto b, auto) { return a * b; });
      return;
    case Opcode::mad:
    case Opcode::fma:
      elementwise(x, 3, [](auto a, auto b, auto c) { return std::fma(a, b, c); });
      return;
    case Opcode::div:
      if (in.mod.approx && in.type == DataType::f32) {
        elementwise(x, 2, [](auto a, auto b, auto) { return approximate_quotient(a, b); });
        return;
      }
      elementwise(x, 2, [](auto a, auto b, auto) { return a / b; });
      return;
    case Opcode::rcp:
      if (in.mod.approx && in.mod.ftz && in.type == DataType::f64)
        return upper_word_approximation(x, false);
      elementwise(x, 1, [](auto a, auto, auto) { return decltype(a){1} / a; });
      return;
    case Opcode::sqrt:
      elementwise(x, 1, [](auto a, auto, auto) { return std::sqrt(a); });
      return;
    case Opcode::rsqrt:
      if (in.mod.ftz && in.type == DataType::f64) return upper_word_approximation(x, true);
      elementwise(x, 1, [](auto a, auto, auto) { return decltype(a){1} / std::sqrt(a); });
      return;
    case Opcode::ex2:
      elementwise(x, 1, [](auto a, auto, auto) { return std::exp2(a); });
      return;
    case Opcode::lg2:
      elementwise(x, 1, [](auto a, auto, auto) { return std::log2(a); });
      return;
    case Opcode::sin:
      elementwise(x, 1, [](auto a, auto, auto) { return std::sin(a); });
      return;
    case Opcode::cos:
      elementwise(x, 1, [](auto a, auto, auto) { return std::cos(a); });
      return;
    case Opcode::tanh:
      elementwise(x, 1, [](auto a, auto, auto) { return std::tanh(a); });
      return;
    case Opcode::min:
      elementwise(x, 2, [](auto a, auto b, auto) { return ptx_min_max(a, b, true); });
      return;
    case Opcode::max:
      elementwise(x, 2, [](auto a, auto b, auto) { return ptx_min_max(a, b, false); });
      return;
    case Opcode::abs:
    case Opcode::neg:
    case Opcode::copysign:
      sign_operation(x);
      return;
    case Opcode::testp:
      for_each_lane(x.lanes, [&](uint32_t lane) {
        const uint64_t bits = read(x, 1, lane);
        const bool result = in.type == DataType::f64 ? test_property(as_f64(bits), in.mod.test)
                                                     : test_property(as_f32(bits), in.mod.test);
        write(x, lane, result ? 1 : 0);
      });
      return;
    default:
      x.fail(FaultKind::unsupported, 0, "floating-point operation");
      return;
  }
}

}  // namespace ohmvp::gpu::detail
