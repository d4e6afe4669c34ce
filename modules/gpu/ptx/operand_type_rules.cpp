#include "modules/gpu/ptx/operand_type_rules.h"

#include <algorithm>

namespace ohmvp::gpu {

namespace {

enum class TypeKind { pred, bits, integer, floating };

TypeKind kind_of(DataType type) {
  switch (type) {
    case DataType::pred:
      return TypeKind::pred;
    case DataType::b8:
    case DataType::b16:
    case DataType::b32:
    case DataType::b64:
    case DataType::b128:
      return TypeKind::bits;
    case DataType::f16:
    case DataType::f16x2:
    case DataType::bf16:
    case DataType::bf16x2:
    case DataType::f32:
    case DataType::f64:
      return TypeKind::floating;
    default:
      return TypeKind::integer;
  }
}

bool is_packed_half(DataType type) {
  return type == DataType::f16x2 || type == DataType::bf16x2;
}

}  // namespace

bool register_type_agrees(DataType taken, DataType declared, bool wider_allowed) {
  if (taken == DataType::none) return true;
  const TypeKind want = kind_of(taken);
  const TypeKind have = kind_of(declared);
  if (want == TypeKind::pred || have == TypeKind::pred) return want == have;
  // ptxas also lets a packed-half register stand for an integer of its size.
  const bool kinds_agree = have == TypeKind::bits || want == TypeKind::bits ||
                           (have == TypeKind::integer && want == TypeKind::integer) ||
                           (have == TypeKind::floating && declared == taken) ||
                           (is_packed_half(declared) && want == TypeKind::integer);
  if (!kinds_agree) return false;
  const size_t have_bytes = type_bytes(declared);
  const size_t want_bytes = type_bytes(taken);
  // Past the kind check a wider register is a bit-size or integer one, or a floating-point one
  // under a bit-size instruction type: what ld, ldu, st and cvt allow.
  return have_bytes == want_bytes || (have_bytes > want_bytes && wider_allowed);
}

std::optional<DataType> vector_type(const std::vector<DataType>& element_types) {
  if (element_types.empty()) return std::nullopt;
  const DataType first = element_types.front();
  for (DataType type : element_types)
    if (type_bytes(type) != type_bytes(first)) return std::nullopt;
  const bool one_type = std::all_of(element_types.begin(), element_types.end(),
                                    [first](DataType type) { return type == first; });
  if (one_type && kind_of(first) == TypeKind::floating && !is_packed_half(first)) return first;
  return bits_of_size(type_bytes(first));
}

DataType bits_of_size(size_t bytes) {
  switch (bytes) {
    case 1:
      return DataType::b8;
    case 2:
      return DataType::b16;
    case 4:
      return DataType::b32;
    case 8:
      return DataType::b64;
    default:
      return DataType::b128;
  }
}

bool is_register_type(DataType type) {
  return type != DataType::none && type != DataType::b128;
}

}  // namespace ohmvp::gpu
