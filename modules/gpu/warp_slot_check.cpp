#include "modules/gpu/warp_slot_check.h"

#include <string>

#include "modules/common/errors.h"

namespace ohmvp::gpu {

uint32_t check_capacity(uint32_t capacity) {
  if (capacity == 0) throw SimulationError("warp scheduler: capacity must be at least 1");
  return capacity;
}

void check_slot(uint32_t slot, size_t capacity, const char* scheduler) {
  if (slot >= capacity)
    throw SimulationError(std::string(scheduler) + ": warp slot " + std::to_string(slot) +
                          " is outside 0.." + std::to_string(capacity - 1));
}

void throw_slot_error(const char* scheduler, uint32_t slot, const char* problem) {
  throw SimulationError(std::string(scheduler) + ": warp slot " + std::to_string(slot) + " " +
                        problem);
}

}  // namespace ohmvp::gpu
