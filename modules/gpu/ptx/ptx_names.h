#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "modules/gpu/ptx/instruction.h"
#include "modules/gpu/ptx/ptx_types.h"

namespace ohmvp::gpu {

// The PTX spelling of the decoded enums (without the leading dot), both ways. Shared by the
// parser's decoding tables and the disassembler so the two cannot drift apart.

std::string_view type_name(DataType type);
// With its dot, as messages quote it: ".f32".
std::string type_text(DataType type);
std::optional<DataType> type_from_name(std::string_view name);
// .s4 and .u4, which only the tensor-core instructions take (type_from_name does not know them).
std::optional<DataType> sub_byte_type_from_name(std::string_view name);

std::string_view space_name(StateSpace space);  // "" for generic
std::optional<StateSpace> space_from_name(std::string_view name);

std::string_view opcode_name(Opcode op);
// A tex/tld4/suld/sust geometry: "1d", "2d", "3d", "a1d", "a2d", "cube" or "acube".
std::string geometry_name(uint32_t dimensions, bool layered, bool cube);
std::optional<Opcode> opcode_from_name(std::string_view name);

std::string_view compare_name(CompareOp op);
std::optional<CompareOp> compare_from_name(std::string_view name);

std::string_view rounding_name(RoundingMode mode);
std::optional<RoundingMode> rounding_from_name(std::string_view name);

std::string_view atomic_name(AtomicOp op);
std::optional<AtomicOp> atomic_from_name(std::string_view name);

std::string_view bool_op_name(BoolOp op);
std::string_view shuffle_name(ShuffleMode mode);
std::string_view vote_name(VoteMode mode);
std::string_view mul_mode_name(MulMode mode);
std::string_view permute_mode_name(PermuteMode mode);  // "" for the default byte selector
std::optional<PermuteMode> permute_mode_from_name(std::string_view name);
std::string_view test_property_name(TestProperty property);
std::optional<TestProperty> test_property_from_name(std::string_view name);

// "%tid", "%clock64", ... (with the percent sign).
std::string_view special_register_name(SpecialRegister reg);
std::optional<SpecialRegister> special_register_from_name(std::string_view name);
// N of "%envregN" (0 to 31), none for any other name.
std::optional<uint8_t> environment_register_number(std::string_view name);
// Whether the register has .x/.y/.z components.
bool special_register_has_components(SpecialRegister reg);

}  // namespace ohmvp::gpu
