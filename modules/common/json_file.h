#pragma once

#include <cstddef>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

namespace ohmvp {

// Reads and parses a JSON file. Throws ConfigError "cannot read <file>: <reason>" when the file
// cannot be read and "<file>:<line>:<column>: malformed JSON: <reason>" when it does not parse.
nlohmann::json load_json_file(const std::filesystem::path& file);

// "<line>:<column>" (both 1-based) of the character at `byte` (0-based) in `text`; a byte past the
// end names the position just after the last character.
std::string line_column_of(const std::string& text, size_t byte);

}  // namespace ohmvp
