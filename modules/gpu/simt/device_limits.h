#pragma once

#include <cstdint>
#include <optional>

namespace ohmvp::gpu {

// What a CUDA program sets with cudaDeviceSetLimit, with CUDA's defaults: each thread's call
// stack for recursion (cudaLimitStackSize), the device heap of malloc and new
// (cudaLimitMallocHeapSize), and the printf FIFO one launch fills (cudaLimitPrintfFifoSize).
struct DeviceLimits {
  uint64_t stack_bytes = 1024;
  uint64_t malloc_heap_bytes = uint64_t{8} << 20;
  uint64_t printf_fifo_bytes = uint64_t{1} << 20;

  // The ranges accepted. The stack at most CUDA's 512 KiB of local memory a thread; the heap
  // at least one 16-byte block; the FIFO as the host holds it as text, at most 1 GiB.
  static constexpr uint64_t min_stack_bytes = 16, max_stack_bytes = uint64_t{512} << 10;
  static constexpr uint64_t min_heap_bytes = 16, max_heap_bytes = uint64_t{1} << 40;
  static constexpr uint64_t min_printf_bytes = 1, max_printf_bytes = uint64_t{1} << 30;
};

// Throws ConfigError for a limit outside its range, or for a heap size other than that of the
// heap already in place (`heap_bytes`): as with CUDA, the heap's size is fixed once a launch
// has used it.
void check_limits(const DeviceLimits& limits, std::optional<uint64_t> heap_bytes);

}  // namespace ohmvp::gpu
