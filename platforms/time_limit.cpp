#include "platforms/time_limit.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <iterator>
#include <stdexcept>
#include <utility>

#include "modules/common/errors.h"

namespace ohmvp {

namespace {

constexpr std::pair<const char*, double> k_units[] = {
    {"ps", 1.0}, {"ns", 1e3}, {"us", 1e6}, {"ms", 1e9}, {"s", 1e12}};

}  // namespace

uint64_t parse_time_limit_ps(const std::string& text) {
  if (text == "none") return 0;
  const std::string expected =
      "expected a time and its unit (ps, ns, us, ms or s) such as 5ms, or none";
  size_t digits = 0;
  while (digits < text.size() &&
         (std::isdigit(static_cast<unsigned char>(text[digits])) || text[digits] == '.'))
    ++digits;
  size_t unit_start = digits;
  while (unit_start < text.size() && text[unit_start] == ' ') ++unit_start;
  const std::string number = text.substr(0, digits);
  const std::string unit = text.substr(unit_start);
  double scale = 0;
  for (const auto& [name, ps] : k_units)
    if (unit == name) scale = ps;
  char* end = nullptr;
  const double value = number.empty() ? 0.0 : std::strtod(number.c_str(), &end);
  if (number.empty() || end != number.c_str() + number.size() || scale == 0)
    throw std::invalid_argument("'" + text + "': " + expected);
  const double ps = value * scale;
  if (!(ps >= 1.0) || ps > 9.2e18)
    throw std::invalid_argument("'" + text + "': expected from 1 ps to 9.2e6 s, or none");
  return static_cast<uint64_t>(std::llround(ps));
}

std::string time_limit_text(uint64_t ps) {
  for (auto it = std::rbegin(k_units); it != std::rend(k_units); ++it) {
    if (double(ps) >= it->second) return number_text(double(ps) / it->second) + " " + it->first;
  }
  return std::to_string(ps) + " ps";
}

}  // namespace ohmvp
