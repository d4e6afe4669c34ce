#include "modules/memory/controller_config.h"

#include "modules/common/config_reader.h"

namespace ohmvp {

void parse(const ConfigReader& reader, ControllerConfig& c) {
  reader.get_enum("scheduler", c.scheduler,
                  {{"fr_fcfs", SchedulerKind::fr_fcfs}, {"fcfs", SchedulerKind::fcfs}});
  reader.get_enum("page_policy", c.page_policy,
                  {{"open", PagePolicyKind::open},
                   {"closed", PagePolicyKind::closed},
                   {"adaptive", PagePolicyKind::adaptive}});
  reader.get("read_queue", c.read_queue, 1u, 1024u);
  reader.get("write_queue", c.write_queue, 1u, 1024u);
  reader.get("write_high_watermark", c.write_high_watermark, 1u, 1024u);
  reader.get("write_low_watermark", c.write_low_watermark, 0u, 1024u);
  reader.get("min_writes_per_switch", c.min_writes_per_switch, 1u, 1024u);
  reader.get("min_reads_per_switch", c.min_reads_per_switch, 1u, 1024u);
  reader.get("row_hit_cap", c.row_hit_cap, 1u, 1024u);
  reader.get("refresh", c.refresh);
  parse(reader.child("address_mapping"), c.address_mapping);
  reader.finish();
  // Checked whether or not the keys are given: a default can clash with a configured queue.
  if (c.write_high_watermark > c.write_queue) {
    reader.fail_against("write_high_watermark", reader.path() + ".write_queue",
                        "expected at most write_queue (" + std::to_string(c.write_queue) +
                            "), got " + std::to_string(c.write_high_watermark));
  }
  if (c.write_low_watermark >= c.write_high_watermark) {
    reader.fail_against("write_low_watermark", reader.path() + ".write_high_watermark",
                        "expected less than write_high_watermark (" +
                            std::to_string(c.write_high_watermark) + "), got " +
                            std::to_string(c.write_low_watermark));
  }
}

}  // namespace ohmvp
