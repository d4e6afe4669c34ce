#include "modules/host/simd_efficiency_experiment.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "modules/common/errors.h"
#include "modules/common/json_file.h"
#include "modules/gpu/architecture.h"
#include "modules/gpu/ptx/ptx_parser.h"
#include "modules/host/functional_workload_executor.h"
#include "modules/host/gpu_workload.h"

namespace ohmvp {

std::vector<std::filesystem::path> kernel_workload_files(const std::filesystem::path& folder) {
  std::vector<std::filesystem::path> files;
  std::error_code error;
  std::filesystem::directory_iterator entries(folder, error);
  if (error)
    throw ConfigError("cannot list workload folder " + folder.string() + ": " + error.message());
  for (const auto& entry : entries)
    if (entry.path().extension() == ".json" && is_kernel_workload(load_json_file(entry.path())))
      files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

bool runs_at_any_warp_size(const std::filesystem::path& workload) {
  const gpu::Module module = gpu::load_ptx_file(load_gpu_workload(workload).ptx.string());
  for (const gpu::Function& function : module.functions) {
    for (const gpu::Instruction& instruction : function.instructions)
      if (gpu::is_tensor_core(instruction)) return false;
  }
  return true;
}

std::vector<SimdEfficiencyRow> measure_simd_efficiency(
    const std::vector<std::filesystem::path>& workloads, const std::vector<uint32_t>& warp_sizes) {
  std::vector<uint32_t> sizes = warp_sizes;
  std::sort(sizes.begin(), sizes.end());
  std::vector<SimdEfficiencyRow> rows;
  for (const std::filesystem::path& file : workloads) {
    const GpuWorkload workload = load_gpu_workload(file);
    for (const uint32_t warp_size : sizes) {
      const FunctionalRun run = run_workload_functionally(workload, warp_size);
      SimdEfficiencyRow row;
      row.workload = workload.name;
      row.warp_size = warp_size;
      row.warp_instructions = run.totals.warp_instructions;
      row.thread_instructions = run.totals.thread_instructions;
      row.active_lanes = run.totals.active_lanes;
      row.simd_efficiency = run.totals.simd_efficiency();
      rows.push_back(row);
    }
  }
  return rows;
}

std::string simd_efficiency_csv(const std::vector<SimdEfficiencyRow>& rows) {
  std::string text =
      "workload,warp_size,warp_instructions,thread_instructions,active_lanes,simd_efficiency\n";
  char line[256];
  for (const SimdEfficiencyRow& row : rows) {
    std::snprintf(line, sizeof line, "%s,%u,%llu,%llu,%llu,%.6f\n", row.workload.c_str(),
                  row.warp_size, static_cast<unsigned long long>(row.warp_instructions),
                  static_cast<unsigned long long>(row.thread_instructions),
                  static_cast<unsigned long long>(row.active_lanes), row.simd_efficiency);
    text += line;
  }
  return text;
}

std::string simd_efficiency_table(const std::vector<SimdEfficiencyRow>& rows) {
  std::vector<uint32_t> sizes;
  std::vector<std::string> names;
  std::map<std::pair<std::string, uint32_t>, double> value;
  for (const SimdEfficiencyRow& row : rows) {
    if (std::find(sizes.begin(), sizes.end(), row.warp_size) == sizes.end())
      sizes.push_back(row.warp_size);
    if (std::find(names.begin(), names.end(), row.workload) == names.end())
      names.push_back(row.workload);
    value[{row.workload, row.warp_size}] = row.simd_efficiency;
  }
  std::sort(sizes.begin(), sizes.end());
  size_t width = 8;
  for (const std::string& name : names) width = std::max(width, name.size());
  char cell[64];
  std::string text = "| " + std::string("workload") + std::string(width - 8, ' ') + " |";
  for (const uint32_t size : sizes) {
    std::snprintf(cell, sizeof cell, " W=%-3u |", size);
    text += cell;
  }
  text += "\n|" + std::string(width + 2, '-') + "|";
  for (size_t i = 0; i < sizes.size(); ++i) text += "------:|";
  text += "\n";
  for (const std::string& name : names) {
    text += "| " + name + std::string(width - name.size(), ' ') + " |";
    for (const uint32_t size : sizes) {
      const auto found = value.find({name, size});
      if (found == value.end())
        text += "     - |";
      else {
        std::snprintf(cell, sizeof cell, " %5.3f |", found->second);
        text += cell;
      }
    }
    text += "\n";
  }
  return text;
}

}  // namespace ohmvp
