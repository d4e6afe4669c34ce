#include "modules/gpu/simt/functional_executor.h"

#include <array>
#include <cstring>

#include "modules/common/errors.h"
#include "modules/gpu/simt/launch_bounds.h"
#include "modules/gpu/simt/module_image.h"

namespace ohmvp::gpu {

FunctionalExecutor::FunctionalExecutor(const Module& module, DeviceMemory& memory,
                                       uint32_t warp_size, FragmentMapping mapping)
    : m_module(module), m_memory(memory), m_warp_size(warp_size), m_mapping(mapping) {
  if (warp_size < 4 || warp_size > 64)
    throw ConfigError("warp size " + std::to_string(warp_size) + " is outside 4..64");
  const uint64_t segment_bytes = module_segment_bytes(module);
  if (segment_bytes > 0) m_global_base = m_memory.allocate(segment_bytes);
  m_const_bank = place_module(
      module, m_global_base, [&](uint64_t address, const uint8_t* bytes, uint64_t size) {
        if (!m_memory.write(address, bytes, size))
          throw ConfigError(module.file + ": the module's " + std::to_string(segment_bytes) +
                            " bytes of variables do not fit");
      });
}

void FunctionalExecutor::set_limits(const DeviceLimits& limits) {
  check_limits(limits, m_heap ? std::optional<uint64_t>(m_heap->bytes()) : std::nullopt);
  m_limits = limits;
  m_printf.set_capacity(limits.printf_fifo_bytes);
}

uint64_t FunctionalExecutor::symbol_address(const std::string& name) const {
  const Symbol* variable = find_variable(m_module, name);
  if (!variable)
    throw ConfigError(m_module.file + ": no module-scope .global or .const variable '" + name +
                      "'");
  return variable_address(m_module, *variable, m_global_base);
}

bool FunctionalExecutor::perform(WarpState& warp, DeviceFault& fault) {
  MemoryRequest& request = warp.memory_request();
  bool ok = true;
  uint64_t lanes = request.lanes;
  while (lanes && ok) {
    const uint32_t lane = static_cast<uint32_t>(__builtin_ctzll(lanes));
    lanes &= lanes - 1;
    uint64_t address = request.address[lane];
    if (request.filtered) {
      TextureTaps& taps = warp.texture_taps();
      for (uint32_t k = 0; k < taps.count && ok; ++k) {
        if (!((taps.present[lane] >> k) & 1)) continue;
        address = taps.address[lane][k];
        ok = m_memory.read(address, taps.texels[lane].data() + k * taps.texel_bytes,
                           taps.texel_bytes);
      }
    } else {
      switch (request.kind) {
        case MemoryKind::load:
        case MemoryKind::texture:
        case MemoryKind::store:
          for (uint32_t run = 0; run < request.run_count && ok; ++run) {
            address = request.address[lane] + static_cast<uint64_t>(request.run_offset[run]);
            uint8_t* bytes = request.data[lane].data() + run * request.bytes;
            ok = request.kind == MemoryKind::store ? m_memory.write(address, bytes, request.bytes)
                                                   : m_memory.read(address, bytes, request.bytes);
          }
          break;
        case MemoryKind::atomic:
        case MemoryKind::reduction: {
          uint64_t old_value = 0;
          ok = m_memory.atomic(address, request.atomic_op, request.type, request.operand_b[lane],
                               request.operand_c[lane], old_value);
          std::memcpy(request.data[lane].data(), &old_value, sizeof old_value);
          break;
        }
      }
    }
    if (!ok)
      fault = {FaultKind::unmapped_address,
               request.function,
               request.pc,
               lane,
               address,
               request.space[lane],
               "",
               {}};
  }
  return ok;
}

LaunchStatistics FunctionalExecutor::launch(const LaunchParams& params) {
  return run_launch(params, 0);
}

LaunchStatistics FunctionalExecutor::run_launch(const LaunchParams& params, uint32_t depth) {
  const KernelLayout layout(m_module, params.kernel, m_limits.stack_bytes);
  const Function& kernel = layout.kernel();
  if (params.grid.count() == 0 || params.block.count() == 0)
    throw ConfigError("launch of '" + params.kernel + "': grid and block must not be empty");
  if (params.block.count() > 1024)
    throw ConfigError("launch of '" + params.kernel + "': more than 1024 threads per block");
  check_launch_bounds(kernel, params.block, "launch of '" + params.kernel + "'");
  if (params.cooperative)
    throw ConfigError("launch of '" + params.kernel +
                      "': a cooperative launch needs its blocks resident together; the "
                      "functional executor runs one CTA at a time (the timed GPU runs them)");
  if (params.arguments.size() < kernel.param_bytes)
    throw ConfigError(
        "launch of '" + params.kernel + "': " + std::to_string(params.arguments.size()) +
        " argument bytes, the kernel's parameters take " + std::to_string(kernel.param_bytes));

  const uint64_t threads_per_cta = params.block.count();
  const uint32_t warps_per_cta =
      static_cast<uint32_t>((threads_per_cta + m_warp_size - 1) / m_warp_size);
  std::vector<uint8_t> shared(layout.extern_shared_offset() + params.dynamic_shared_bytes, 0);

  ExecutionContext context;
  context.layout = &layout;
  context.kernel_arguments = params.arguments.data();
  context.kernel_argument_bytes = params.arguments.size();
  context.shared = shared.data();
  context.shared_bytes = shared.size();
  context.dynamic_shared_bytes = params.dynamic_shared_bytes;
  // Constant memory is device memory: what the host wrote to the bank's copy since the last
  // launch is what this one reads.
  const uint64_t const_base = const_segment_base(m_module, m_global_base);
  if (!m_const_bank.empty()) m_memory.read(const_base, m_const_bank.data(), m_const_bank.size());
  context.const_bank = m_const_bank.data();
  context.const_bytes = m_const_bank.size();
  context.global_segment_base = m_global_base;
  context.const_segment_base = const_base;
  context.textures = &m_textures;
  context.printf_buffer = &m_printf;
  if (layout.uses_heap()) {
    if (!m_heap)
      m_heap.emplace(m_memory.allocate(m_limits.malloc_heap_bytes), m_limits.malloc_heap_bytes);
    context.heap = &*m_heap;
  }
  DeviceLaunches device_launches;
  if (layout.launches_kernels()) context.device_launches = &device_launches;
  context.fragment_mapping = m_mapping;
  context.grid = params.grid;
  context.block = params.block;
  context.grid_id = m_grid_id++;

  const uint64_t local_stride = layout.local_bytes_per_thread();
  uint64_t local_region = 0;
  if (local_stride > 0)
    local_region = m_memory.allocate(local_stride * threads_per_cta * params.grid.count());
  context.local_region_base = local_region;
  context.local_stride = local_stride;

  std::vector<WarpState> warps;
  warps.reserve(warps_per_cta);
  for (uint32_t w = 0; w < warps_per_cta; ++w) warps.emplace_back(layout, m_warp_size);
  struct BarrierWait {
    bool waiting = false;
    uint32_t id = 0;
    uint32_t threads = 0;
    BarrierReductionShare reduction;
  };
  std::vector<BarrierWait> waits(warps_per_cta);

  LaunchStatistics stats;
  stats.warp_size = m_warp_size;
  auto live_threads = [](const WarpState& warp) {
    return static_cast<uint32_t>(__builtin_popcountll(warp.valid_lanes() & ~warp.exited_lanes()));
  };

  try {
    for (uint64_t cta_linear = 0; cta_linear < params.grid.count(); ++cta_linear) {
      context.cta = {static_cast<uint32_t>(cta_linear % params.grid.x),
                     static_cast<uint32_t>(cta_linear / params.grid.x % params.grid.y),
                     static_cast<uint32_t>(cta_linear / (uint64_t{params.grid.x} * params.grid.y))};
      context.cta_linear = static_cast<uint32_t>(cta_linear);
      std::fill(shared.begin(), shared.end(), 0);
      for (uint32_t w = 0; w < warps_per_cta; ++w) {
        warps[w].start(w, params.block, w * m_warp_size);
        waits[w] = {};
      }
      ++stats.ctas;
      for (;;) {
        bool running = false, progressed = false;
        for (uint32_t w = 0; w < warps_per_cta; ++w) {
          WarpState& warp = warps[w];
          if (warp.finished() || waits[w].waiting) continue;
          running = true;
          progressed = true;
          context.clock = stats.warp_instructions;
          context.globaltimer_ns = stats.warp_instructions;
          const StepResult step = Interpreter::step(warp, context);
          ++stats.warp_instructions;
          stats.active_lanes += static_cast<uint64_t>(__builtin_popcountll(step.active_mask));
          stats.thread_instructions +=
              static_cast<uint64_t>(__builtin_popcountll(step.executed_mask));
          stats.path_yields += step.yielded;
          switch (step.status) {
            case StepStatus::memory_pending: {
              DeviceFault fault;
              if (!perform(warp, fault))
                warp.set_fault(fault);
              else
                Interpreter::complete_memory(warp);
              if (fault.kind != FaultKind::none) throw warp.fault();
              break;
            }
            case StepStatus::barrier:
              if (!step.barrier_arrive_only)
                waits[w] = {true, step.barrier_id, step.barrier_threads, step.barrier_reduction};
              break;
            case StepStatus::fault:
              throw warp.fault();
            default:
              break;
          }
        }
        // Release every barrier whose expected threads have all arrived.
        bool any_waiting = false;
        for (uint32_t w = 0; w < warps_per_cta; ++w) {
          if (!waits[w].waiting) continue;
          any_waiting = true;
          const uint32_t id = waits[w].id;
          uint32_t arrived = 0, live = 0;
          for (uint32_t v = 0; v < warps_per_cta; ++v) {
            if (warps[v].finished()) continue;
            live += live_threads(warps[v]);
            if (waits[v].waiting && waits[v].id == id) arrived += live_threads(warps[v]);
          }
          const uint32_t expected = waits[w].threads ? waits[w].threads : live;
          if (arrived >= expected) {
            BarrierReductionTotals totals;  // bar.red: every warp released gets the CTA's count
            for (uint32_t v = 0; v < warps_per_cta; ++v)
              if (waits[v].waiting && waits[v].id == id) totals.add(waits[v].reduction);
            for (uint32_t v = 0; v < warps_per_cta; ++v) {
              if (!waits[v].waiting || waits[v].id != id) continue;
              write_barrier_reduction(warps[v], waits[v].reduction, totals);
              waits[v].waiting = false;
            }
            progressed = true;
          }
        }
        if (!running && !any_waiting) break;
        if (!progressed)
          throw SimulationError("kernel '" + params.kernel + "' deadlocked at a barrier in CTA (" +
                                std::to_string(context.cta.x) + "," +
                                std::to_string(context.cta.y) + "," +
                                std::to_string(context.cta.z) + ")");
      }
    }
  } catch (const DeviceFault& fault) {
    if (local_region) m_memory.free(local_region);
    const WarpState* faulting = nullptr;
    for (const WarpState& warp : warps)
      if (warp.fault().kind != FaultKind::none) faulting = &warp;
    Dim3 thread{0, 0, 0};
    if (faulting) thread = faulting->thread(fault.lane);
    throw SimulationError(describe_fault(fault, m_module, params.kernel, context, thread));
  } catch (...) {
    if (local_region) m_memory.free(local_region);
    throw;
  }
  if (local_region) m_memory.free(local_region);
  for (const DeviceLaunch& child : device_launches.take(m_heap ? &*m_heap : nullptr))
    stats.add(run_device_launch(params.kernel, child, depth + 1));
  return stats;
}

// A launch kernel `parent` made on the device, once the parent's grid has ended: its arguments
// come from the parameter buffer, which goes back to the heap. A launch that cannot run is a
// device fault of the parent's, as the device runtime's launch fails.
LaunchStatistics FunctionalExecutor::run_device_launch(const std::string& parent,
                                                       const DeviceLaunch& child, uint32_t depth) {
  LaunchParams params;
  params.kernel = m_module.functions[child.function].name;
  params.grid = {child.grid[0], child.grid[1], child.grid[2]};
  params.block = {child.block[0], child.block[1], child.block[2]};
  params.dynamic_shared_bytes = child.shared_bytes;
  params.arguments.resize(child.parameter_bytes);
  m_memory.read(child.parameter_buffer, params.arguments.data(), params.arguments.size());
  m_heap->release(child.parameter_buffer);
  if (depth > DeviceLaunches::max_depth)
    throw SimulationError(device_launch_fault(m_module, parent, child, too_deep_text));
  try {
    return run_launch(params, depth);
  } catch (const ConfigError& error) {
    throw SimulationError(device_launch_fault(m_module, parent, child, error.what()));
  }
}

}  // namespace ohmvp::gpu
