#include "modules/common/errors.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <sstream>

namespace ohmvp {

namespace {

// The length of the UTF-8 sequence at `i` (2 to 4), or 0 when the bytes there are not one.
size_t utf8_sequence(const std::string& text, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  const size_t length = lead >= 0xc2 && lead <= 0xdf   ? 2
                        : lead >= 0xe0 && lead <= 0xef ? 3
                        : lead >= 0xf0 && lead <= 0xf4 ? 4
                                                       : 0;
  if (length == 0 || i + length > text.size()) return 0;
  for (size_t k = i + 1; k < i + length; ++k)
    if ((byte(k) & 0xc0) != 0x80) return 0;
  return length;
}

}  // namespace

bool c1_control_at(std::string_view text, size_t i) {
  return static_cast<unsigned char>(text[i]) == 0xc2 && i + 1 < text.size() &&
         (static_cast<unsigned char>(text[i + 1]) & 0xe0) == 0x80;
}

size_t find_control_character(std::string_view text) {
  for (size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte < 0x20 || byte == 0x7f || c1_control_at(text, i)) return i;
  }
  return std::string_view::npos;
}

std::string control_character_refusal(std::string_view text, std::string_view what) {
  const size_t at = find_control_character(text);
  const auto byte = static_cast<unsigned char>(text[at]);
  const unsigned code = byte < 0x80 ? byte : static_cast<unsigned char>(text[at + 1]);
  char code_text[8];
  std::snprintf(code_text, sizeof code_text, "U+%04X", code);
  // Some text on each side of it, cut on character boundaries.
  size_t from = at > 40 ? at - 40 : 0;
  while (from > 0 && (static_cast<unsigned char>(text[from]) & 0xc0) == 0x80) --from;
  const std::string around = (from > 0 ? "..." : "") + excerpt(text.substr(from), at - from + 40);
  return "expected " + std::string(what) + " without control characters; byte " +
         std::to_string(at) + " is " + code_text + " in " +
         nlohmann::json(around).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string printable(const std::string& message) {
  std::string text;
  text.reserve(message.size());
  for (size_t i = 0; i < message.size(); ++i) {
    const auto byte = static_cast<unsigned char>(message[i]);
    if ((byte >= 0x20 && byte < 0x7f) || byte == '\n' || byte == '\t') {
      text += message[i];
    } else if (message.compare(i, 3, "\xef\xbb\xbf") == 0) {
      text += "\\ufeff";  // a byte-order mark prints as nothing
      i += 2;
    } else if (c1_control_at(message, i)) {
      char escaped[7];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned char>(message[i + 1]));
      text += escaped;
      ++i;
    } else if (const size_t length = byte >= 0x80 ? utf8_sequence(message, i) : 0) {
      text.append(message, i, length);
      i += length - 1;
    } else {
      char escaped[5];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
      text += escaped;
    }
  }
  return text;
}

std::string excerpt(std::string_view text, size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  size_t cut = max_bytes;
  // Not inside a UTF-8 character: back to the byte that starts it.
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xc0) == 0x80) --cut;
  return std::string(text.substr(0, cut)) + "...";
}

std::string number_text(double value) {
  std::ostringstream text;
  text << value;
  return text.str();
}

}  // namespace ohmvp
