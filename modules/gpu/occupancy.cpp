#include "modules/gpu/occupancy.h"

#include <algorithm>

#include "modules/common/errors.h"
#include "modules/gpu/register_pressure.h"

namespace ohmvp::gpu {

namespace {

uint64_t round_up(uint64_t value, uint64_t unit) {
  return (value + unit - 1) / unit * unit;
}

}  // namespace

uint32_t ptx_registers_per_thread(const Function& function) {
  uint32_t registers = 0;
  for (DataType type : function.register_types) registers += register_slots(type);
  return registers;
}

const char* limiter_name(OccupancyLimiter limiter) {
  switch (limiter) {
    case OccupancyLimiter::threads:
      return "threads";
    case OccupancyLimiter::warps:
      return "warps";
    case OccupancyLimiter::registers:
      return "registers";
    case OccupancyLimiter::shared_memory:
      return "shared memory";
    case OccupancyLimiter::ctas:
      return "CTAs";
  }
  return "?";
}

uint32_t effective_registers_per_thread(uint32_t registers_wanted, uint32_t threads,
                                        const SmLimits& limits, uint32_t warp_size) {
  uint32_t registers = std::min(registers_wanted, limits.max_registers_per_thread);
  const uint64_t warps = (uint64_t{threads} + warp_size - 1) / warp_size;
  if (warps == 0) return registers;
  // The largest per-thread count whose rounded per-warp allocation still fits `warps` warps.
  const uint64_t units_per_warp = limits.registers / limits.register_allocation_unit / warps;
  const uint64_t fitting = units_per_warp * limits.register_allocation_unit / warp_size;
  return static_cast<uint32_t>(std::min<uint64_t>(registers, fitting));
}

uint32_t bounded_registers_per_thread(const Function& kernel, uint32_t registers, uint32_t threads,
                                      const SmLimits& limits, uint32_t warp_size) {
  if (kernel.max_registers != 0) registers = std::min(registers, kernel.max_registers);
  if (kernel.min_ctas_per_sm != 0) {
    const uint64_t bound = kernel.max_threads != 0 ? kernel.max_threads : threads;
    const uint64_t together = std::min<uint64_t>(bound * kernel.min_ctas_per_sm, UINT32_MAX);
    registers = effective_registers_per_thread(registers, static_cast<uint32_t>(together), limits,
                                               warp_size);
  }
  return registers;
}

Occupancy compute_occupancy(const CtaResources& cta, const SmLimits& limits, uint32_t warp_size,
                            const std::string& kernel) {
  const std::string prefix = kernel + ": a CTA of " + std::to_string(cta.threads) + " threads";
  if (cta.threads == 0) throw ConfigError(kernel + ": a CTA needs at least one thread");
  if (cta.threads > limits.max_threads_per_cta)
    throw ConfigError(prefix + " exceeds the limit of " +
                      std::to_string(limits.max_threads_per_cta) + " threads per CTA");
  if (cta.shared_bytes > limits.max_shared_memory_per_cta)
    throw ConfigError(prefix + " needs " + std::to_string(cta.shared_bytes) +
                      " bytes of shared memory; at most " +
                      std::to_string(limits.max_shared_memory_per_cta) + " per CTA");

  Occupancy o;
  o.warps_per_cta = (cta.threads + warp_size - 1) / warp_size;
  o.registers_per_thread =
      effective_registers_per_thread(cta.registers_per_thread, cta.threads, limits, warp_size);
  const uint64_t registers_per_warp =
      round_up(uint64_t{o.registers_per_thread} * warp_size, limits.register_allocation_unit);
  o.registers_per_cta = static_cast<uint32_t>(registers_per_warp * o.warps_per_cta);
  o.shared_bytes_per_cta = round_up(cta.shared_bytes, limits.shared_memory_allocation_unit);

  // Limits in a fixed order; a later limit only wins when strictly smaller, so ties name the
  // first (the CTA count, then threads, warps, registers, shared memory).
  o.ctas_per_sm = limits.max_ctas;
  o.limiter = OccupancyLimiter::ctas;
  const auto apply = [&](uint64_t fits, OccupancyLimiter limiter) {
    if (fits < o.ctas_per_sm) {
      o.ctas_per_sm = static_cast<uint32_t>(fits);
      o.limiter = limiter;
    }
  };
  // Threads are counted in whole warps: a partial warp holds its thread slots.
  apply(limits.max_threads / (uint64_t{o.warps_per_cta} * warp_size), OccupancyLimiter::threads);
  apply(limits.max_warps / o.warps_per_cta, OccupancyLimiter::warps);
  if (o.registers_per_cta > 0)
    apply(limits.registers / o.registers_per_cta, OccupancyLimiter::registers);
  if (o.shared_bytes_per_cta > 0)
    apply(limits.shared_memory_bytes / o.shared_bytes_per_cta, OccupancyLimiter::shared_memory);
  if (o.ctas_per_sm == 0)
    throw ConfigError(prefix + " does not fit on an SM: limited by " + limiter_name(o.limiter));
  return o;
}

}  // namespace ohmvp::gpu
