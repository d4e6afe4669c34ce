#pragma once

#include <cstdint>

#include "modules/memory/address_mapper.h"
#include "modules/memory/page_policy.h"
#include "modules/memory/scheduler.h"

namespace ohmvp {

class ConfigReader;

struct ControllerConfig {
  SchedulerKind scheduler = SchedulerKind::fr_fcfs;
  PagePolicyKind page_policy = PagePolicyKind::open;
  uint32_t read_queue = 32;
  uint32_t write_queue = 32;
  // Writes are drained when the write queue reaches the high watermark, until it is down to
  // the low one (or earlier, whenever no read is waiting).
  uint32_t write_high_watermark = 24;
  uint32_t write_low_watermark = 8;
  // A write drain turns back to waiting reads after this many writes, and the watermark turns
  // it to writes only after this many reads (or none waits): neither direction starves the
  // other (gem5 MemCtrl's min_writes_per_switch and min_reads_per_switch, 16 each).
  uint32_t min_writes_per_switch = 16;
  uint32_t min_reads_per_switch = 16;
  // FR-FCFS: row hits that may go ahead of an older request to another row of their bank.
  uint32_t row_hit_cap = 16;
  bool refresh = true;
  AddressMappingConfig address_mapping;
};

void parse(const ConfigReader& reader, ControllerConfig& config);

}  // namespace ohmvp
