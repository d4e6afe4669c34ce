#include "modules/gpu/simt/device_limits.h"

#include <string>

#include "modules/common/errors.h"

namespace ohmvp::gpu {

namespace {

void check_range(const char* name, uint64_t value, uint64_t min, uint64_t max) {
  if (value < min || value > max)
    throw ConfigError(std::string("device limit ") + name + " = " + std::to_string(value) +
                      " is outside " + std::to_string(min) + " to " + std::to_string(max));
}

}  // namespace

void check_limits(const DeviceLimits& limits, std::optional<uint64_t> heap_bytes) {
  check_range("stack_bytes", limits.stack_bytes, DeviceLimits::min_stack_bytes,
              DeviceLimits::max_stack_bytes);
  check_range("malloc_heap_bytes", limits.malloc_heap_bytes, DeviceLimits::min_heap_bytes,
              DeviceLimits::max_heap_bytes);
  check_range("printf_fifo_bytes", limits.printf_fifo_bytes, DeviceLimits::min_printf_bytes,
              DeviceLimits::max_printf_bytes);
  if (heap_bytes && *heap_bytes != limits.malloc_heap_bytes)
    throw ConfigError(
        "device limit malloc_heap_bytes = " + std::to_string(limits.malloc_heap_bytes) +
        ": the device heap (" + std::to_string(*heap_bytes) +
        " bytes) is in place since the first launch of a kernel that calls malloc "
        "or free, and its size can no longer change");
}

}  // namespace ohmvp::gpu
