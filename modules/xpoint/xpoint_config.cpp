#include "modules/xpoint/xpoint_config.h"

#include <cmath>
#include <string>

#include "modules/common/config_reader.h"
#include "modules/common/power_of_two.h"

namespace ohmvp {

namespace {

uint32_t cycles(double ns, double clock_ns) {
  const double exact = ns / clock_ns;
  const double nearest = std::round(exact);
  if (std::abs(exact - nearest) <= 1e-3 * std::max(1.0, nearest)) {
    return static_cast<uint32_t>(nearest);
  }
  return static_cast<uint32_t>(std::ceil(exact));
}

}  // namespace

XPointTiming to_cycles(const XPointConfig& c) {
  XPointTiming t;
  t.tCK_ps = static_cast<uint64_t>(std::llround(c.clock_ns * 1000.0));
  // Against the clock the model runs (whole ps), so that no media time comes out shorter.
  const double tck_ns = static_cast<double>(t.tCK_ps) / 1000.0;
  t.read = cycles(c.read_ns, tck_ns);
  t.write = cycles(c.write_ns, tck_ns);
  t.crossing = c.crossing_cycles;
  t.buffer = c.buffer_cycles;
  return t;
}

void parse(const ConfigReader& reader, StartGapConfig& c) {
  reader.get("enabled", c.enabled);
  reader.get("psi", c.psi, 1u, 1'000'000u);
  reader.get("region_lines", c.region_lines, uint64_t{1}, uint64_t{1} << 32);
  reader.get("randomise", c.randomise);
  reader.get("seed", c.seed);
  reader.finish();
}

void parse(const ConfigReader& reader, XPointConfig& c) {
  reader.get("capacity_kib", c.capacity_kib, uint64_t{1}, uint64_t{1} << 32);
  reader.get("clock_ns", c.clock_ns, 0.1, 100.0);
  reader.get("crossing_cycles", c.crossing_cycles, 0u, 64u);
  reader.get("buffer_cycles", c.buffer_cycles, 1u, 64u);
  reader.get("read_buffer_entries", c.read_buffer_entries, 1u, 4096u);
  reader.get("write_buffer_entries", c.write_buffer_entries, 1u, 4096u);
  reader.get("write_credits", c.write_credits, 1u, 4096u);
  reader.get("partitions", c.partitions, 1u, 1024u);
  reader.get("read_ns", c.read_ns, 1.0, 1e6);
  reader.get("write_ns", c.write_ns, 1.0, 1e6);
  reader.get("line_bytes", c.line_bytes, 64u, 4096u);
  parse(reader.child("start_gap"), c.start_gap);
  reader.get("endurance_writes", c.endurance_writes, uint64_t{1}, uint64_t{1} << 50);
  reader.get("ecc", c.ecc);
  parse(reader.child("fault_injection"), c.fault_injection);
  reader.finish();
  if (!is_power_of_two(c.line_bytes)) {
    reader.fail("line_bytes",
                "expected a power of two (64 to 4096), got " + std::to_string(c.line_bytes));
  }
  if (c.capacity_bytes() % c.line_bytes != 0) {
    reader.fail("capacity_kib", "expected whole media lines of " + std::to_string(c.line_bytes) +
                                    " bytes, got " + std::to_string(c.capacity_kib) + " KiB");
  }
  if (c.start_gap.enabled && c.lines() % c.start_gap.region_lines != 0) {
    reader.fail_against(
        "start_gap.region_lines",
        std::vector<std::string>{reader.path() + ".capacity_kib", reader.path() + ".line_bytes"},
        std::to_string(c.start_gap.region_lines) + " must divide the " + std::to_string(c.lines()) +
            " lines of capacity_kib * 1024 / line_bytes");
  }
}

}  // namespace ohmvp
