#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ohmvp::gpu {

// Tokens of PTX text. A `word` is an identifier, a directive (`.reg`), an opcode with its
// modifiers (`ld.global.nc.v4.f32`, `ld.L1::evict_last`), a register (`%r1`, `%tid.x`) or a label;
// a `number` is any literal starting with a digit (`42`, `0x1F`, `0f3F800000`, `1.5e-3`, `7U`).
// Everything else is one punctuation character. Comments are dropped.
struct Token {
  enum class Kind : uint8_t { word, number, string, punct, end };
  Kind kind = Kind::end;
  std::string text;
  uint32_t line = 0;  // 1-based

  bool is(char c) const { return kind == Kind::punct && text.size() == 1 && text[0] == c; }
  bool is_word(std::string_view w) const { return kind == Kind::word && text == w; }
};

// Splits `text` into tokens, ending with one `end` token. Throws ConfigError
// "<file>:<line>: ..." on an unterminated comment or string or a stray character.
std::vector<Token> tokenize_ptx(std::string_view text, const std::string& file_name);

// `text` with every line ending (LF, CR LF or a lone CR, as old Mac files have) made LF.
std::string with_lf_line_ends(std::string_view text);

}  // namespace ohmvp::gpu
