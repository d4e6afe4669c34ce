#include "modules/memory/hetero_config.h"

#include <cstdint>
#include <string>

#include "modules/common/config_reader.h"
#include "modules/common/errors.h"

namespace ohmvp {

void parse(const ConfigReader& reader, HotPageConfig& c) {
  reader.get_enum(
      "policy", c.kind,
      {{"threshold", HotPageKind::threshold}, {"beats_resident", HotPageKind::beats_resident}});
  reader.get("threshold", c.threshold, 1u, 65535u);
  reader.get("margin", c.margin, 0u, 65535u);
  reader.finish();
}

void parse(const ConfigReader& reader, CounterDecayConfig& c) {
  reader.get_enum("policy", c.kind,
                  {{"none", CounterDecayKind::none},
                   {"halve", CounterDecayKind::halve},
                   {"reset", CounterDecayKind::reset}});
  reader.get("interval", c.interval, 1u, 1u << 30);
  reader.finish();
}

const char* to_string(HeteroMode mode) {
  switch (mode) {
    case HeteroMode::planar:
      return "planar";
    case HeteroMode::two_level:
      return "two_level";
    case HeteroMode::paged:
      return "paged";
  }
  return "?";
}

namespace {

constexpr uint8_t in(HeteroMode mode) {
  return static_cast<uint8_t>(1u << static_cast<unsigned>(mode));
}

// A key the mode has no use for is an error, not a setting that silently does nothing.
void check_mode_keys(const ConfigReader& reader, HeteroMode mode) {
  constexpr uint8_t planar = in(HeteroMode::planar);
  constexpr uint8_t two_level = in(HeteroMode::two_level);
  constexpr uint8_t paged = in(HeteroMode::paged);
  struct Use {
    const char* key;
    uint8_t modes;
    const char* which;
  };
  static constexpr Use uses[] = {
      {"page_groups", planar, "planar mode"},
      {"hot_page", planar, "planar mode"},
      {"decay", planar, "planar mode"},
      {"migration_issue", planar, "planar mode"},
      {"swap_cmd", planar, "planar mode (swaps move pages)"},
      {"reverse_write", two_level, "two-level mode (fills of the DRAM cache)"},
      {"fault_ns", paged, "paged mode"},
      {"max_migrations", planar | paged, "planar and paged modes"},
      {"auto_rw", planar | two_level, "planar and two-level modes"},
      {"ddr_t_tags", planar | two_level, "planar and two-level modes"},
  };
  for (const Use& use : uses) {
    if (reader.has(use.key) && (use.modes & in(mode)) == 0) {
      reader.fail(use.key, std::string("used only in ") + use.which + ", and mode is '" +
                               to_string(mode) + "'");
    }
  }
}

}  // namespace

void parse(const ConfigReader& reader, HeteroConfig& c) {
  reader.get_enum("mode", c.mode,
                  {{"planar", HeteroMode::planar},
                   {"two_level", HeteroMode::two_level},
                   {"paged", HeteroMode::paged}});
  check_mode_keys(reader, c.mode);
  reader.get("page_bytes", c.page_bytes, 64u, 1u << 20);
  if (c.page_bytes % 64 != 0 || (c.page_bytes & (c.page_bytes - 1)) != 0) {
    reader.fail("page_bytes",
                "expected a power of two, at least 64, got " + std::to_string(c.page_bytes));
  }
  reader.get_enum(
      "page_groups", c.page_groups,
      {{"contiguous", PageGrouping::contiguous}, {"interleaved", PageGrouping::interleaved}});
  reader.get("max_requests", c.max_requests, 1u, 4096u);
  reader.get("max_migrations", c.max_migrations, 1u, 64u);
  reader.get("fault_ns", c.fault_ns, 0.0, 1e9);
  reader.get("auto_rw", c.auto_rw);
  reader.get("swap_cmd", c.swap_cmd);
  reader.get("reverse_write", c.reverse_write);
  reader.get_enum("migration_issue", c.migration_issue,
                  {{"immediate", MigrationIssueKind::immediate},
                   {"with_writes", MigrationIssueKind::with_writes}});
  reader.get("ddr_t_tags", c.ddr_t_tags, 1u, 65536u);
  reader.get("dram_slots", c.dram_slots, 1u, 4096u);
  reader.get("burst_ns", c.burst_ns, 0.001, 1000.0);
  parse(reader.child("hot_page"), c.hot_page);
  parse(reader.child("decay"), c.decay);
  reader.finish();
}

CapacityProblem capacity_problem(const HeteroConfig& c, uint64_t dram_bytes,
                                 uint64_t xpoint_bytes) {
  const auto problem = [&](const std::string& text, bool pages) {
    return CapacityProblem{text + " (DRAM " + std::to_string(dram_bytes) + " bytes, " +
                               (c.mode == HeteroMode::paged ? "host memory " : "XPoint ") +
                               std::to_string(xpoint_bytes) + " bytes)",
                           pages};
  };
  if (c.mode == HeteroMode::paged) {
    if (dram_bytes % c.page_bytes != 0 || xpoint_bytes % c.page_bytes != 0) {
      return problem("paged mode needs DRAM and host memory to hold whole pages of " +
                         std::to_string(c.page_bytes) + " bytes",
                     true);
    }
    if (dram_bytes == 0 || xpoint_bytes < dram_bytes)
      return problem("paged mode needs host memory at least as large as DRAM", false);
    if (dram_bytes / c.page_bytes > UINT32_MAX)
      return problem("paged mode numbers a channel's DRAM frames in 32 bits: expected at most " +
                         std::to_string(UINT32_MAX) + " pages of " + std::to_string(c.page_bytes) +
                         " bytes",
                     true);
    return {};
  }
  if (dram_bytes == 0 || xpoint_bytes % dram_bytes != 0)
    return problem("expected an XPoint capacity that is a whole multiple of the DRAM capacity",
                   false);
  const uint64_t ratio = xpoint_bytes / dram_bytes;
  if (c.mode == HeteroMode::planar) {
    if (ratio < 1 || ratio > 255)
      return problem("planar mode needs XPoint:DRAM between 1 and 255", false);
    if (dram_bytes % c.page_bytes != 0) {
      return problem("planar mode needs DRAM to hold whole pages of " +
                         std::to_string(c.page_bytes) + " bytes",
                     true);
    }
  } else if (ratio < 1 || ratio > (uint64_t{1} << 6)) {
    return problem(
        "two-level mode needs XPoint:DRAM between 1 and 64 (the tag has 6 metadata bits)", false);
  }
  return {};
}

HeteroLayout check_capacities(const HeteroConfig& c, uint64_t dram_bytes, uint64_t xpoint_bytes,
                              const char* where) {
  if (const CapacityProblem p = capacity_problem(c, dram_bytes, xpoint_bytes); !p.text.empty())
    throw ConfigError(std::string(where) + ": " + p.text);
  HeteroLayout layout;
  layout.dram_bytes = dram_bytes;
  layout.xpoint_bytes = xpoint_bytes;
  if (c.mode == HeteroMode::paged) {
    layout.frames = static_cast<uint32_t>(dram_bytes / c.page_bytes);
    layout.capacity_bytes = xpoint_bytes;
    return layout;
  }
  const uint64_t ratio = xpoint_bytes / dram_bytes;
  if (c.mode == HeteroMode::planar) {
    layout.xpoint_pages_per_group = static_cast<uint32_t>(ratio);
    layout.groups = dram_bytes / c.page_bytes;
    layout.capacity_bytes = dram_bytes + xpoint_bytes;
  } else {
    uint32_t bits = 0;
    while ((uint64_t{1} << bits) < ratio) ++bits;
    layout.tag_bits = bits;
    layout.capacity_bytes = xpoint_bytes;
  }
  return layout;
}

}  // namespace ohmvp
