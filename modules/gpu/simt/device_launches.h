#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "modules/gpu/ptx/program.h"
#include "modules/gpu/simt/device_heap.h"

namespace ohmvp::gpu {

// A kernel launched from the device (dynamic parallelism: <<<>>> in device code built with -rdc,
// which nvcc turns into __cudaCDP2GetParameterBufferV2 and __cudaCDP2LaunchDeviceV2 calls).
struct DeviceLaunch {
  uint32_t function = 0;  // the kernel, an index into Module::functions
  uint32_t grid[3] = {1, 1, 1};
  uint32_t block[3] = {1, 1, 1};
  uint32_t shared_bytes = 0;      // dynamic shared memory
  uint64_t parameter_buffer = 0;  // device address of the arguments the launching thread wrote
  uint64_t parameter_bytes = 0;   // the kernel's parameter block
};

// The device launches of one grid, in the order its threads made them. A parameter buffer comes
// from the device heap (CUDA's own launch pool is not modelled: a modelling choice) and is the
// runtime's to release once it has read the arguments (after the grid ended, every store in L2).
class DeviceLaunches {
 public:
  // CUDA's default cudaLimitDevRuntimePendingLaunchCount: launches a grid may have waiting.
  static constexpr uint32_t max_pending = 2048;
  // CUDA's deepest nesting of grids launched from the device (cudaErrorLaunchMaxDepthExceeded).
  static constexpr uint32_t max_depth = 24;

  // cudaGetParameterBuffer: a buffer for `launch`'s arguments; 0 when the heap has no room or
  // max_pending buffers are out (the device <<<>>> then launches nothing, as CUDA's fails).
  uint64_t prepare(DeviceHeap& heap, DeviceLaunch launch);
  // cudaLaunchDevice of a buffer prepare() returned and not launched yet; false for any other.
  bool launch(uint64_t parameter_buffer);
  // The launches made, in order, leaving none (and no errors); buffers prepared but never
  // launched go back to the heap.
  std::vector<DeviceLaunch> take(DeviceHeap* heap);

  // cudaErrorLaunchPendingCountExceeded: what a thread whose prepare() got no buffer reads from
  // cudaGetLastError.
  static constexpr uint32_t pending_count_exceeded = 69;
  // The grid's thread `thread` (its index in the grid) failed to launch with `error`.
  void set_error(uint64_t thread, uint32_t error) { m_errors[thread] = error; }
  // cudaGetLastError (`clear`) or cudaPeekAtLastError: the thread's last error, 0 for none.
  uint32_t last_error(uint64_t thread, bool clear);

 private:
  std::vector<DeviceLaunch> m_prepared;
  std::vector<DeviceLaunch> m_launched;
  std::map<uint64_t, uint32_t> m_errors;  // by thread; only threads with an error
};

// Why a launch from the device beyond DeviceLaunches::max_depth cannot run.
inline constexpr const char* too_deep_text =
    "launches from the device nest deeper than CUDA's 24 levels";

// "kernel 'parent' launched 'child' <<<(4,1,1), (32,1,1)>>> from the device: <why>": the fault
// of a device launch that cannot run.
std::string device_launch_fault(const Module& module, const std::string& parent,
                                const DeviceLaunch& child, const std::string& why);

}  // namespace ohmvp::gpu
