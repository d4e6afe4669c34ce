#include "modules/host/gpu_element_type.h"

#include <cmath>

#include "modules/common/bit_cast.h"
#include "modules/host/half_float.h"

namespace ohmvp {

size_t element_size(ElementType type) {
  switch (type) {
    case ElementType::u8:
    case ElementType::s8:
      return 1;
    case ElementType::u16:
    case ElementType::s16:
    case ElementType::f16:
      return 2;
    case ElementType::u32:
    case ElementType::s32:
    case ElementType::f32:
      return 4;
    case ElementType::u64:
    case ElementType::s64:
    case ElementType::f64:
      return 8;
  }
  return 0;
}

const std::vector<std::pair<std::string, ElementType>>& element_type_names() {
  static const std::vector<std::pair<std::string, ElementType>> names = {
      {"u8", ElementType::u8},   {"u16", ElementType::u16}, {"u32", ElementType::u32},
      {"u64", ElementType::u64}, {"s8", ElementType::s8},   {"s16", ElementType::s16},
      {"s32", ElementType::s32}, {"s64", ElementType::s64}, {"f16", ElementType::f16},
      {"f32", ElementType::f32}, {"f64", ElementType::f64}};
  return names;
}

const char* element_type_name(ElementType type) {
  for (const auto& entry : element_type_names())
    if (entry.second == type) return entry.first.c_str();
  return "?";
}

bool is_float_type(ElementType type) {
  return type == ElementType::f16 || type == ElementType::f32 || type == ElementType::f64;
}

bool is_signed_type(ElementType type) {
  return type == ElementType::s8 || type == ElementType::s16 || type == ElementType::s32 ||
         type == ElementType::s64;
}

namespace {

uint64_t width_mask(ElementType type) {
  const size_t bytes = element_size(type);
  return bytes == 8 ? ~0ull : (1ull << (8 * bytes)) - 1;
}

}  // namespace

uint64_t element_bits_from_double(ElementType type, double value) {
  switch (type) {
    case ElementType::f16:
      return double_to_half_bits(value);
    case ElementType::f32:
      return bit_cast<uint32_t>(static_cast<float>(value));
    case ElementType::f64:
      return bit_cast<uint64_t>(value);
    default: {
      // Toward zero, then modulo 2^64 (fmod is exact), then to the type's width.
      const double whole = std::trunc(value);
      if (!std::isfinite(whole)) return 0;
      const double wrapped = std::fmod(whole, 18446744073709551616.0);
      const uint64_t magnitude = static_cast<uint64_t>(std::fabs(wrapped));
      return (wrapped < 0 ? ~magnitude + 1 : magnitude) & width_mask(type);
    }
  }
}

std::pair<double, double> element_range(ElementType type) {
  switch (type) {
    case ElementType::f16:
      return {-65504.0, 65504.0};
    case ElementType::f32:
      return {-3.4028234663852886e38, 3.4028234663852886e38};
    case ElementType::f64:
      return {-1.7976931348623157e308, 1.7976931348623157e308};
    default:
      break;
  }
  const double span = std::ldexp(1.0, static_cast<int>(8 * element_size(type)));
  return is_signed_type(type) ? std::pair<double, double>{-span / 2, span / 2 - 1}
                              : std::pair<double, double>{0.0, span - 1};
}

uint64_t element_bits_from_integer(ElementType type, int64_t value) {
  if (is_float_type(type)) return element_bits_from_double(type, static_cast<double>(value));
  return static_cast<uint64_t>(value) & width_mask(type);
}

double element_bits_to_double(ElementType type, uint64_t bits) {
  switch (type) {
    case ElementType::f16:
      return half_bits_to_float(static_cast<uint16_t>(bits));
    case ElementType::f32:
      return bit_cast<float>(static_cast<uint32_t>(bits));
    case ElementType::f64:
      return bit_cast<double>(bits);
    default:
      break;
  }
  bits &= width_mask(type);
  if (!is_signed_type(type)) return static_cast<double>(bits);
  const unsigned shift = 64 - 8 * static_cast<unsigned>(element_size(type));
  return static_cast<double>(static_cast<int64_t>(bits << shift) >> shift);
}

std::vector<uint8_t> repeated_element(uint64_t bits, size_t element_bytes, uint64_t bytes) {
  std::vector<uint8_t> pattern(bytes);
  for (uint64_t at = 0; at < bytes; ++at)
    pattern[at] = static_cast<uint8_t>(bits >> (8 * (at % element_bytes)));
  return pattern;
}

}  // namespace ohmvp
