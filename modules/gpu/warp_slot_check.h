#pragma once

#include <cstddef>
#include <cstdint>

namespace ohmvp::gpu {

// Misuse of a warp scheduler by the SM model (a slot out of range, a warp added twice) is a
// model bug: these throw SimulationError with the scheduler and slot named.
uint32_t check_capacity(uint32_t capacity);
void check_slot(uint32_t slot, size_t capacity, const char* scheduler);
[[noreturn]] void throw_slot_error(const char* scheduler, uint32_t slot, const char* problem);

}  // namespace ohmvp::gpu
