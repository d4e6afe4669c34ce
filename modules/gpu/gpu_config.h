#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "modules/gpu/architecture.h"
#include "modules/gpu/ptx/instruction.h"
#include "modules/gpu/simt/fragment_layout.h"

namespace ohmvp {
class ConfigReader;
}

namespace ohmvp::gpu {

// The GPU block of a platform ("gpu" in the platform JSON). The defaults are the shipped small
// preset (configs/gpu/small.json): a Volta SM (Titan V figures) with 4 SMs. docs/gpu_sm.md lists
// every key with its unit and source.

enum class WarpSchedulerPolicy : uint8_t { lrr, gto, two_level };

// The order in which a warp issues a kernel's instructions: nvcc's PTX as written, or with each
// block's loads from beyond the SM, and what computes their addresses, moved up past the
// instructions they do not depend on, as ptxas schedules the SASS (load_hoisting.h).
enum class LoadOrder : uint8_t { as_written, hoisted };

struct WarpSchedulerConfig {
  WarpSchedulerPolicy policy = WarpSchedulerPolicy::gto;
  // two_level only: warps in the active set of each sub-core's scheduler.
  uint32_t active_set_size = 8;
};

// Resource limits of one SM, which bound how many CTAs are resident at once.
struct SmLimits {
  uint32_t max_threads = 2048;
  uint32_t max_warps = 64;
  uint32_t max_ctas = 32;
  uint32_t max_threads_per_cta = 1024;
  uint32_t registers = 65536;  // 32-bit registers in the SM's register file
  // Registers are allocated per warp in units of this many registers.
  uint32_t register_allocation_unit = 256;
  uint32_t max_registers_per_thread = 255;
  uint32_t shared_memory_bytes = 98304;
  uint32_t shared_memory_allocation_unit = 256;
  uint32_t max_shared_memory_per_cta = 98304;
};

// One class of functional unit in each sub-core. `initiation_interval` is the number of cycles
// one unit is busy with a warp instruction of `warp_size` threads (lanes of the unit per
// sub-core = warp_size / initiation_interval); `latency` is the cycles from issue until a
// dependent instruction may issue.
struct UnitTiming {
  uint32_t latency = 4;
  uint32_t initiation_interval = 2;
  uint32_t units_per_sub_core = 1;
};

constexpr size_t k_unit_class_count = 8;
constexpr size_t unit_index(UnitClass unit) {
  return static_cast<size_t>(unit);
}
const char* unit_class_name(UnitClass unit);

struct L1DataCacheConfig {
  uint32_t size_bytes = 32768;
  uint32_t ways = 4;
  uint32_t line_bytes = 128;
  uint32_t sector_bytes = 32;
  uint32_t hit_latency = 24;  // after the ldst unit's latency; see docs/gpu_sm.md
  uint32_t mshr_entries = 256;
  uint32_t mshr_max_merges = 8;

  uint32_t sets() const { return size_bytes / (ways * line_bytes); }
};

struct SharedMemoryConfig {
  uint32_t banks = 32;
  uint32_t bank_width_bytes = 4;
  uint32_t latency = 15;  // after the ldst unit's latency
};

struct L2CacheConfig {
  uint64_t size_bytes = 786432;  // all slices together
  uint32_t ways = 16;
  uint32_t line_bytes = 128;
  uint32_t sector_bytes = 32;
  uint32_t hit_latency = 125;
  uint32_t mshrs_per_slice = 64;
  uint32_t slices_per_channel = 2;  // slices per memory channel (memory partition)

