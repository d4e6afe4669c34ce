#pragma once

#include <optional>
#include <string>

#include "modules/gpu/gpu_config.h"
#include "modules/interconnect/electrical_channel.h"
#include "modules/interconnect/nvlink_fabric.h"
#include "modules/interconnect/pcie_link.h"
#include "modules/memory/controller_config.h"
#include "modules/memory/dram_config.h"
#include "modules/memory/hetero_config.h"
#include "modules/optical/dual_route_mode.h"
#include "modules/optical/energy_model.h"
#include "modules/optical/ohm_platform.h"
#include "modules/optical/optical_config.h"
#include "modules/uvm/uvm_config.h"
#include "modules/xpoint/xpoint_config.h"

namespace ohmvp {

class ConfigDocument;

// What each channel holds: DRAM only, or DRAM and XPoint behind a heterogeneous-memory manager
// in planar or two-level mode, or DRAM paging a larger space in host memory over PCIe
// (docs/hetero_memory.md).
enum class MemoryMode { dram, planar, two_level, paged };

// What carries each channel's data (memory.channel.type): electrical wires, or one virtual
// channel of the optical memory channel (memory.optical) per memory controller.
enum class ChannelType { electrical, optical };

// The memory system behind the GPU or the traffic initiator: N identical channels, each a
// controller, an electrical channel and its DRAM, and in a hetero mode a manager in front of the
// controller and an XPoint controller beside it.
struct MemorySystemConfig {
  MemoryMode mode = MemoryMode::dram;
  uint32_t channels = 1;
  uint64_t interleave_bytes = 256;
  ControllerConfig controller;
  ChannelType channel_type = ChannelType::electrical;
  // Electrical: the wires. Optical: unused (the DRAM's width is optical_device_lanes).
  ElectricalChannelConfig channel;
  // Optical only ("memory.optical"): the waveguides, one virtual channel per controller.
  OpticalChannelConfig optical;
  // Optical only: the DRAM device's data pins behind its SerDes (memory.channel.device_lanes);
  // they set the column width, as an electrical channel's lanes do.
  uint32_t optical_device_lanes = 32;
  // Optical only: whose MRR layout and functions the channel has (memory.channel.ohm_platform).
  OhmPlatform ohm_platform = OhmPlatform::ohm_base;
  // "memory.energy" (optional): the energy model's figures for the summary's energy_j.
  EnergyConfig energy;
  DramGeometry geometry;
  DramTimingNs timing;
  // Hetero modes only ("hetero" and "xpoint" sections; paged: "hetero" and "host_memory");
  // hetero.mode follows `mode`.
  HeteroConfig hetero;
  XPointConfig xpoint;
  // Paged mode: host memory per channel, the address space the channel exposes.
  uint64_t host_memory_kib = 0;
  // Paged mode: the platform's host PCIe link ("host": {"pcie": ...}), which the pages cross.
  PcieLinkConfig host_link;

  bool is_hetero() const { return mode != MemoryMode::dram; }
  bool is_paged() const { return mode == MemoryMode::paged; }
  // XPoint, or in paged mode host memory: what lies behind DRAM in one channel.
  uint64_t far_bytes_per_channel() const {
    return is_paged() ? host_memory_kib << 10 : xpoint.capacity_bytes();
  }
  bool is_optical() const { return channel_type == ChannelType::optical; }
  // How the optical channel's memory route shares the light, when the platform's functions use
  // one (SWAP-CMD, reverse write); none otherwise.
  std::optional<DualRouteMode> memory_route() const;
  // The mode whose Ohm functions and optical routes the channel's layout serves: two-level, or
  // planar for every other memory mode (without XPoint only ohm_base is allowed, whose routes
  // are the data routes in either).
  HeteroMode optical_mode() const {
    return mode == MemoryMode::two_level ? HeteroMode::two_level : HeteroMode::planar;
  }
  DramTiming timing_cycles() const;
  // The key under memory that sets bus_bytes(): "channel.lanes" or "channel.device_lanes".
  const char* bus_width_key() const {
    return is_optical() ? "channel.device_lanes" : "channel.lanes";
  }
  // Bytes per DRAM column: the electrical lanes, or the DRAM's pins behind the optical SerDes.
  uint32_t bus_bytes() const {
    return is_optical() ? optical_device_lanes / 8 : channel.bus_bytes();
  }
  // Time `bytes` hold one channel's data path: the wires, or the virtual channel's wavelengths.
  double burst_ns(uint32_t bytes) const;
  // Empty, or why the channels cannot carry their rate: a burst that is not a whole number of
  // DRAM clocks is rounded up to the next (docs/memory.md, "Clock rounding").
  std::string burst_rounding_warning() const;
  // Peak data bandwidth of all channels, GB/s (bytes per ns).
  double peak_gb_per_s() const;
  uint32_t burst_bytes() const { return bus_bytes() * geometry.burst_length; }
  uint64_t dram_bytes_per_channel() const {
    return uint64_t(geometry.total_banks()) * geometry.rows * geometry.columns * bus_bytes();
  }
  // The address space one channel exposes (hetero: the manager's, see check_capacities).
  uint64_t channel_capacity_bytes() const;
  // The longest single operation of the memory, ps: a DRAM timing parameter (the refresh
  // interval aside), an XPoint media access, a page fault's service.
  uint64_t longest_operation_ps() const;
  uint64_t capacity_bytes() const { return channel_capacity_bytes() * channels; }
  // What makes up capacity_bytes() and the keys that set it, for messages: "2 channels x 1073741824
  // bytes of DRAM (memory.channels, memory.dram.geometry)".
  std::string capacity_text() const;
};

struct PlatformConfig {
  std::string name;
  std::string description;
  std::string default_workload = "stream_read";
  MemorySystemConfig memory;
  // Present on GPU platforms (a "gpu" section); memory-only platforms run traffic and traces.
  std::optional<gpu::GpuConfig> gpu;
  PcieLinkConfig pcie;  // "host": {"pcie": {...}}
  UvmConfig uvm;        // "uvm": the unified-memory driver of managed allocations
  // "multi_gpu": GPUs of the same kind on an NVSwitch. GPU 0 runs the kernels; the others lend
  // their spare memory to its UVM driver (uvm.harvest).
  uint32_t gpus = 1;
  NvlinkConfig nvlink;
};

// Parses and validates the whole resolved platform document; unknown keys are errors.
PlatformConfig parse_platform(const ConfigDocument& document);

}  // namespace ohmvp
