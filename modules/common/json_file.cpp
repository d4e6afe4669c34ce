#include "modules/common/json_file.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <unordered_set>
#include <vector>

#include "modules/common/errors.h"

namespace ohmvp {

namespace {

std::string read_whole_file(const std::filesystem::path& file) {
  auto fail = [&file](int error) {
    throw ConfigError("cannot read " + file.string() + ": " + std::strerror(error));
  };
  // A FIFO or a device would block or never end: only regular files.
  std::error_code unknown;
  if (std::filesystem::is_directory(file, unknown)) fail(EISDIR);
  if (const auto why = why_not_regular(file))
    throw ConfigError("cannot read " + file.string() + ": " + *why);
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> stream(std::fopen(file.c_str(), "rb"),
                                                         &std::fclose);
  if (!stream) fail(errno);
  std::string text;
  char buffer[65536];
  size_t count;
  while ((count = std::fread(buffer, 1, sizeof buffer, stream.get())) > 0)
    text.append(buffer, count);
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

bool is_number_character(char c) {
  return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

std::string number_at(const std::string& text, size_t start) {
  size_t end = start;
  while (end < text.size() && is_number_character(text[end])) ++end;
  return text.substr(start, end - start);
}

// The index of the quote that closes the string opened at `quote` (the end if none does).
size_t end_of_string(const std::string& text, size_t quote) {
  size_t i = quote + 1;
  while (i < text.size() && text[i] != '"') i += text[i] == '\\' ? 2 : 1;
  return i;
}

// The byte where the first number that does not fit a double starts.
size_t first_overflowing_number(const std::string& text) {
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '"') {
      i = end_of_string(text, i);
    } else if ((text[i] >= '0' && text[i] <= '9') || text[i] == '-') {
      const std::string number = number_at(text, i);
      if (std::isinf(std::strtod(number.c_str(), nullptr))) return i;
      i += number.size() - 1;
    }
  }
  return 0;
}

// The byte of the first bracket nested more than max_json_depth deep.
size_t too_deep_at(const std::string& text) {
  size_t depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {
      i = end_of_string(text, i);
    } else if (c == '[' || c == '{') {
      if (++depth > max_json_depth) return i;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return text.size();
}

// nlohmann's document builder with one check it does not make: a key twice in one object (it
// would keep the last, so a repeated setting would silently override the first). A SAX handler,
// not a parse callback: the callback parser scans the parent object after every child object,
// which is quadratic in the number of members.
class DuplicateCheckingBuilder {
 public:
  using Json = nlohmann::json;
  DuplicateCheckingBuilder(Json& result, const std::string& text, const std::string& where,
                           const std::string& root_path)
      : m_builder(result), m_text(text), m_where(where), m_root_path(root_path) {}

  bool null() { return value_done(m_builder.null()); }
  bool boolean(bool value) { return value_done(m_builder.boolean(value)); }
  bool number_integer(Json::number_integer_t value) {
    return value_done(m_builder.number_integer(value));
  }
  bool number_unsigned(Json::number_unsigned_t value) {
    return value_done(m_builder.number_unsigned(value));
  }
  bool number_float(Json::number_float_t value, const Json::string_t& text) {
    return value_done(m_builder.number_float(value, text));
  }
  bool string(Json::string_t& value) { return value_done(m_builder.string(value)); }
  bool binary(Json::binary_t& value) { return value_done(m_builder.binary(value)); }
  bool start_object(std::size_t size) {
    open(true);
    return m_builder.start_object(size);
  }
  bool start_array(std::size_t size) {
    open(false);
    return m_builder.start_array(size);
  }
  bool end_object() {
    m_open.pop_back();
    return value_done(m_builder.end_object());
  }
  bool end_array() {
    m_open.pop_back();
    return value_done(m_builder.end_array());
  }
  bool key(Json::string_t& key) {
    Container& object = m_open.back();
    object.key = key;
    if (!object.keys.insert(key).second) {
      const std::string path = path_of_open_object();
      throw ConfigError(m_where + ": " + (path.empty() ? "top level" : path) + ": key '" + key +
                        "' appears twice");
    }
    return m_builder.key(key);
  }
  // Throws `error` as its own type (parse_error, out_of_range), which parse_json_text catches.
  template <class Exception>
  bool parse_error(std::size_t position, const std::string& last_token, const Exception& error) {
    return m_builder.parse_error(position, last_token, error);
  }

 private:
  struct Container {
    bool is_object;
    std::unordered_set<std::string> keys;
    std::string key;  // of the member being read
    size_t index;     // of the element being read
  };

  // Nesting deeper than max_json_depth is refused while parsing (which keeps its own stack), so
  // that nothing later copies or walks such a document recursively.
  void open(bool is_object) {
    if (m_open.size() == max_json_depth)
      throw ConfigError(m_where + ":" + line_column_of(m_text, too_deep_at(m_text)) +
                        ": malformed JSON: arrays and objects nested more than " +
                        std::to_string(max_json_depth) + " deep");
    m_open.push_back(Container{is_object, {}, {}, 0});
  }

  bool value_done(bool result) {
    if (!m_open.empty() && !m_open.back().is_object) ++m_open.back().index;
    return result;
  }

  // The innermost open container is the object with the repeated key.
  std::string path_of_open_object() const {
    std::string path = m_root_path;
    for (size_t i = 0; i + 1 < m_open.size(); ++i) {
      const Container& c = m_open[i];
      if (c.is_object)
        path += (path.empty() ? "" : ".") + c.key;
      else
        path += "[" + std::to_string(c.index) + "]";
    }
    return path;
  }

  nlohmann::detail::json_sax_dom_parser<Json> m_builder;
  const std::string& m_text;
  const std::string& m_where;
  const std::string& m_root_path;
  std::vector<Container> m_open;
};

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

nlohmann::json parse_json_text(const std::string& text, const std::string& where,
                               const std::string& root_path) {
  // The parser takes a NUL byte for the end of the input and would ignore what follows it.
  if (const size_t nul = text.find('\0'); nul != std::string::npos)
    throw ConfigError(where + ":" + line_column_of(text, nul) +
                      ": malformed JSON: a NUL byte (not text)");
  try {
    nlohmann::json document;
    DuplicateCheckingBuilder builder(document, text, where, root_path);
    nlohmann::json::sax_parse(text, &builder);
    return document;
  } catch (const nlohmann::json::parse_error& error) {
    // error.byte counts the characters read, the offending one included.
    const size_t offending = error.byte == 0 ? 0 : error.byte - 1;
    throw ConfigError(where + ":" + line_column_of(text, offending) +
                      ": malformed JSON: " + short_reason(error));
  } catch (const nlohmann::json::out_of_range&) {
    // The one out-of-range error of parsing: a number beyond a double's range (no position given).
    const size_t number = first_overflowing_number(text);
    throw ConfigError(where + ":" + line_column_of(text, number) + ": number '" +
                      number_at(text, number) + "' is beyond the range of a double");
  }
}

std::optional<std::string> why_not_regular(const std::filesystem::path& path) {
  std::error_code error;
  const std::filesystem::file_type type = std::filesystem::status(path, error).type();
  if (type == std::filesystem::file_type::directory) return "a folder, not a file";
  if (type == std::filesystem::file_type::regular || type == std::filesystem::file_type::not_found)
    return std::nullopt;
  if (error) return "not readable as a file: " + error.message();  // a symbolic-link loop, ...
  return "not a regular file";
}

bool regular_file_exists(const std::filesystem::path& path) noexcept {
  std::error_code unknown;
  return std::filesystem::is_regular_file(path, unknown);
}

std::string why_not_a_file(const std::filesystem::path& path) {
  return why_not_regular(path).value_or("no such file");
}

nlohmann::json load_json_file(const std::filesystem::path& file) {
  return parse_json_text(read_whole_file(file), file.string());
}

}  // namespace ohmvp
