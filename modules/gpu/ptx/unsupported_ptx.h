#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ohmvp::gpu {

// PTX instructions and modifiers that exist in the PTX ISA but that this model does not run, with
// what they are, so that a load refuses them as unsupported rather than unknown.

// "'vadd4' (a SIMD video instruction) is not supported ...", or nothing for a name the PTX ISA
// does not have.
std::optional<std::string> unsupported_instruction(std::string_view name);

// "'.NaN' of min (PTX ISA 7.0, sm_80) is not supported ...", or nothing.
std::optional<std::string> unsupported_modifier(std::string_view instruction,
                                                std::string_view modifier);

}  // namespace ohmvp::gpu
