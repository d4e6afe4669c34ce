#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace ohmvp {

// The message with control characters (but newlines and tabs) written as \xNN, so that a quoted
// piece of a binary file neither garbles the terminal nor, a NUL, cuts the message short.
std::string printable(const std::string& message);

// Whether a C1 control character (U+0080..U+009F, such as an 8-bit CSI) starts at text[i].
bool c1_control_at(std::string_view text, size_t i);

// Where the first C0 or C1 control character (U+0000..U+001F, U+007F..U+009F) of `text` starts,
// or npos when it has none.
size_t find_control_character(std::string_view text);

// The refusal of text holding one: "expected <what> without control characters; byte N is U+XXXX
// in "<the text around it, JSON-escaped>"".
std::string control_character_refusal(std::string_view text, std::string_view what);

// A piece of input to quote in a message: at most `max_bytes` of it, "..." marking a cut.
std::string excerpt(std::string_view text, size_t max_bytes = 60);

// A number as a message or a stats line prints it: six significant digits (`0.1`, `1e+06`).
std::string number_text(double value);

// Bad input from the user: config, command line, workload or trace file. The CLI exits with 2.
class ConfigError : public std::runtime_error {
 public:
  explicit ConfigError(const std::string& message) : std::runtime_error(printable(message)) {}
};

// A failure while simulating: a timing violation, a data mismatch, a device fault. Exit code 1.
class SimulationError : public std::runtime_error {
 public:
  explicit SimulationError(const std::string& message)
      : std::runtime_error(printable(message)) {}
};

// A device fault that stopped a kernel, with the global address of the access that faulted when
// it was one (an unmapped or misaligned global access), for the host to name its buffer.
class DeviceFaultError : public SimulationError {
 public:
  DeviceFaultError(const std::string& message, std::optional<uint64_t> global_address)
      : SimulationError(message), m_global_address(global_address) {}
  const std::optional<uint64_t>& global_address() const { return m_global_address; }

 private:
  std::optional<uint64_t> m_global_address;
};

}  // namespace ohmvp
