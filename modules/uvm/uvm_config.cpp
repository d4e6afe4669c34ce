#include "modules/uvm/uvm_config.h"

#include "modules/common/config_reader.h"
#include "modules/common/power_of_two.h"

namespace ohmvp {

void parse(const ConfigReader& reader, UvmConfig& config) {
  reader.get("page_bytes", config.page_bytes, uint64_t{256}, uint64_t{1} << 30);
  reader.get("chunk_bytes", config.chunk_bytes, uint64_t{256}, uint64_t{1} << 40);
  reader.get("gpu_memory_bytes", config.gpu_memory_bytes, uint64_t{0}, uint64_t{1} << 50);
  reader.get("fault_batch_size", config.fault_batch_size, 1u, 1u << 20);
  reader.get("fault_service_ns", config.fault_service_ns, 0.001, 1e9);
  reader.get_enum("replay_policy", config.replay_policy,
                  {{"batch", ReplayPolicy::batch}, {"block", ReplayPolicy::block}});
  reader.get("prefetch_threshold_percent", config.prefetch_threshold_percent, 0u, 100u);
  reader.get("reserve_chunks", config.reserve_chunks, 0u, 1u << 20);
  reader.get("harvest", config.harvest);
  reader.get("harvesters", config.harvesters, 1u, 15u);
  reader.get("parallel_fetch", config.parallel_fetch);
  reader.get("harvest_bytes", config.harvest_bytes, uint64_t{0}, uint64_t{1} << 50);
  reader.get("multi_path_chunks", config.multi_path_chunks, 0u, 4096u);
  reader.get("multi_path_stride", config.multi_path_stride, 1u, 4096u);
  reader.finish();
  if (!is_power_of_two(config.page_bytes))
    reader.fail("page_bytes",
                "is " + std::to_string(config.page_bytes) + "; expected a power of two");
  if (!is_power_of_two(config.chunk_bytes) || config.chunk_bytes < config.page_bytes)
    reader.fail("chunk_bytes", "is " + std::to_string(config.chunk_bytes) +
                                   "; expected a power of two of at least page_bytes (" +
                                   std::to_string(config.page_bytes) + ")");
  const std::string chunk_path = reader.path() + ".chunk_bytes";
  const std::string one_chunk = " or at least one chunk (" + std::to_string(config.chunk_bytes) +
                                " bytes, " + chunk_path + ")";
  if (config.gpu_memory_bytes != 0 && config.gpu_memory_bytes < config.chunk_bytes)
    reader.fail_against(
        "gpu_memory_bytes", chunk_path,
        "is " + std::to_string(config.gpu_memory_bytes) + "; expected 0 (no limit)" + one_chunk);
  if (config.harvest_bytes != 0 && config.harvest_bytes < config.chunk_bytes)
    reader.fail_against("harvest_bytes", chunk_path,
                        "is " + std::to_string(config.harvest_bytes) +
                            "; expected 0 (what the neighbour has free)" + one_chunk);
  // memHarvester's options would be ignored without harvesting (parallel_fetch: PlatformConfig).
  const UvmConfig defaults;
  const struct {
    const char* key;
    bool set;
    const char* what;
  } harvest_only[] = {
      {"harvesters", config.harvesters != defaults.harvesters, "the GPUs that harvest"},
      {"harvest_bytes", config.harvest_bytes != defaults.harvest_bytes,
       "what a yielding GPU lends"},
      {"multi_path_chunks", config.multi_path_chunks != defaults.multi_path_chunks,
       "the multi-path prefetcher moves chunks to the yielding GPUs"}};
  for (const auto& option : harvest_only)
    if (option.set && !config.harvest)
      reader.fail_against(option.key, reader.path() + ".harvest",
                          std::string("only with harvest true (") + option.what + ")");
  if (config.multi_path_stride != defaults.multi_path_stride && config.multi_path_chunks == 0)
    reader.fail_against("multi_path_stride", reader.path() + ".multi_path_chunks",
                        "only with multi_path_chunks above 0 (the multi-path prefetcher is off)");
}

}  // namespace ohmvp
