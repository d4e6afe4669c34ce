#include "modules/gpu/ptx/ptx_lexer.h"

#include <cctype>
#include <cstring>

#include "modules/common/errors.h"

namespace ohmvp::gpu {
namespace {

bool is_word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '%' ||
         c == '.';
}

}  // namespace

std::string with_lf_line_ends(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\r') {
      out += text[i];
    } else if (i + 1 == text.size() || text[i + 1] != '\n') {
      out += '\n';
    }
  }
  return out;
}

std::vector<Token> tokenize_ptx(std::string_view text, const std::string& file_name) {
  std::string normalized;
  if (text.find('\r') != std::string_view::npos) {
    normalized = with_lf_line_ends(text);
    text = normalized;
  }
  std::vector<Token> tokens;
  uint32_t line = 1;
  size_t i = 0;
  auto fail = [&](uint32_t at, const std::string& problem) {
    throw ConfigError(file_name + ":" + std::to_string(at) + ": " + problem);
  };
  while (i < text.size()) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      ++i;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i < text.size() && text[i] != '\n') ++i;
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      const uint32_t start = line;
      i += 2;
      while (i + 1 < text.size() && !(text[i] == '*' && text[i + 1] == '/')) {
        if (text[i] == '\n') ++line;
        ++i;
      }
      if (i + 1 >= text.size()) fail(start, "unterminated /* comment");
      i += 2;
    } else if (c == '"') {
      const uint32_t start = line;
      size_t end = i + 1;
      while (end < text.size() && text[end] != '"' && text[end] != '\n') ++end;
      if (end >= text.size() || text[end] != '"') fail(start, "unterminated string");
      tokens.push_back({Token::Kind::string, std::string(text.substr(i + 1, end - i - 1)), line});
      i = end + 1;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t end = i;
      while (end < text.size()) {
        const char d = text[end];
        const bool exponent_sign = (d == '+' || d == '-') && end > i &&
                                   (text[end - 1] == 'e' || text[end - 1] == 'E') &&
                                   !(text[i] == '0' && i + 1 < text.size() &&
                                     std::strchr("xXfFdD", text[i + 1]) != nullptr);
        if (!std::isalnum(static_cast<unsigned char>(d)) && d != '.' && !exponent_sign) break;
        ++end;
      }
      tokens.push_back({Token::Kind::number, std::string(text.substr(i, end - i)), line});
      i = end;
    } else if (is_word_char(c)) {
      size_t end = i;
      while (end < text.size()) {
        if (is_word_char(text[end])) {
          ++end;
        } else if (text[end] == ':' && end + 1 < text.size() && text[end + 1] == ':') {
          end += 2;  // cache-policy qualifiers such as .L1::evict_last
        } else {
          break;
        }
      }
      tokens.push_back({Token::Kind::word, std::string(text.substr(i, end - i)), line});
      i = end;
    } else if (std::strchr("{}()[];:,<>+-=|!@", c) != nullptr) {
      tokens.push_back({Token::Kind::punct, std::string(1, c), line});
      ++i;
    } else {
      fail(line, std::string("unexpected character '") + c + "'");
    }
  }
  tokens.push_back({Token::Kind::end, "", line});
  return tokens;
}

}  // namespace ohmvp::gpu
