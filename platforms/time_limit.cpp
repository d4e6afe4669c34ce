#include "platforms/time_limit.h"

#include <iterator>

#include "modules/common/errors.h"
#include "platforms/quantity_text.h"

namespace ohmvp {

namespace {

constexpr QuantityUnit k_units[] = {
    {"ps", 1.0}, {"ns", 1e3}, {"us", 1e6}, {"ms", 1e9}, {"s", 1e12}};

}  // namespace

uint64_t parse_time_limit_ps(const std::string& text) {
  return parse_quantity(text, k_units, std::size(k_units),
                        "expected a time and its unit (ps, ns, us, ms or s) such as 5ms, or none",
                        "expected from 1 ps to 9.2e6 s, or none");
}

std::string time_limit_text(uint64_t ps) {
  for (auto it = std::rbegin(k_units); it != std::rend(k_units); ++it) {
    if (double(ps) >= it->second) return number_text(double(ps) / it->second) + " " + it->first;
  }
  return std::to_string(ps) + " ps";
}

}  // namespace ohmvp
