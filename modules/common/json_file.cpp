#include "modules/common/json_file.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "modules/common/errors.h"

namespace ohmvp {

namespace {

std::string read_whole_file(const std::filesystem::path& file) {
  auto fail = [&file](int error) {
    throw ConfigError("cannot read " + file.string() + ": " + std::strerror(error));
  };
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> stream(std::fopen(file.c_str(), "rb"),
                                                         &std::fclose);
  if (!stream) fail(errno);
  std::string text;
  char buffer[65536];
  size_t count;
  while ((count = std::fread(buffer, 1, sizeof buffer, stream.get())) > 0)
    text.append(buffer, count);
  // fopen succeeds on a directory; the read is what fails (EISDIR).
  if (std::ferror(stream.get())) fail(errno);
  return text;
}

// nlohmann's message is "[json.exception.parse_error.101] parse error at line 3, column 1: syntax
// error ..."; keep only the part after the position, which is ours to report.
std::string short_reason(const nlohmann::json::parse_error& error) {
  const std::string message = error.what();
  const size_t start = message.find("parse error");
  if (start == std::string::npos) return message;
  const size_t colon = message.find(": ", start);
  return colon == std::string::npos ? message : message.substr(colon + 2);
}

}  // namespace

std::string line_column_of(const std::string& text, size_t byte) {
  byte = std::min(byte, text.size());
  size_t line = 1;
  size_t line_start = 0;
  for (size_t i = 0; i < byte; ++i) {
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  return std::to_string(line) + ":" + std::to_string(byte - line_start + 1);
}

nlohmann::json load_json_file(const std::filesystem::path& file) {
  const std::string text = read_whole_file(file);
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& error) {
    // error.byte counts the characters read, the offending one included.
    const size_t offending = error.byte == 0 ? 0 : error.byte - 1;
    throw ConfigError(file.string() + ":" + line_column_of(text, offending) +
                      ": malformed JSON: " + short_reason(error));
  }
}

}  // namespace ohmvp
