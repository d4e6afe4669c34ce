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

// "atom.add.bf16 (PTX ISA 7.8, sm_90) is not supported ...", or nothing: an atomic the PTX ISA
// has that the model does not run.
std::optional<std::string> unsupported_atomic(std::string_view instruction,
                                              std::string_view operation, std::string_view type);

}  // namespace ohmvp::gpu
