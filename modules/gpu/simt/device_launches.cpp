#include "modules/gpu/simt/device_launches.h"

#include <algorithm>

#include "modules/common/demangle.h"

namespace ohmvp::gpu {

uint64_t DeviceLaunches::prepare(DeviceHeap& heap, DeviceLaunch launch) {
  if (m_prepared.size() + m_launched.size() >= max_pending) return 0;
  const std::optional<uint64_t> buffer = heap.allocate(launch.parameter_bytes);
  if (!buffer) return 0;
  launch.parameter_buffer = *buffer;
  m_prepared.push_back(launch);
  return *buffer;
}

bool DeviceLaunches::launch(uint64_t parameter_buffer) {
  const auto found = std::find_if(
      m_prepared.begin(), m_prepared.end(),
      [&](const DeviceLaunch& launch) { return launch.parameter_buffer == parameter_buffer; });
  if (found == m_prepared.end()) return false;
  m_launched.push_back(*found);
  m_prepared.erase(found);
  return true;
}

std::vector<DeviceLaunch> DeviceLaunches::take(DeviceHeap* heap) {
  if (heap)
    for (const DeviceLaunch& unlaunched : m_prepared) heap->release(unlaunched.parameter_buffer);
  m_prepared.clear();
  m_errors.clear();
  std::vector<DeviceLaunch> launched;
  launched.swap(m_launched);
  return launched;
}

uint32_t DeviceLaunches::last_error(uint64_t thread, bool clear) {
  const auto found = m_errors.find(thread);
  if (found == m_errors.end()) return 0;
  const uint32_t error = found->second;
  if (clear) m_errors.erase(found);
  return error;
}

std::string device_launch_fault(const Module& module, const std::string& parent,
                                const DeviceLaunch& child, const std::string& why) {
  const auto dims = [](const uint32_t(&d)[3]) {
    return "(" + std::to_string(d[0]) + "," + std::to_string(d[1]) + "," + std::to_string(d[2]) +
           ")";
  };
  return "kernel '" + demangle(parent) + "' launched '" +
         demangle(module.functions[child.function].name) + "' <<<" + dims(child.grid) + ", " +
         dims(child.block) + ">>> from the device: " + why;
}

}  // namespace ohmvp::gpu
