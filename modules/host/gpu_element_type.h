#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ohmvp {

// Element type of a kernel workload's buffer or scalar argument.
enum class ElementType { u8, u16, u32, u64, s8, s16, s32, s64, f16, f32, f64 };

size_t element_size(ElementType type);
const char* element_type_name(ElementType type);
bool is_float_type(ElementType type);
bool is_signed_type(ElementType type);
// Name -> type for ConfigReader::get_enum.
const std::vector<std::pair<std::string, ElementType>>& element_type_names();

// The raw little-endian bit pattern (in the low element_size bytes) of `value` converted to
// `type`: floats round to nearest even, integers truncate toward zero then wrap.
uint64_t element_bits_from_double(ElementType type, double value);
// The lowest and highest value of the type (for floats, the largest finite magnitude; for 64-bit
// integers, the nearest doubles).
std::pair<double, double> element_range(ElementType type);
// Integers wrap to the type's width.
uint64_t element_bits_from_integer(ElementType type, int64_t value);
// The element's value as a double (exact for every type but 64-bit integers beyond 2^53).
double element_bits_to_double(ElementType type, uint64_t bits);
// `bytes` bytes of the low `element_bytes` bytes of `bits`, little-endian, over and over: a buffer
// filled with one element.
std::vector<uint8_t> repeated_element(uint64_t bits, size_t element_bytes, uint64_t bytes);

}  // namespace ohmvp
