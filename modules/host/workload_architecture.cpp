#include "modules/host/workload_architecture.h"

#include <algorithm>

#include "modules/common/errors.h"

namespace ohmvp {

namespace {

void collect(const std::vector<WorkloadStep>& steps, std::vector<std::string>& kernels) {
  for (const WorkloadStep& step : steps) {
    if (step.kind == WorkloadStep::Kind::launch &&
        std::find(kernels.begin(), kernels.end(), step.launch.kernel) == kernels.end())
      kernels.push_back(step.launch.kernel);
    collect(step.steps, kernels);
  }
}

// The layout of a kernel the workload launches; a kernel the module lacks is the workload's error.
gpu::KernelLayout layout_of(const GpuWorkload& workload, const gpu::Module& module,
                            const std::string& kernel) {
  try {
    return gpu::KernelLayout(module, kernel);
  } catch (const ConfigError& error) {
    throw ConfigError(launch_context(workload, kernel) + error.what());
  }
}

}  // namespace

std::vector<std::string> launched_kernels(const GpuWorkload& workload) {
  std::vector<std::string> kernels;
  collect(workload.steps, kernels);
  return kernels;
}

gpu::ComputeCapability workload_capability(const GpuWorkload& workload, const gpu::Module& module) {
  gpu::ComputeCapability needed = gpu::ComputeCapability::sm_70;
  for (const std::string& kernel : launched_kernels(workload))
    needed = std::max(needed, gpu::kernel_need(layout_of(workload, module, kernel)).capability);
  return needed;
}

void check_workload_architecture(const GpuWorkload& workload, const gpu::Module& module,
                                 gpu::ComputeCapability gpu, uint32_t warp_size) {
  for (const std::string& kernel : launched_kernels(workload)) {
    const gpu::KernelLayout layout = layout_of(workload, module, kernel);
    gpu::check_architecture(layout, gpu);
    gpu::check_warp_size(layout, warp_size);
  }
}

}  // namespace ohmvp
