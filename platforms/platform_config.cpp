#include "platforms/platform_config.h"

#include "modules/common/config_document.h"
#include "modules/common/config_reader.h"

namespace ohmvp {

DramTiming MemorySystemConfig::timing_cycles() const {
  return to_cycles(timing, channel.burst_ns(burst_bytes()));
}

uint64_t MemorySystemConfig::channel_capacity_bytes() const {
  if (!is_hetero()) return dram_bytes_per_channel();
  return check_capacities(hetero, dram_bytes_per_channel(), far_bytes_per_channel(), "memory")
      .capacity_bytes;
}

static void parse_hetero(const ConfigReader& reader, MemorySystemConfig& m) {
  if (!m.is_hetero()) {
    for (const char* key : {"hetero", "xpoint"}) {
      if (reader.has(key)) {
        reader.fail(key, "only with \"mode\": \"planar\", \"two_level\" or \"paged\"");
      }
    }
  }
  if (!m.is_paged() && reader.has("host_memory")) {
    reader.fail("host_memory", "only with \"mode\": \"paged\"");
  }
  if (!m.is_hetero()) return;
  const HeteroMode mode = m.mode == MemoryMode::planar      ? HeteroMode::planar
                          : m.mode == MemoryMode::two_level ? HeteroMode::two_level
                                                            : HeteroMode::paged;
  m.hetero.mode = mode;
  const ConfigReader hetero = reader.child("hetero");
  const double burst_ns = m.channel.burst_ns(64);
  if (hetero.has("burst_ns")) {
    hetero.fail("burst_ns", "nothing: a platform takes it from the channel (" +
                                std::to_string(burst_ns) + " ns per 64-byte burst)");
  }
  parse(hetero, m.hetero);
  m.hetero.burst_ns = burst_ns;
  if (m.hetero.mode != mode) {
    const char* name = mode == HeteroMode::planar      ? "planar"
                       : mode == HeteroMode::two_level ? "two_level"
                                                       : "paged";
    hetero.fail("mode", "expected the memory mode (\"" + std::string(name) + "\") or nothing");
  }
  if (m.is_paged()) {
    if (reader.has("xpoint")) reader.fail("xpoint", "nothing in paged mode (DRAM and host memory)");
    if (m.hetero.auto_rw) hetero.fail("auto_rw", "false in paged mode (no XPoint to snarf)");
    const ConfigReader host = reader.child("host_memory");
    host.get("capacity_kib", m.host_memory_kib, uint64_t{1}, uint64_t{1} << 32);
    host.finish();
  } else {
    parse(reader.child("xpoint"), m.xpoint);
  }
  // The manager serves requests of at most one 64-byte burst.
  if (m.burst_bytes() != 64) {
    reader.fail("dram", "a hetero mode needs 64-byte DRAM bursts (bus width x burst length), got " +
                            std::to_string(m.burst_bytes()));
  }
  // The capacities must fit the mode; checked here so that a bad pair is reported before a run.
  const std::string where = reader.path().empty() ? "memory" : reader.path();
  check_capacities(m.hetero, m.dram_bytes_per_channel(), m.far_bytes_per_channel(), where.c_str());
}

static void parse_memory(const ConfigReader& reader, MemorySystemConfig& m) {
  reader.get_enum("mode", m.mode,
                  {{"dram", MemoryMode::dram},
                   {"planar", MemoryMode::planar},
                   {"two_level", MemoryMode::two_level},
                   {"paged", MemoryMode::paged}});
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
  parse_hetero(reader, m);
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
  config.memory.host_link = config.pcie;
  root.finish();
  return config;
}

}  // namespace ohmvp
