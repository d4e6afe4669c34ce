#pragma once

#include <cstdint>
#include <string>

#include "modules/gpu/gpu_config.h"
#include "modules/gpu/ptx/program.h"

namespace ohmvp::gpu {

// 32-bit registers per thread that a PTX function's declared registers take (register_slots of
// each). PTX registers are virtual (ptxas allocates the real ones), so this over-counts a
// compiled kernel several times; occupancy counts live_registers_per_thread instead
// (register_pressure.h). `ohmvp kernels` shows both.
uint32_t ptx_registers_per_thread(const Function& function);

// What ptxas holds a kernel's `registers` (live_registers_per_thread) to: at most .maxnreg, and
// few enough that .minnctapersm CTAs of its __launch_bounds__ threads (`threads` when it states
// none) fit on an SM. `registers` when the kernel asks neither.
uint32_t bounded_registers_per_thread(const Function& kernel, uint32_t registers, uint32_t threads,
                                      const SmLimits& limits, uint32_t warp_size);

// What one CTA of a launch needs from an SM.
struct CtaResources {
  uint32_t threads = 0;
  uint32_t registers_per_thread = 0;  // as bounded_registers_per_thread gives them
  uint64_t shared_bytes = 0;          // static + dynamic
};

enum class OccupancyLimiter : uint8_t { threads, warps, registers, shared_memory, ctas };
const char* limiter_name(OccupancyLimiter limiter);

struct Occupancy {
  uint32_t ctas_per_sm = 0;
  OccupancyLimiter limiter = OccupancyLimiter::ctas;  // the limit that gives ctas_per_sm
  uint32_t warps_per_cta = 0;
  uint32_t registers_per_thread = 0;  // after the caps below
  uint32_t registers_per_cta = 0;     // allocated: per warp, rounded up to the allocation unit
  uint64_t shared_bytes_per_cta = 0;  // rounded up to the allocation unit
};

// Registers per thread after two caps: the architectural maximum per thread
// (limits.max_registers_per_thread, where ptxas would spill) and the most that still lets one
// CTA of `threads` threads fit in the register file (what ptxas does when it knows the block
// size). Both are modelling choices for an estimated register count; see docs/gpu_sm.md.
uint32_t effective_registers_per_thread(uint32_t registers_wanted, uint32_t threads,
                                        const SmLimits& limits, uint32_t warp_size);

// How many CTAs of `cta` fit on one SM at once, and which limit decides it. A CTA that cannot
// fit at all (too many threads, too much shared memory) is a ConfigError naming `kernel`.
Occupancy compute_occupancy(const CtaResources& cta, const SmLimits& limits, uint32_t warp_size,
                            const std::string& kernel = "kernel");

}  // namespace ohmvp::gpu
