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
  bool refresh = true;
  AddressMappingConfig address_mapping;
};

void parse(const ConfigReader& reader, ControllerConfig& config);

}  // namespace ohmvp
