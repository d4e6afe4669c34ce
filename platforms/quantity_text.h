#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

namespace ohmvp {

// A unit a quantity may be given in, and how many of the smallest unit it is.
using QuantityUnit = std::pair<const char*, double>;

// `text` as a whole number of the smallest unit: a decimal number, optional spaces and one of
// `units` (`5ms`, `2.5 us`), rounded to the nearest; `none` is 0. std::invalid_argument
// "'<text>': <expected>" for another form, "'<text>': <range>" for a quantity below one of the
// smallest unit or above 9.2e18 of it.
uint64_t parse_quantity(const std::string& text, const QuantityUnit* units, size_t unit_count,
                        const std::string& expected, const std::string& range);

}  // namespace ohmvp
