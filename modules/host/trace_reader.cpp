#include "modules/host/trace_reader.h"

#include <array>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <string>
#include <string_view>

#include "modules/common/errors.h"
#include "modules/common/json_file.h"

namespace ohmvp {

namespace {

constexpr uint32_t max_size = 4096;

// The value of each hexadecimal digit character, -1 for other characters.
constexpr std::array<int8_t, 256> hex_digit_table() {
  std::array<int8_t, 256> table{};
  for (int c = 0; c < 256; ++c) {
    table[c] = c >= '0' && c <= '9'   ? int8_t(c - '0')
               : c >= 'a' && c <= 'f' ? int8_t(c - 'a' + 10)
               : c >= 'A' && c <= 'F' ? int8_t(c - 'A' + 10)
                                      : int8_t(-1);
  }
  return table;
}
constexpr std::array<int8_t, 256> k_hex_digit = hex_digit_table();

// Splits a line into fields separated by spaces and tabs.
class Fields {
 public:
  explicit Fields(std::string_view line) : m_line(line) {}

  // The next field, or an empty view at the end of the line.
  std::string_view next() {
    while (m_pos < m_line.size() && is_blank(m_line[m_pos])) ++m_pos;
    const size_t start = m_pos;
    while (m_pos < m_line.size() && !is_blank(m_line[m_pos])) ++m_pos;
    return m_line.substr(start, m_pos - start);
  }

 private:
  static bool is_blank(char c) { return c == ' ' || c == '\t'; }

  std::string_view m_line;
  size_t m_pos = 0;
};

bool parse_unsigned(std::string_view text, uint64_t& value, int base = 10) {
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value, base);
  return !text.empty() && ec == std::errc() && ptr == end;
}

// The latest issue time whose picoseconds fit in 64 bits, a fraction included.
constexpr uint64_t k_max_time_ns = (UINT64_MAX - 1000) / 1000;

// "<ns>" or "<ns>.<fraction>" to picoseconds, rounding half up. Decimal digits are converted
// exactly rather than through a double.
bool parse_time_ps(std::string_view text, uint64_t& ps) {
  const size_t point = text.find('.');
  uint64_t ns = 0;
  if (!parse_unsigned(text.substr(0, point), ns)) return false;
  if (ns > k_max_time_ns) return false;
  ps = ns * 1000;
  if (point == std::string_view::npos) return true;
  const std::string_view fraction = text.substr(point + 1);
  if (fraction.empty()) return false;
  uint64_t scale = 100;
  for (size_t i = 0; i < fraction.size(); ++i) {
    const char c = fraction[i];
    if (c < '0' || c > '9') return false;
    const uint64_t digit = static_cast<uint64_t>(c - '0');
    if (i < 3) {
      ps += digit * scale;
      scale /= 10;
    } else if (i == 3 && digit >= 5) {
      ++ps;
    }
  }
  return true;
}

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    const char c = (a[i] >= 'A' && a[i] <= 'Z') ? static_cast<char>(a[i] - 'A' + 'a') : a[i];
    if (c != b[i]) return false;
  }
  return true;
}

bool parse_operation(std::string_view text, bool& is_write) {
  if (equals_ignoring_case(text, "r") || equals_ignoring_case(text, "read")) {
    is_write = false;
    return true;
  }
  if (equals_ignoring_case(text, "w") || equals_ignoring_case(text, "write")) {
    is_write = true;
    return true;
  }
  return false;
}

bool parse_address(std::string_view text, uint64_t& address) {
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    return parse_unsigned(text.substr(2), address, 16);
  }
  return parse_unsigned(text, address);
}

bool parse_size(std::string_view text, uint32_t& size) {
  uint64_t value = 0;
  if (!parse_unsigned(text, value) || value == 0 || value > max_size) return false;
  if ((value & (value - 1)) != 0) return false;
  size = static_cast<uint32_t>(value);
  return true;
}

std::string hex(uint64_t value) {
  char buffer[19] = "0x";
  const auto result = std::to_chars(buffer + 2, buffer + sizeof buffer, value, 16);
  return std::string(buffer, result.ptr);
}

std::string format_ps(uint64_t ps) {
  std::string text = std::to_string(ps / 1000);
  if (ps % 1000 != 0) {
    std::string fraction = std::to_string(1000 + ps % 1000).substr(1);
    while (fraction.back() == '0') fraction.pop_back();
    text += "." + fraction;
  }
  return text;
}

