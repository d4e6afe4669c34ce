#include "modules/gpu/l2_slice_config.h"

#include "modules/common/config_reader.h"

namespace ohmvp::gpu {

void parse(const ConfigReader& reader, L2SliceConfig& c) {
  reader.get("size_bytes", c.cache.size_bytes, uint64_t{1024}, uint64_t{1} << 32);
  reader.get("ways", c.cache.ways, 1u, 64u);
  reader.get("line_bytes", c.cache.line_bytes, 16u, 1024u);
  reader.get("sector_bytes", c.cache.sector_bytes, 4u, 1024u);
  reader.get("hit_latency", c.hit_latency, 1u, 10000u);
  reader.get("mshr_entries", c.mshr_entries, 1u, 1024u);
  reader.get("max_merges", c.max_merges, 0u, 1024u);
  std::string key;
  const std::string problem = c.cache.problem(&key);
  if (!problem.empty()) reader.fail(key, problem);
  reader.finish();
}

}  // namespace ohmvp::gpu
