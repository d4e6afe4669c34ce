#include "modules/gpu/simt/device_printf.h"

#include <cstdio>

#include "modules/common/hex_text.h"
#include "modules/gpu/ptx/float_bits.h"

namespace ohmvp::gpu {

std::optional<uint64_t> PrintfArguments::next(uint64_t bytes) {
  m_offset = (m_offset + bytes - 1) / bytes * bytes;
  uint64_t value = 0;
  if (!m_read(m_offset, &value, bytes)) return std::nullopt;
  m_offset += bytes;
  ++m_taken;
  return value;
}

namespace {

// Appends what the host's snprintf makes of one conversion `spec` with `value`.
template <class T>
void append_formatted(std::string& out, const std::string& spec, T value) {
  const int length = std::snprintf(nullptr, 0, spec.c_str(), value);
  if (length <= 0) return;
  const size_t at = out.size();
  out.resize(at + size_t(length) + 1);
  std::snprintf(out.data() + at, size_t(length) + 1, spec.c_str(), value);
  out.resize(at + size_t(length));
}

bool is_flag(char c) {
  return c == '-' || c == '+' || c == ' ' || c == '#' || c == '0';
}

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

bool is_length(char c) {
  return c == 'h' || c == 'l' || c == 'L' || c == 'j' || c == 'z' || c == 't';
}

}  // namespace

std::string format_device_printf(std::string_view format, PrintfArguments& arguments,
                                 const std::function<std::string(uint64_t)>& read_string) {
  std::string out;
  size_t i = 0;
  const size_t n = format.size();
  while (i < n) {
    if (format[i] != '%') {
      out += format[i++];
      continue;
    }
    const size_t start = i++;
    if (i < n && format[i] == '%') {
      out += '%';
      ++i;
      continue;
    }
    // The conversion's flags, width and precision, as the host's printf takes them; a '*'
    // takes its value from the next (int) argument.
    std::string spec = "%";
    while (i < n && is_flag(format[i])) spec += format[i++];
    // A negative '*' width means '-' and its magnitude (the host's printf takes "%-3d"); a
    // negative '*' precision means none.
    const auto width_or_precision = [&](bool precision) {
      if (i < n && format[i] == '*') {
        ++i;
        const int32_t value = int32_t(uint32_t(arguments.next(4).value_or(0)));
        if (precision && value < 0)
          spec.pop_back();  // the '.'
        else
          spec += std::to_string(value);
        return;
      }
      while (i < n && is_digit(format[i])) spec += format[i++];
    };
    width_or_precision(false);
    if (i < n && format[i] == '.') {
      spec += format[i++];
      width_or_precision(true);
    }
    std::string length;
    while (i < n && is_length(format[i])) length += format[i++];
    if (i >= n) {  // a '%' the format ends in: printed as it is
      out.append(format.substr(start));
      break;
    }
    const char conversion = format[i++];
    // The conversion's argument; "<?>" printed in its place when there is none.
    const auto take = [&](uint64_t bytes) {
      const std::optional<uint64_t> value = arguments.next(bytes);
      if (!value) out += "<?>";
      return value;
    };
    const bool wide =
        length == "l" || length == "ll" || length == "j" || length == "z" || length == "t";
    switch (conversion) {
      case 'd':
      case 'i':
      case 'u':
      case 'o':
      case 'x':
      case 'X':
      case 'c': {
        const std::optional<uint64_t> value = take(wide && conversion != 'c' ? 8 : 4);
        if (!value) break;
        if (conversion == 'c') {
          append_formatted(out, spec + 'c', int(int32_t(uint32_t(*value))));
          break;
        }
        const bool is_signed = conversion == 'd' || conversion == 'i';
        uint64_t bits = wide ? *value : uint64_t(uint32_t(*value));
        if (length == "h") bits &= 0xffff;
        if (length == "hh") bits &= 0xff;
        const unsigned width = wide ? 64 : length == "h" ? 16 : length == "hh" ? 8 : 32;
        if (is_signed && width < 64 && ((bits >> (width - 1)) & 1)) bits |= ~uint64_t{0} << width;
        if (is_signed)
          append_formatted(out, spec + "ll" + conversion, static_cast<long long>(bits));
        else
          append_formatted(out, spec + "ll" + conversion, static_cast<unsigned long long>(bits));
        break;
      }
      case 'f':
      case 'F':
      case 'e':
      case 'E':
      case 'g':
      case 'G':
      case 'a':
      case 'A': {
        const std::optional<uint64_t> bits = take(8);
        if (!bits) break;
        append_formatted(out, spec + conversion, as_f64(*bits));
        break;
      }
      case 's': {
        const std::optional<uint64_t> pointer = take(8);
        if (!pointer) break;
        const std::string text = *pointer == 0 ? "(null)" : read_string(*pointer);
        append_formatted(out, spec + 's', text.c_str());
        break;
      }
      case 'p': {  // as glibc prints it: CUDA formats device printf with the host's C library
        const std::optional<uint64_t> pointer = take(8);
        if (!pointer) break;
        const std::string text = *pointer != 0 ? hex_text(*pointer) : "(nil)";
        append_formatted(out, spec + 's', text.c_str());
        break;
      }
      case 'n':
        arguments.next(8);
        break;
      case '%':  // "%5%": glibc prints one '%' and ignores the flags and width
        out += '%';
        break;
      default:  // not a conversion: printed as it is
        out.append(format.substr(start, i - start));
        break;
    }
  }
  return out;
}

}  // namespace ohmvp::gpu