class TraceParser {
 public:
  TraceParser(const std::filesystem::path& file, std::vector<MemoryRequest>& requests,
              TraceReach& reach)
      : m_file(file.string()), m_requests(requests), m_reach(reach) {}

  void parse_line(std::string_view line) {
    ++m_line_number;
    if (parse_plain(line)) return;
    m_line = line;
    Fields fields(line);
    std::string_view field = fields.next();
    if (field.empty() || field[0] == '#') return;

    MemoryRequest request;
    request.not_before_ps = m_time_ps;
    if (field[0] == '@') {
      uint64_t ps = 0;
      if (!parse_time_ps(field.substr(1), ps)) {
        fail("bad issue time '" + excerpt(field) + "'",
             "@<nanoseconds> with an optional fraction, e.g. @12.5, at most @" +
                 std::to_string(k_max_time_ns));
      }
      if (ps < m_time_ps) {
        fail("issue time " + excerpt(field) + " is before the previous line's @" +
                 format_ps(m_time_ps),
             "times that do not decrease");
      }
      request.not_before_ps = m_time_ps = ps;
      field = fields.next();
    }

    const char* expected_operation = "R, W, read or write";
    refuse_comment(field);
    if (field.empty()) fail("missing operation", expected_operation);
    if (!parse_operation(field, request.is_write)) {
      fail("bad operation '" + excerpt(field) + "'", expected_operation);
    }

    const char* expected_address = "a hexadecimal (0x...) or decimal 64-bit address";
    field = fields.next();
    refuse_comment(field);
    if (field.empty()) fail("missing address", expected_address);
    if (!parse_address(field, request.address)) {
      fail("bad address '" + excerpt(field) + "'", expected_address);
    }

    field = fields.next();
    refuse_comment(field);
    if (!field.empty()) {
      if (!parse_size(field, request.size)) {
        fail("bad size '" + excerpt(field) + "'",
             "a decimal power of two from 1 to " + std::to_string(max_size));
      }
      field = fields.next();
      refuse_comment(field);
    }
    if (request.address % request.size != 0) {
      fail("address " + hex(request.address) + " is not aligned to the size " +
               std::to_string(request.size),
           "a multiple of the size");
    }
    if (!field.empty()) fail("unexpected '" + excerpt(field) + "'", "the end of the line");

    add(request);
  }

  // The most common line, "<R|W> 0x<hex>" with one space and a 64-byte-aligned address, read in
  // one pass straight from the file's block at `p`: the position after its newline, or nullptr
  // (and nothing done) when the line is of another form, valid or not, or does not end before
  // `end`. Such lines are left to the general parser.
  const char* parse_plain_at(const char* p, const char* end) {
    const char* q = scan_plain(p, end);
    if (q == nullptr || q == end) return nullptr;
    if (*q == '\r') ++q;
    if (q == end || *q != '\n') return nullptr;
    ++m_line_number;
    add(m_plain);
    return q + 1;
  }

 private:
  void add(const MemoryRequest& request) {
    m_requests.push_back(request);
    if (request.size > m_reach.largest_size) {
      m_reach.largest_size = request.size;
      m_reach.largest_size_line = m_line_number;
    }
    // Aligned to its size, a request ends at 2^64 at most.
    const uint64_t last_byte = request.address + (request.size - 1);
    if (last_byte > m_reach.last_byte || m_reach.last_byte_line == 0) {
      m_reach.last_byte = last_byte;
      m_reach.last_byte_line = m_line_number;
    }
  }

  bool parse_plain(std::string_view line) {
    const char* end = line.data() + line.size();
    if (scan_plain(line.data(), end) != end) return false;
    add(m_plain);
    return true;
  }

  // Reads "<R|W> 0x<hex>" at `p` into m_plain: the position after the last hexadecimal digit,
  // or nullptr when the text there is not of that form or the address is not 64-byte aligned.
  // The text may be read up to the first character after `end`, which must not be a
  // hexadecimal digit (the file's block ends with a 0; so do carried lines, as strings).
  const char* scan_plain(const char* p, const char* end) {
    constexpr ptrdiff_t prefix = 4;  // "R 0x"
    if (end - p <= prefix) return nullptr;
    const char op = p[0];
    const bool is_write = op == 'W' || op == 'w';
    if (!is_write && op != 'R' && op != 'r') return nullptr;
    if (p[1] != ' ' || p[2] != '0' || (p[3] != 'x' && p[3] != 'X')) return nullptr;
    const char* const digits = p + prefix;
    uint64_t address = 0;
    const char* q = digits;
    for (int8_t digit; (digit = k_hex_digit[static_cast<unsigned char>(*q)]) >= 0; ++q) {
      address = address << 4 | uint64_t(digit);
    }
    if (q == digits || q - digits > 16) return nullptr;
    m_plain.is_write = is_write;
    m_plain.address = address;
    m_plain.not_before_ps = m_time_ps;
    return address % m_plain.size == 0 ? q : nullptr;
  }

