#include "modules/gpu/ptx/ptx_immediate.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "modules/gpu/ptx/float_bits.h"

namespace ohmvp::gpu {
namespace {

std::optional<uint64_t> parse_digits(std::string_view digits, unsigned base) {
  if (digits.empty()) return std::nullopt;
  uint64_t value = 0;
  for (char c : digits) {
    unsigned digit;
    if (c >= '0' && c <= '9')
      digit = static_cast<unsigned>(c - '0');
    else if (c >= 'a' && c <= 'f')
      digit = static_cast<unsigned>(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F')
      digit = static_cast<unsigned>(c - 'A' + 10);
    else
      return std::nullopt;
    if (digit >= base) return std::nullopt;
    if (value > (UINT64_MAX - digit) / base) return std::nullopt;
    value = value * base + digit;
  }
  return value;
}

// Bits of a real value in a float type.
uint64_t real_in_type(double value, DataType type) {
  switch (type) {
    case DataType::f64:
      return f64_bits(value);
    case DataType::f16:
      return float_to_half_bits(static_cast<float>(value));
    case DataType::bf16:
      return float_to_bfloat16_bits(static_cast<float>(value));
    default:
      return f32_bits(static_cast<float>(value));
  }
}

uint64_t width_mask(DataType type) {
  const size_t bytes = type == DataType::pred ? 1 : type_bytes(type);
  return bytes >= 8 ? UINT64_MAX : (uint64_t{1} << (8 * bytes)) - 1;
}

}  // namespace

uint16_t float_to_half_bits(float value) {
  const uint32_t f = bit_cast<uint32_t>(value);
  const uint32_t sign = (f >> 16) & 0x8000u;
  const uint32_t abs = f & 0x7fffffffu;
  if (abs >= 0x7f800000u)
    return static_cast<uint16_t>(sign | 0x7c00u | (abs > 0x7f800000u ? 0x200u : 0));
  if (abs >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // rounds to infinity
  if (abs < 0x38800000u) {                                               // subnormal half (or zero)
    const float magnitude =
        std::fabs(value) * 16777216.0f;  // 2^24: units of the smallest subnormal
    return static_cast<uint16_t>(sign | static_cast<uint32_t>(std::nearbyint(magnitude)));
  }
  const uint32_t exponent = ((abs >> 23) - 112) << 10;
  const uint32_t mantissa = abs & 0x7fffffu;
  uint32_t half = exponent | (mantissa >> 13);
  const uint32_t rest = mantissa & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u))) ++half;
  return static_cast<uint16_t>(sign | half);
}

uint16_t float_to_bfloat16_bits(float value) {
  const uint32_t f = bit_cast<uint32_t>(value);
  if ((f & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((f >> 16) | 0x40u);
  const uint32_t rounding = 0x7fffu + ((f >> 16) & 1u);
  return static_cast<uint16_t>((f + rounding) >> 16);
}

std::optional<uint64_t> parse_unsigned_literal(std::string_view text) {
  if (!text.empty() && (text.back() == 'U' || text.back() == 'u')) text.remove_suffix(1);
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
    return parse_digits(text.substr(2), 16);
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'b' || text[1] == 'B'))
    return parse_digits(text.substr(2), 2);
  if (text.size() > 1 && text[0] == '0') return parse_digits(text.substr(1), 8);
  return parse_digits(text, 10);
}

ImmediateResult immediate_bits(std::string_view text, bool negative, DataType type) {
  ImmediateResult result;
  const bool float_type = is_float(type);
  const bool hex_float =
      text.size() > 2 && text[0] == '0' && std::strchr("fFdD", text[1]) != nullptr;
  if (hex_float) {
    const bool is_double = text[1] == 'd' || text[1] == 'D';
    const std::string_view digits = text.substr(2);
    const auto bits = parse_digits(digits, 16);
    if (!bits || digits.size() != (is_double ? 16u : 8u)) {
      result.error = "bad floating-point literal '" + std::string(text) + "'";
      return result;
    }
    // A bit-size operand of the literal's width takes its bits as they are (ptxas does too:
    // `mov.b32 %r1, 0f3F800000`, which compilers that keep floats in .b32 registers emit).
    const DataType bits_type = is_double ? DataType::b64 : DataType::b32;
    if (type == bits_type) {
      result.bits = *bits ^ (negative ? (is_double ? 0x8000000000000000ull : 0x80000000u) : 0);
      return result;
    }
    if (!float_type) {
      result.error = "floating-point literal '" + std::string(text) + "' for a ." +
                     std::string(type == DataType::none ? "untyped" : "integer") + " operand";
      return result;
    }
    double value = is_double ? as_f64(*bits) : as_f32(*bits);
    if (negative) value = -value;
    // Same width: keep the bits exactly (NaN payloads survive).
    if (type == DataType::f32 && !is_double)
      result.bits = *bits ^ (negative ? 0x80000000u : 0);
    else if (type == DataType::f64 && is_double)
      result.bits = *bits ^ (negative ? 0x8000000000000000ull : 0);
    else
      result.bits = real_in_type(value, type);
    return result;
  }
  const bool decimal_float = text.find_first_of(".eE") != std::string_view::npos &&
                             !(text.size() > 1 && (text[1] == 'x' || text[1] == 'X'));
  if (decimal_float) {
    const std::string copy(text);
    char* end = nullptr;
    errno = 0;
    double value = std::strtod(copy.c_str(), &end);
    if (end != copy.c_str() + copy.size() || errno == ERANGE) {
      result.error = "bad floating-point literal '" + copy + "'";
      return result;
    }
    if (!float_type) {
      result.error = "floating-point literal '" + copy + "' for an integer operand";
      return result;
    }
    result.bits = real_in_type(negative ? -value : value, type);
    return result;
  }
  const auto value = parse_unsigned_literal(text);
  if (!value) {
    result.error = "bad integer literal '" + std::string(text) + "'";
    return result;
  }
  if (float_type) {
    const double real = static_cast<double>(*value);
    result.bits = real_in_type(negative ? -real : real, type);
    return result;
  }
  const uint64_t mask = width_mask(type);
  const uint64_t bits = negative ? (~*value + 1) : *value;
  if (type != DataType::none && type_bytes(type) < 8) {
    // Accept values that fit as either signed or unsigned in the width.
    const uint64_t high = bits & ~mask;
    const bool fits =
        negative ? (high == (~mask) && (bits & ((mask >> 1) + 1))) || *value == 0 : high == 0;
    if (!fits) {
      result.error =
          "literal '" + std::string(negative ? "-" : "") + std::string(text) +
          "' does not fit in ." +
          std::string(type == DataType::pred
                          ? "pred"
                          : "integer of " + std::to_string(type_bytes(type) * 8) + " bits");
      return result;
    }
  }
  result.bits = bits & mask;
  return result;
}

}  // namespace ohmvp::gpu
