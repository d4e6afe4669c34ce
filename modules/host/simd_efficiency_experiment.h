#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace ohmvp {

// The SIMD-efficiency-versus-warp-size experiment (Fung's thesis, figure 6.4): every kernel
// workload runs functionally at each warp size; SIMD efficiency is active lanes / (warp size x
// warp instructions) over all its launches.
struct SimdEfficiencyRow {
  std::string workload;
  uint32_t warp_size = 32;
  uint64_t warp_instructions = 0;
  uint64_t thread_instructions = 0;
  uint64_t active_lanes = 0;
  double simd_efficiency = 0;
};

// The kernel workloads (files with "ptx" or "type": "kernel") of a folder, sorted by name.
std::vector<std::filesystem::path> kernel_workload_files(const std::filesystem::path& folder);

// Whether a kernel workload's PTX can run at every warp size: not when it uses tensor-core
// instructions (wmma, mma.sync, ldmatrix), which are defined for warps of 32 lanes.
bool runs_at_any_warp_size(const std::filesystem::path& workload);

// One row per workload and warp size, workloads in the given order, warp sizes ascending within
// each. Throws ConfigError for a bad workload or warp size, SimulationError for a device fault.
std::vector<SimdEfficiencyRow> measure_simd_efficiency(
    const std::vector<std::filesystem::path>& workloads, const std::vector<uint32_t>& warp_sizes);

// "workload,warp_size,warp_instructions,thread_instructions,active_lanes,simd_efficiency" rows.
std::string simd_efficiency_csv(const std::vector<SimdEfficiencyRow>& rows);
// Workloads down, warp sizes across, efficiency with three decimals.
std::string simd_efficiency_table(const std::vector<SimdEfficiencyRow>& rows);

}  // namespace ohmvp
