#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace ohmvp {

// Deepest nesting of arrays and objects accepted: far beyond any config, workload or report, and
// shallow enough that walking or copying a document cannot exhaust the stack.
constexpr size_t max_json_depth = 100;

// Parses JSON text; `where` (a file name, "--set ...") starts every error. Throws ConfigError
// "<where>:<line>:<column>: malformed JSON: <reason>" when it does not parse, names the number
// too large for a double, or the nesting deeper than max_json_depth. `root_path` is where the
// text's value goes in a larger document (--set memory.controller={...}); a repeated key's
// message names its object's path from there.
nlohmann::json parse_json_text(const std::string& text, const std::string& where,
                               const std::string& root_path = "");

// Whether `path` is a regular file (symbolic links followed). Never throws: a path that cannot be
// looked at (too long, a symbolic-link loop) is not one, and why_not_a_file says why.
bool regular_file_exists(const std::filesystem::path& path) noexcept;
// Why `path` is not a regular file: "no such file", "a folder, not a file" or "not a regular file".
std::string why_not_a_file(const std::filesystem::path& path);
// Why `path` is there but not a regular file (a folder, a FIFO, a device: symbolic links
// followed), or none when it is a regular file or is not there.
std::optional<std::string> why_not_regular(const std::filesystem::path& path);

// Reads and parses a JSON file. Throws ConfigError "cannot read <file>: <reason>" when the file
// cannot be read and the errors of parse_json_text.
nlohmann::json load_json_file(const std::filesystem::path& file);

// "<line>:<column>" (both 1-based) of the character at `byte` (0-based) in `text`; a byte past the
// end names the position just after the last character.
std::string line_column_of(const std::string& text, size_t byte);

}  // namespace ohmvp
