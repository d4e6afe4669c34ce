#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "modules/gpu/ptx/program.h"
#include "modules/gpu/simt/device_memory.h"
#include "modules/gpu/simt/execution_context.h"
#include "modules/gpu/simt/interpreter.h"
#include "modules/gpu/simt/texture.h"

namespace ohmvp::gpu {

struct LaunchParams {
  std::string kernel;
  Dim3 grid, block;
  uint32_t dynamic_shared_bytes = 0;
  std::vector<uint8_t> arguments;  // the kernel's parameter block (offsets as in Function::params)
  bool cooperative = false;        // refused: this executor runs one CTA at a time
};

struct LaunchStatistics {
  uint32_t warp_size = 32;
  uint64_t ctas = 0;
  uint64_t warp_instructions = 0;
  uint64_t thread_instructions = 0;  // lanes whose guard held, summed over warp instructions
  uint64_t active_lanes = 0;         // active lanes at issue, summed over warp instructions
  uint64_t path_yields = 0;          // StepResult::yielded, summed

  // Adds `other`'s counts (the warp size stays).
  void add(const LaunchStatistics& other) {
    ctas += other.ctas;
    warp_instructions += other.warp_instructions;
    thread_instructions += other.thread_instructions;
    active_lanes += other.active_lanes;
    path_yields += other.path_yields;
  }

  // Active lanes / (warp size x warp instructions).
  double simd_efficiency() const {
    return warp_instructions == 0
               ? 0.0
               : static_cast<double>(active_lanes) /
                     (static_cast<double>(warp_size) * static_cast<double>(warp_instructions));
  }
};

// Runs whole kernel launches functionally: CTAs one after another in linear order, the warps of
// a CTA round-robin one instruction each, every memory access performed at once on the
// DeviceMemory, bar.sync releasing when every warp that has not exited arrived (or the thread
// count given to bar.sync). The timing model drives WarpState/Interpreter the same way, step by
// step, with its own scheduling and memory.
class FunctionalExecutor {
 public:
  // Places the module's .global variables in `memory` (with their initialisers) and builds its
  // constant bank. Throws ConfigError for a warp size outside 4..64. `mapping` says which lanes
  // hold which elements of a wmma fragment.
  FunctionalExecutor(const Module& module, DeviceMemory& memory, uint32_t warp_size = 32,
                     FragmentMapping mapping = FragmentMapping::volta);

  uint64_t global_segment_base() const { return m_global_base; }
  // The device address of a module-scope .global or .const variable (cudaGetSymbolAddress);
  // throws ConfigError if there is none. Writing a .const one there changes the constant bank
  // for the launches after.
  uint64_t symbol_address(const std::string& name) const;
  TextureTable& textures() { return m_textures; }
  // What the launches' printf calls printed, in order.
  PrintfBuffer& printf_buffer() { return m_printf; }
  // As cudaDeviceSetLimit: for the launches from now on. The heap's size only before the first
  // launch that uses the heap (ConfigError after).
  void set_limits(const DeviceLimits& limits);

  // Throws ConfigError for a bad launch (unknown kernel, empty grid, short argument block) and
  // SimulationError for a device fault, naming kernel, PC, CTA and thread. The grids the kernel
  // launches from the device run after its own, depth first (docs/gpu_simt.md); the statistics
  // are theirs too.
  LaunchStatistics launch(const LaunchParams& params);

 private:
  LaunchStatistics run_launch(const LaunchParams& params, uint32_t depth);
  LaunchStatistics run_device_launch(const std::string& parent, const DeviceLaunch& child,
                                     uint32_t depth);
  // Performs the warp's pending access on the device memory; false with `fault` set if a lane's
  // address is not mapped.
  bool perform(WarpState& warp, DeviceFault& fault);

  const Module& m_module;
  DeviceMemory& m_memory;
  uint32_t m_warp_size;
  FragmentMapping m_mapping;
  uint64_t m_global_base = 0;
  std::vector<uint8_t> m_const_bank;
  TextureTable m_textures;
  DeviceLimits m_limits;
  std::optional<DeviceHeap> m_heap;  // set aside at the first launch that uses malloc/free
  PrintfBuffer m_printf{[this](uint64_t address, void* data, uint64_t bytes) {
    return m_memory.read(address, data, bytes);
  }};
  uint32_t m_grid_id = 0;
};

}  // namespace ohmvp::gpu
