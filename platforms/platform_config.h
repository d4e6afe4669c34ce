#pragma once

#include <optional>
#include <string>

#include "modules/gpu/gpu_config.h"
#include "modules/interconnect/electrical_channel.h"
#include "modules/interconnect/pcie_link.h"
#include "modules/memory/controller_config.h"
#include "modules/memory/dram_config.h"

namespace ohmvp {

class ConfigDocument;

// The memory system behind the GPU (for now, behind the traffic initiator): N identical
// channels, each a controller, an electrical channel and its DRAM.
struct MemorySystemConfig {
  uint32_t channels = 1;
  uint64_t interleave_bytes = 256;
  ControllerConfig controller;
  ElectricalChannelConfig channel;
  DramGeometry geometry;
  DramTimingNs timing;

  DramTiming timing_cycles() const;
  uint32_t burst_bytes() const { return channel.bus_bytes() * geometry.burst_length; }
  uint64_t capacity_bytes() const {
    return uint64_t(geometry.total_banks()) * geometry.rows * geometry.columns *
           channel.bus_bytes() * channels;
  }
};

struct PlatformConfig {
  std::string name;
  std::string description;
  std::string default_workload = "stream_read";
  MemorySystemConfig memory;
  // Present on GPU platforms (a "gpu" section); memory-only platforms run traffic and traces.
  std::optional<gpu::GpuConfig> gpu;
  PcieLinkConfig pcie;  // "host": {"pcie": {...}}
};

// Parses and validates the whole resolved platform document; unknown keys are errors.
PlatformConfig parse_platform(const ConfigDocument& document);

}  // namespace ohmvp
