#include "modules/gpu/simt/launch_bounds.h"

#include "modules/common/errors.h"

namespace ohmvp::gpu {

namespace {

std::string shape(uint32_t x, uint32_t y, uint32_t z) {
  return "(" + std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z) + ")";
}

}  // namespace

void check_launch_bounds(const Function& kernel, const Dim3& block, const std::string& where) {
  const std::string launched = where + ": a block of " + shape(block.x, block.y, block.z);
  const std::array<uint32_t, 3>& required = kernel.required_block;
  if (required[0] != 0 &&
      (block.x != required[0] || block.y != required[1] || block.z != required[2]))
    throw ConfigError(launched + "; the kernel takes blocks of " +
                      shape(required[0], required[1], required[2]) + " only (.reqntid)");
  if (kernel.max_threads != 0 && block.count() > kernel.max_threads)
    throw ConfigError(launched + " is " + std::to_string(block.count()) +
                      " threads; the kernel takes at most " + std::to_string(kernel.max_threads) +
                      " (.maxntid, __launch_bounds__)");
}

}  // namespace ohmvp::gpu
