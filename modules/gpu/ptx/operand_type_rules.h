#pragma once

#include <optional>
#include <vector>

#include "modules/gpu/ptx/ptx_types.h"

namespace ohmvp::gpu {

// The PTX ISA's operand type checking (section "Operand Type Information" and its tables): may a
// register declared as `declared` stand where an instruction takes a value of type `taken`?
// - A bit-size register agrees with every type of its size; integer types of one size agree with
//   each other and with bit-size types; a floating-point register agrees with a bit-size type of
//   its size and with its own floating-point type only. As ptxas does, a packed-half register
//   (.f16x2, .bf16x2) also agrees with an integer type of its size.
// - ld, ldu, st and cvt relax the size rule (`wider_allowed`): a register wider than the
//   instruction type holds the value chopped or extended, except that a floating-point
//   instruction type still needs a bit-size register or its own type, and a floating-point
//   register still needs a bit-size instruction type to be wider.
// Predicates agree with predicates only. `taken` none accepts any register.
bool register_type_agrees(DataType taken, DataType declared, bool wider_allowed);

// The type of a vector operand {a, b, ...} of ld, st and tex, as ptxas reads it from its
// registers' declared types: their one floating-point type when they share it, else the
// bit-size type of their size. nullopt when their sizes differ.
std::optional<DataType> vector_type(const std::vector<DataType>& element_types);

// The bit-size type of `bytes` bytes (1, 2, 4, 8 or 16).
DataType bits_of_size(size_t bytes);

// The register types `.reg` may declare.
bool is_register_type(DataType type);

}  // namespace ohmvp::gpu
