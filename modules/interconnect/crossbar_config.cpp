#include "modules/interconnect/crossbar_config.h"

#include "modules/common/config_reader.h"

namespace ohmvp {

void parse(const ConfigReader& reader, CrossbarConfig& c) {
  reader.get("latency", c.latency, 0u, 10000u);
  reader.get("bytes_per_cycle", c.bytes_per_cycle, 1u, 4096u);
  reader.get("queue_depth", c.queue_depth, 1u, 1024u);
  reader.finish();
}

}  // namespace ohmvp
