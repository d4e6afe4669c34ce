#pragma once

#include <cstdint>
#include <string>

#include "modules/memory/counter_decay.h"
#include "modules/memory/hot_page_policy.h"
#include "modules/memory/migration_issue_policy.h"
#include "modules/memory/page_mapping_table.h"

namespace ohmvp {

class ConfigReader;

enum class HeteroMode { planar, two_level, paged };
// The mode's name in configs: "planar", "two_level", "paged".
const char* to_string(HeteroMode mode);

// The heterogeneous-memory manager: one address space over a DRAM controller and an XPoint
// controller (DDR-T), in planar or two-level mode, or (paged mode, the Origin platform) over DRAM
// and host memory behind PCIe. The capacities come from the DRAM and XPoint (or host memory)
// configurations; the ratio is checked when the manager is built (check_capacities).
struct HeteroConfig {
  HeteroMode mode = HeteroMode::planar;
  // Planar: bytes per page, the unit of the mapping table and of a swap. Paged: the unit of a
  // fault, a DRAM frame and a PCIe transfer.
  uint32_t page_bytes = 4096;
  // Planar: which pages share a group, and so compete for its DRAM page (PageMappingTable).
  PageGrouping page_groups = PageGrouping::interleaved;
  // Front requests inside the manager at once; one more waits (END_REQ held back).
  uint32_t max_requests = 64;
  // Planar: swaps in flight at once. Paged: page faults in flight at once.
  uint32_t max_migrations = 1;
  // Paged: time from a fault to the start of its page's transfer (fault handling on the host).
  double fault_ns = 45000.0;
  // Auto-read/write (Ohm-GPU's Auto-rw and later): the XPoint controller snarfs DRAM bursts it
  // sees on the channel and writes XPoint from them itself, so data moving from DRAM to XPoint
  // crosses the channel once (planar swaps; two-level dirty write-backs).
  bool auto_rw = false;
  // SWAP-CMD (Ohm-WOM and Ohm-BW, planar): the controller presets the DRAM page's banks and
  // sends one SWAP-CMD; the XPoint controller's DDR sequence generator moves both pages over the
  // optical channel's memory route while the controller serves other requests.
  bool swap_cmd = false;
  // Reverse write (Ohm-WOM and Ohm-BW, two-level): a miss's fill goes from XPoint into DRAM
  // over the memory route, and the controller's DDR monitor snarfs it to answer the request.
  bool reverse_write = false;
  // Planar: when a swap's transfers go out (MigrationIssuePolicy).
  MigrationIssueKind migration_issue = MigrationIssueKind::immediate;
  // DDR-T tags: requests outstanding towards the XPoint controller.
  uint32_t ddr_t_tags = 64;
  // Base-protocol transactions outstanding towards the DRAM controller.
  uint32_t dram_slots = 64;
  // Time one 64-byte burst holds the channel's data bus (DDR-T data transfers are timed with
  // it; the channel-time statistics split by it). DDR4-2400 x64: 8 beats at 2400 MT/s.
  double burst_ns = 3.332;
  // The register buffer at the XPoint end of the optical channel, which SWAP-CMD and reverse
  // write move their data through (XPointEndBuffer). Not a memory.hetero key: the platform sets
  // it from memory.optical.serdes.buffer_bytes.
  uint32_t register_buffer_bytes = 16 * 1024;
  HotPageConfig hot_page;
  CounterDecayConfig decay;
};

void parse(const ConfigReader& reader, HotPageConfig& config);
void parse(const ConfigReader& reader, CounterDecayConfig& config);
void parse(const ConfigReader& reader, HeteroConfig& config);

// How the two capacities combine in the configured mode; throws ConfigError naming `where`
// when they do not fit it (planar: XPoint a whole multiple 1..255 of DRAM, whole pages;
// two-level: XPoint a multiple 1..64 of DRAM, so the tag fits the 6 metadata bits; paged: host
// memory and DRAM whole pages, host memory at least as large as DRAM).
struct HeteroLayout {
  uint64_t dram_bytes = 0;
  uint64_t xpoint_bytes = 0;            // paged: host memory
  uint64_t capacity_bytes = 0;          // the address space the manager exposes
  uint32_t xpoint_pages_per_group = 0;  // planar: k
  uint64_t groups = 0;                  // planar
  uint32_t tag_bits = 0;                // two-level
  uint32_t frames = 0;                  // paged: DRAM frames of page_bytes
};
HeteroLayout check_capacities(const HeteroConfig& config, uint64_t dram_bytes,
                              uint64_t xpoint_bytes, const char* where);

// Why two capacities do not fit the mode (both named in `text`), or an empty `text` when they
// do; `pages` when the problem is a capacity that is not whole pages of page_bytes.
struct CapacityProblem {
  std::string text;
  bool pages = false;
};
CapacityProblem capacity_problem(const HeteroConfig& config, uint64_t dram_bytes,
                                 uint64_t xpoint_bytes);

}  // namespace ohmvp
