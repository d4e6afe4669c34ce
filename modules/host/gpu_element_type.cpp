#include "modules/host/gpu_element_type.h"

#include <cmath>
#include <cstring>

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
    case ElementType::f32: {
      const float narrow = static_cast<float>(value);
      uint32_t bits;
      std::memcpy(&bits, &narrow, sizeof bits);
      return bits;
    }
    case ElementType::f64: {
      uint64_t bits;
      std::memcpy(&bits, &value, sizeof bits);
      return bits;
    }
    default:
      return element_bits_from_integer(type, static_cast<int64_t>(std::trunc(value)));
  }
}

uint64_t element_bits_from_integer(ElementType type, int64_t value) {
  if (is_float_type(type)) return element_bits_from_double(type, static_cast<double>(value));
  return static_cast<uint64_t>(value) & width_mask(type);
}

double element_bits_to_double(ElementType type, uint64_t bits) {
  switch (type) {
    case ElementType::f16:
      return half_bits_to_float(static_cast<uint16_t>(bits));
    case ElementType::f32: {
      float value;
      const uint32_t narrow = static_cast<uint32_t>(bits);
      std::memcpy(&value, &narrow, sizeof value);
      return value;
    }
    case ElementType::f64: {
      double value;
      std::memcpy(&value, &bits, sizeof value);
      return value;
    }
    default:
      break;
  }
  bits &= width_mask(type);
  if (!is_signed_type(type)) return static_cast<double>(bits);
  const unsigned shift = 64 - 8 * static_cast<unsigned>(element_size(type));
  return static_cast<double>(static_cast<int64_t>(bits << shift) >> shift);
}

}  // namespace ohmvp