  // Why the size does not divide into whole sets of whole slices with `memory_channels`
  // channels, or none.
  std::optional<std::string> slicing_problem(uint32_t memory_channels) const;
  // Bytes of one slice when the platform has `memory_channels` channels; throws ConfigError
  // (naming `path`) when there is a slicing problem.
  uint64_t slice_bytes(uint32_t memory_channels, const char* path = "gpu.l2") const;
};

// How one wmma.mma 16x16x16 (4096 multiply-adds) of one precision mode runs on a sub-core's
// tensor cores: as `sets` x `steps_per_set` HMMA steps (Raihan, Goli, Aamodt 2019). Step i ends
// `first_step_cycles` (i = 0), `set_switch_cycles` (first step of a later set) or `step_cycles`
// (any other step) after the step before it, plus `set_end_cycles` when it is the last of its
// set and `drain_cycles` when it is the last of all; the last step's end is the latency.
// `fedp_macs_per_cycle` is each FEDP unit's multiply-adds per cycle in this mode, which gives
// how soon the tensor cores take the next wmma.mma. docs/gpu_tensor.md.
struct HmmaModeConfig {
  uint32_t sets = 4;
  uint32_t steps_per_set = 4;
  uint32_t first_step_cycles = 10;
  uint32_t step_cycles = 2;
  uint32_t set_end_cycles = 2;
  uint32_t set_switch_cycles = 2;
  uint32_t drain_cycles = 6;
  uint32_t fedp_macs_per_cycle = 4;
};

// The tensor cores of a sub-core; the defaults are the Titan V's (titanv.json).
struct TensorCoreConfig {
  // Which lanes hold which elements of a wmma fragment, and so the loads a wmma.load issues.
  FragmentMapping fragment_mapping = FragmentMapping::volta;
  uint32_t tensor_cores_per_sub_core = 2;
  uint32_t fedp_per_tensor_core = 16;           // four-element dot-product units
  HmmaModeConfig f16{4, 2, 12, 9, 0, 4, 4, 4};  // FP16: f16 C and D
  HmmaModeConfig f32{4, 4, 10, 2, 2, 2, 6, 4};  // mixed precision: f32 C or D
  // s8/u8 A and B, s32 C and D; sets = 0: no integer mode (Volta).
  HmmaModeConfig s32{0, 1, 1, 1, 0, 1, 0, 1};
  // The 4-bit mode: s4/u4 A and B (m8n8k32), s32 C and D; sets = 0: none (Volta).
  HmmaModeConfig s4{0, 1, 1, 1, 0, 1, 0, 1};
};

struct CrossbarConfig {
  uint32_t latency = 20;  // cycles, one way
  uint32_t bytes_per_cycle_per_port = 32;
};

// The SMs' TLBs for managed pages (modules/gpu/tlb.h); UVMSmart's figures (PARAMETERS.md): 4096
// entries per SM, fully associative, looked up in the cycle a request leaves the L1; a miss
// walks the page table for `page_walk_cycles` core cycles (its figure for 4 KiB pages), walks of
// different pages at once (its multi-threaded walker). entries = 0: translation takes no time.
struct TlbConfig {
  uint32_t entries = 4096;
  uint32_t page_walk_cycles = 100;
};

struct GpuConfig {
  // The architecture's instruction set: a kernel with an instruction it lacks is refused at
  // launch (modules/gpu/architecture.h).
  ComputeCapability compute_capability = ComputeCapability::sm_70;
  uint32_t sm_count = 4;
  double core_clock_mhz = 1455.0;
  uint32_t warp_size = 32;
  uint32_t sub_cores_per_sm = 4;
  // Warp instructions each sub-core's scheduler issues per cycle.
  uint32_t issue_width = 1;
  SmLimits sm;
  WarpSchedulerConfig scheduler;
  LoadOrder load_order = LoadOrder::hoisted;
  std::array<UnitTiming, k_unit_class_count> units = default_units();
  L1DataCacheConfig l1d;
  SharedMemoryConfig shared_memory;
  L2CacheConfig l2;
  CrossbarConfig crossbar;
  TlbConfig tlb;
  TensorCoreConfig tensor;
  uint32_t constant_cache_latency = 4;
  // Grids that may run at once (concurrent kernels of different streams); more wait in order.
  // 128: "maximum number of resident grids per device" for compute capability 7.x in the CUDA C++
  // Programming Guide's technical specifications. 1 runs one kernel at a time.
  uint32_t max_resident_grids = 128;
  // The greatest stream priority (cudaDeviceGetStreamPriorityRange's greatestPriority; the least
  // is 0): -5, the range CUDA reports on compute capability 7.5 and later devices (earlier ones
  // report -1 or -2). 0: the GPU has no stream priorities.
  int greatest_stream_priority = -5;

  const UnitTiming& unit(UnitClass unit) const { return units[unit_index(unit)]; }
  uint64_t core_period_ps() const;
  // Warps resident per sub-core at most: the SM's warps spread over its sub-cores.
  uint32_t max_warps_per_sub_core() const {
    return (sm.max_warps + sub_cores_per_sm - 1) / sub_cores_per_sm;
  }

  static std::array<UnitTiming, k_unit_class_count> default_units();
};

// Reads the "gpu" object; absent keys keep the defaults, unknown keys and out-of-range values
// are ConfigErrors naming the JSON path.
GpuConfig parse_gpu_config(const ConfigReader& reader);

}  // namespace ohmvp::gpu
