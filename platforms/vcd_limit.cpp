#include "platforms/vcd_limit.h"

#include <iterator>
#include <sstream>
#include <utility>

#include <systemc>

#include "modules/common/errors.h"
#include "modules/common/vcd_writer.h"
#include "platforms/quantity_text.h"

namespace ohmvp {

namespace {

constexpr QuantityUnit k_units[] = {
    {"B", 1.0},         {"kB", 1e3},           {"MB", 1e6},
    {"GB", 1e9},        {"TB", 1e12},          {"KiB", 1024.0},
    {"MiB", 1048576.0}, {"GiB", 1073741824.0}, {"TiB", 1099511627776.0}};

// The units messages use, largest first.
constexpr std::pair<const char*, uint64_t> k_binary_units[] = {{"TiB", uint64_t{1} << 40},
                                                               {"GiB", uint64_t{1} << 30},
                                                               {"MiB", uint64_t{1} << 20},
                                                               {"KiB", uint64_t{1} << 10}};
constexpr std::pair<const char*, uint64_t> k_decimal_units[] = {
    {"TB", 1'000'000'000'000}, {"GB", 1'000'000'000}, {"MB", 1'000'000}, {"kB", 1'000}};

}  // namespace

uint64_t parse_vcd_limit_bytes(const std::string& text) {
  return parse_quantity(text, k_units, std::size(k_units),
                        "expected a size and its unit (B, kB, MB, GB, TB, KiB, MiB, GiB or TiB) "
                        "such as 500MB, or none",
                        "expected from 1 B to 8 EiB, or none");
}

std::string vcd_limit_text(uint64_t bytes) {
  // In the units it was most likely given in: a whole number of decimal units stays decimal.
  for (const auto& [name, size] : k_decimal_units)
    if (bytes >= size && bytes % size == 0) return std::to_string(bytes / size) + " " + name;
  for (const auto& [name, size] : k_binary_units)
    if (bytes >= size) return number_text(double(bytes) / double(size)) + " " + name;
  return std::to_string(bytes) + " B";
}

std::string vcd_full_text(const std::string& file, uint64_t limit_bytes) {
  return "the VCD " + file + " reached its size limit of " + vcd_limit_text(limit_bytes) +
         " (--vcd-limit)";
}

std::string vcd_stopped_text(const std::string& file, const VcdWriter& vcd) {
  std::ostringstream text;
  text << vcd_full_text(file, vcd.size_limit()) << " at "
       << sc_core::sc_time::from_value(vcd.full_at()) << " simulated";
  return text.str();
}

}  // namespace ohmvp
