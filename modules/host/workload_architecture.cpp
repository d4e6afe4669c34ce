#include "modules/host/workload_architecture.h"

#include <algorithm>

#include "modules/common/demangle.h"
#include "modules/common/errors.h"

namespace ohmvp {

namespace {

// Every launch of the workload, loops' bodies included, in file order.
void collect(const std::vector<WorkloadStep>& steps, std::vector<const KernelLaunch*>& launches) {
  for (const WorkloadStep& step : steps) {
    if (step.kind == WorkloadStep::Kind::launch) launches.push_back(&step.launch);
    collect(step.steps, launches);
  }
}

std::vector<const KernelLaunch*> launches_of(const GpuWorkload& workload) {
  std::vector<const KernelLaunch*> launches;
  collect(workload.steps, launches);
  return launches;
}

// The first launch of each kernel.
std::vector<const KernelLaunch*> first_launches(const GpuWorkload& workload) {
  std::vector<const KernelLaunch*> first;
  for (const KernelLaunch* launch : launches_of(workload))
    if (std::none_of(first.begin(), first.end(),
                     [&](const KernelLaunch* seen) { return seen->kernel == launch->kernel; }))
      first.push_back(launch);
  return first;
}

// The layout of a kernel the workload launches; a kernel the module lacks is the workload's error.
gpu::KernelLayout layout_of(const GpuWorkload& workload, const gpu::Module& module,
                            const KernelLaunch& launch) {
  try {
    return gpu::KernelLayout(module, launch.kernel);
  } catch (const ConfigError& error) {
    throw ConfigError(launch_context(workload, launch) + error.what());
  }
}

}  // namespace

void check_launches(const GpuWorkload& workload, const gpu::Module& module) {
  for (const KernelLaunch* launch : launches_of(workload)) {
    const gpu::Function* kernel = nullptr;
    try {
      kernel = &module.kernel(launch->kernel);
    } catch (const ConfigError& error) {
      throw ConfigError(launch_context(workload, *launch) + error.what());
    }
    if (launch->args.size() != kernel->params.size())
      throw ConfigError(launch_context(workload, *launch) + "kernel '" + demangle(kernel->name) +
                        "' takes " + std::to_string(kernel->params.size()) +
                        " arguments; the launch gives " + std::to_string(launch->args.size()));
  }
}

gpu::ComputeCapability workload_capability(const GpuWorkload& workload, const gpu::Module& module) {
  gpu::ComputeCapability needed = gpu::ComputeCapability::sm_70;
  for (const KernelLaunch* launch : first_launches(workload))
    needed = std::max(needed, gpu::kernel_need(layout_of(workload, module, *launch)).capability);
  return needed;
}

void check_workload_architecture(const GpuWorkload& workload, const gpu::Module& module,
                                 const gpu::GpuConfig& gpu) {
  for (const KernelLaunch* launch : first_launches(workload)) {
    const gpu::KernelLayout layout = layout_of(workload, module, *launch);
    gpu::check_architecture(layout, gpu.compute_capability);
    gpu::check_warp_size(layout, gpu.warp_size);
    gpu::check_tensor_modes(layout, gpu.tensor);
  }
}

void check_workload_priorities(const GpuWorkload& workload, const gpu::GpuConfig& gpu) {
  const int greatest = gpu.greatest_stream_priority;
  const auto check = [&](int priority, const std::string& path) {
    if (priority < greatest)
      throw ConfigError(workload.file.string() + ": " + path + ": priority " +
                        std::to_string(priority) + " is beyond this GPU's greatest, " +
                        std::to_string(greatest) + " (gpu.greatest_stream_priority); expected " +
                        std::to_string(greatest) + " to 0");
  };
  for (const auto& [number, priority] : workload.stream_priorities)
    check(priority, "stream_priorities." + std::to_string(number));
  for (const KernelLaunch* launch : launches_of(workload))
    if (launch->priority) check(*launch->priority, launch->path + ".priority");
}

void check_managed_chunks(const GpuWorkload& workload, uint64_t chunk_bytes, uint64_t device_bytes,
                          const std::string& capacity) {
  if (chunk_bytes <= device_bytes) return;
  for (const BufferSpec& buffer : workload.buffers)
    if (buffer.managed)
      throw ConfigError(workload.file.string() + ": buffers." + buffer.name +
                        ".managed: managed memory moves in chunks of uvm.chunk_bytes, " +
                        std::to_string(chunk_bytes) + " bytes on this platform, more than the " +
                        "GPU's memory (" + std::to_string(device_bytes) + " bytes: " + capacity +
                        "); expected a platform with chunks no larger (--set uvm.chunk_bytes=N)");
}

}  // namespace ohmvp
