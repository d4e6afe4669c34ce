#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "modules/gpu/ptx/program.h"
#include "modules/gpu/simt/device_limits.h"
#include "modules/gpu/simt/execution_context.h"
#include "modules/gpu/simt/texture.h"

namespace ohmvp::gpu {

// One kernel launch as the runtime hands it to the Gpu. The runtime owns the module, places its
// .global segment and constant bank, and allocates the local-memory region; everything pointed
// to must stay alive until the launch's done callback ran.
struct KernelLaunch {
  const Module* module = nullptr;
  std::string kernel;
  Dim3 grid, block;
  uint32_t dynamic_shared_bytes = 0;
  // The kernel's parameter block, laid out as Function::params says.
  std::vector<uint8_t> arguments;
  const TextureTable* textures = nullptr;  // may be null when the kernel fetches no texels
  DeviceHeap* heap = nullptr;  // malloc/free's, for a kernel that uses them (KernelLayout)
  // Where the grid's launches of kernels from the device go, for a kernel that makes them
  // (KernelLayout::launches_kernels); the runtime runs them once the grid has ended.
  DeviceLaunches* device_launches = nullptr;
  // The stack and printf limits the program set (the heap's is the heap's size).
  uint64_t call_stack_bytes = DeviceLimits{}.stack_bytes;
  uint64_t printf_fifo_bytes = DeviceLimits{}.printf_fifo_bytes;

  // A cooperative launch's grid workspace (ExecutionContext::grid_workspace): its blocks must all
  // fit on the GPU at once. 0 for any other launch.
  uint64_t grid_workspace = 0;
  // Registers a thread gets, as ptxas would allocate them; 0: the most the PTX holds live at once
  // (live_registers_per_thread), capped as ptxas caps them (bounded_registers_per_thread).
  uint32_t registers_per_thread = 0;
  // The stream priority (cudaStreamCreateWithPriority): 0 the least, negative numbers greater.
  // Among the grids the GPU holds, those of a greater priority have their CTAs dispatched first
  // and take a place among the resident grids first (CtaDispatcher).
  int priority = 0;
  // The host's stream it was queued on, for the report; none for a grid launched from the device.
  std::optional<uint32_t> stream;

  uint64_t global_segment_base = 0;     // device address of the module's .global variables
  const uint8_t* const_bank = nullptr;  // the module's .const bytes (Module::const_bytes)
  // Device address of the local region: thread t of the grid (CTA-linear * threads per CTA +
  // thread-linear) owns [local_base + t * local_stride, + local_stride); see memory_windows.h.
  uint64_t local_base = 0;
  uint64_t local_stride = 0;

  // Which device addresses the kernel may touch (the runtime's allocations and the local
  // region); an access outside is a device fault. Empty: every address the memory holds.
  std::function<bool(uint64_t address, uint64_t bytes)> mapped;
};

// How a launch ended.
struct LaunchResult {
  bool faulted = false;
  // Not run: a launch queued before it faulted, and a fault loses the GPU's context, as CUDA's
  // sticky errors do (Gpu::launch).
  bool skipped = false;
  // Running beside a launch that faulted, and stopped with it (its stores may be partly done).
  bool stopped = false;
  std::string fault;  // the device fault's message when faulted
  std::optional<uint64_t> fault_address;  // the global address the faulting access used
  uint64_t start_cycle = 0;
  uint64_t end_cycle = 0;  // the core cycle the last CTA (and its last store) completed
  uint64_t warp_instructions = 0;
  uint64_t thread_instructions = 0;
  std::string printed;          // the text of the launch's printf calls, in the order they ran
  uint64_t printf_dropped = 0;  // printf calls the full buffer dropped (printf_fifo_bytes)

  uint64_t cycles() const { return end_cycle - start_cycle; }
};

using LaunchDone = std::function<void(const LaunchResult&)>;

}  // namespace ohmvp::gpu
