#pragma once

#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "modules/gpu/simt/device_memory.h"
#include "modules/gpu/simt/functional_executor.h"

// Launch and memory helpers of the functional executor's tests.
namespace ohmvp::gpu::test {

template <class T>
inline void put(std::vector<uint8_t>& bytes, size_t offset, T value) {
  if (bytes.size() < offset + sizeof(T)) bytes.resize(offset + sizeof(T));
  std::memcpy(bytes.data() + offset, &value, sizeof(T));
}

// A launch of `kernel` as one CTA of `threads`, the pointers its arguments in order.
inline LaunchParams one_cta(const std::string& kernel, uint32_t threads,
                            std::initializer_list<uint64_t> pointers) {
  LaunchParams launch;
  launch.kernel = kernel;
  launch.grid = {1, 1, 1};
  launch.block = {threads, 1, 1};
  for (const uint64_t pointer : pointers) put(launch.arguments, launch.arguments.size(), pointer);
  return launch;
}

// A new allocation holding `values`; its device address.
template <class T>
inline uint64_t upload(DeviceMemory& memory, const std::vector<T>& values) {
  const uint64_t address = memory.allocate(values.size() * sizeof(T));
  REQUIRE(memory.write(address, values.data(), values.size() * sizeof(T)));
  return address;
}

// `count` values of T at a device address.
template <class T>
inline std::vector<T> download(DeviceMemory& memory, uint64_t address, size_t count) {
  std::vector<T> values(count);
  REQUIRE(memory.read(address, values.data(), count * sizeof(T)));
  return values;
}

}  // namespace ohmvp::gpu::test