  // A '#' after a request's first field starts no comment: comments take a line of their own.
  void refuse_comment(std::string_view field) const {
    if (!field.empty() && field[0] == '#')
      fail("a comment after a request", "comments on lines of their own");
  }

  [[noreturn]] void fail(const std::string& problem, const std::string& expected) const {
    throw ConfigError(m_file + ":" + std::to_string(m_line_number) + ": " + problem +
                      "; expected " + expected + ": '" + excerpt(m_line) + "'");
  }

  std::string m_file;
  std::vector<MemoryRequest>& m_requests;
  TraceReach& m_reach;
  uint64_t m_line_number = 0;
  std::string_view m_line;
  uint64_t m_time_ps = 0;
  MemoryRequest m_plain;  // the last plain line's request; its size stays the default
};

[[noreturn]] void fail_to_read(const std::filesystem::path& file, int error) {
  throw ConfigError("cannot read trace " + file.string() + ": " + std::strerror(error));
}

}  // namespace

TraceSource::TraceSource(const std::filesystem::path& file) {
  // A FIFO or a device would block or never end: only regular files.
  if (const auto why = why_not_regular(file))
    throw ConfigError("cannot read trace " + file.string() + ": " + *why);
  errno = 0;
  std::ifstream stream(file);
  if (!stream) fail_to_read(file, errno != 0 ? errno : ENOENT);

  TraceParser parser(file, m_requests, m_reach);
  auto parse = [&parser](std::string_view line) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    // Lines may also end in a lone CR (old Mac files): such a "line" holds several.
    for (size_t cr; (cr = line.find('\r')) != std::string_view::npos;) {
      parser.parse_line(line.substr(0, cr));
      line.remove_prefix(cr + 1);
    }
    parser.parse_line(line);
  };
  // Read in large blocks and cut lines out of them in place (getline into a string costs more
  // than parsing the line); a line cut by a block's end is put together in `carry`.
  constexpr size_t block_bytes = size_t(1) << 16;
  std::vector<char> block(block_bytes + 1);  // and a 0 after the bytes read (see scan_plain)
  std::string carry;
  for (bool first = true;; first = false) {
    stream.read(block.data(), static_cast<std::streamsize>(block_bytes));
    const size_t got = static_cast<size_t>(stream.gcount());
    if (got == 0) break;
    block[got] = '\0';
    const char* begin = block.data();
    const char* const end = begin + got;
    // A UTF-8 byte-order mark, as some editors write, is not part of the first line.
    if (first && got >= 3 && std::memcmp(begin, "\xEF\xBB\xBF", 3) == 0) begin += 3;
    for (;;) {
      if (carry.empty()) {
        if (const char* next = parser.parse_plain_at(begin, end)) {
          begin = next;
          continue;
        }
      }
      const char* newline = static_cast<const char*>(std::memchr(begin, '\n', size_t(end - begin)));
      if (newline == nullptr) break;
      if (carry.empty()) {
        parse(std::string_view(begin, size_t(newline - begin)));
      } else {
        carry.append(begin, newline);
        parse(carry);
        carry.clear();
      }
      begin = newline + 1;
    }
    carry.append(begin, end);
  }
  if (stream.bad()) fail_to_read(file, errno != 0 ? errno : EIO);
  if (!carry.empty()) parse(carry);  // a last line without a newline
  if (m_requests.empty()) {
    throw ConfigError("trace " + file.string() +
                      " has no requests; expected at least one line "
                      "of the form [@<time_ns>] <R|W> <address> [<size>]");
  }
  m_requests.shrink_to_fit();
}

bool TraceSource::next(MemoryRequest& request) {
  if (m_next == m_requests.size()) return false;
  request = m_requests[m_next++];
  return true;
}

}  // namespace ohmvp
