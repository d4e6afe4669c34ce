#pragma once

#include <cstdint>
#include <string>
#include <systemc>
#include <vector>

#include "modules/common/stats.h"
#include "modules/gpu/gpu.h"
#include "modules/gpu/gpu_config.h"
#include "modules/gpu/ptx/ptx_parser.h"
#include "platforms/memory_system.h"

namespace ohmvp::bench {

// Load-to-use latencies as docs/gpu_sm.md composes them: the access reaches the L1 `ldst` cycles
// after issue; a hit is back `l1d.hit_latency` later; a miss leaves for L2 then, crosses the
// crossbar (latency + one cycle for a one-sector packet) each way, spends `l2.hit_latency` in the
// slice and is usable the cycle after it arrives.
inline uint32_t l1_hit_cycles(const gpu::GpuConfig& c) {
  return c.unit(gpu::UnitClass::ldst).latency + c.l1d.hit_latency;
}
inline uint32_t l2_hit_cycles(const gpu::GpuConfig& c) {
  return l1_hit_cycles(c) + 2 * (c.crossbar.latency + 1) + c.l2.hit_latency + 1;
}

// A GPU on a one-channel DDR4 memory system, for the GPU timing benches. Built on first use
// inside sc_main and elaborated once per executable.
struct GpuBench {
  static gpu::GpuConfig one_sm() {
    gpu::GpuConfig config;
    config.sm_count = 1;
    return config;
  }

  StatsRegistry stats;
  MemorySystem memory;
  gpu::GpuConfig config;
  gpu::Gpu gpu;

  explicit GpuBench(const gpu::GpuConfig& gpu_config = one_sm())
      : memory("memory", MemorySystemConfig{}, stats, nullptr, MemorySystem::Front::per_channel),
        config(gpu_config),
        gpu("gpu", config, memory, stats, nullptr) {
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
  }

  // Runs one launch to completion and returns how it ended.
  gpu::LaunchResult run(const gpu::Module& module, const std::string& kernel, gpu::Dim3 grid,
                        gpu::Dim3 block, const std::vector<uint64_t>& pointer_args) {
    gpu::KernelLaunch launch;
    launch.module = &module;
    launch.kernel = kernel;
    launch.grid = grid;
    launch.block = block;
    for (uint64_t a : pointer_args) {
      for (int b = 0; b < 8; ++b) launch.arguments.push_back(uint8_t(a >> (8 * b)));
    }
    launch.local_base = 0x4000000;
    launch.local_stride = 256;
    bool done = false;
    gpu::LaunchResult result;
    gpu.launch(launch, [&](const gpu::LaunchResult& r) {
      result = r;
      done = true;
    });
    while (!done) sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_US));
    return result;
  }

  template <class T>
  std::vector<T> read(uint64_t address, size_t count) {
    std::vector<T> values(count);
    gpu.read(address, values.data(), count * sizeof(T));
    return values;
  }
  template <class T>
  void write(uint64_t address, const std::vector<T>& values) {
    gpu.write(address, values.data(), values.size() * sizeof(T));
  }
};

}  // namespace ohmvp::bench
