#include "platforms/platform_config.h"

#include "modules/common/config_document.h"
#include "modules/common/config_reader.h"

namespace ohmvp {

DramTiming MemorySystemConfig::timing_cycles() const {
  return to_cycles(timing, channel.burst_ns(burst_bytes()));
}

static void parse_memory(const ConfigReader& reader, MemorySystemConfig& m) {
  reader.get("channels", m.channels, 1u, 64u);
  reader.get("interleave_bytes", m.interleave_bytes, uint64_t{64}, uint64_t{1} << 30);
  parse(reader.child("controller"), m.controller);
  const ConfigReader channel = reader.child("channel");
  std::string type = "electrical";
  channel.get("type", type);
  if (type != "electrical") channel.fail("type", "expected 'electrical'");
  parse(channel, m.channel);
  const ConfigReader dram = reader.child("dram");
  parse(dram.child("geometry"), m.geometry);
  parse(dram.child("timing"), m.timing);
  dram.finish();
  // The mapping must fit the geometry and bus; checking it here reports a bad one before a run
  // writes anything.
  AddressMapper(m.controller.address_mapping, m.geometry, m.channel.bus_bytes(),
                reader.path() + ".controller.address_mapping");
  const uint64_t burst_bytes = m.burst_bytes();
  if (m.interleave_bytes % burst_bytes != 0) {
    reader.fail("interleave_bytes", "expected a multiple of the burst size (" +
                                        std::to_string(burst_bytes) + " bytes)");
  }
  reader.finish();
}

PlatformConfig parse_platform(const ConfigDocument& document) {
  const ConfigReader root(document.json(), "", &document);
  PlatformConfig config;
  const ConfigReader platform = root.child("platform");
  platform.get("name", config.name);
  platform.get("description", config.description);
  platform.get("default_workload", config.default_workload);
  platform.finish();
  if (config.name.empty()) config.name = document.file().stem().string();
  parse_memory(root.child("memory"), config.memory);
  if (root.has("gpu")) {
    const ConfigReader gpu = root.child("gpu");
    config.gpu = gpu::parse_gpu_config(gpu);
    config.gpu->l2.slice_bytes(config.memory.channels, "gpu.l2");
  }
  const ConfigReader host = root.child("host");
  parse(host.child("pcie"), config.pcie);
  host.finish();
  root.finish();
  return config;
}

}  // namespace ohmvp
