#include "platforms/quantity_text.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

namespace ohmvp {

uint64_t parse_quantity(const std::string& text, const QuantityUnit* units, size_t unit_count,
                        const std::string& expected, const std::string& range) {
  if (text == "none") return 0;
  size_t digits = 0;
  while (digits < text.size() &&
         (std::isdigit(static_cast<unsigned char>(text[digits])) || text[digits] == '.'))
    ++digits;
  size_t unit_start = digits;
  while (unit_start < text.size() && text[unit_start] == ' ') ++unit_start;
  const std::string number = text.substr(0, digits);
  const std::string unit = text.substr(unit_start);
  double scale = 0;
  for (size_t i = 0; i < unit_count; ++i)
    if (unit == units[i].first) scale = units[i].second;
  char* end = nullptr;
  const double value = number.empty() ? 0.0 : std::strtod(number.c_str(), &end);
  if (number.empty() || end != number.c_str() + number.size() || scale == 0)
    throw std::invalid_argument("'" + text + "': " + expected);
  const double quantity = value * scale;
  if (!(quantity >= 1.0) || quantity > 9.2e18)
    throw std::invalid_argument("'" + text + "': " + range);
  // The smallest unit is the resolution: 1.5ps names no instant, 1.5B no size.
  const double whole = std::round(quantity);
  if (std::fabs(quantity - whole) > 1e-9 * whole)
    throw std::invalid_argument("'" + text + "': not a whole number of " + units[0].first);
  return static_cast<uint64_t>(std::llround(quantity));
}

}  // namespace ohmvp
