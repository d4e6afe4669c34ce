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
  reader.get("write_high_watermark", c.write_high_watermark, 1u, c.write_queue);
  reader.get("write_low_watermark", c.write_low_watermark, 0u, c.write_high_watermark - 1);
  reader.get("refresh", c.refresh);
  parse(reader.child("address_mapping"), c.address_mapping);
  reader.finish();
}

}  // namespace ohmvp
