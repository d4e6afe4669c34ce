#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "modules/host/runtime.h"

namespace ohmvp {

// Packs a kernel's parameter block in the order and layout of its PTX .param list, checking
// each value's size against the parameter's: a host program's `args.add(device_ptr).add(n)`.
class KernelArguments {
 public:
  KernelArguments(const Runtime& runtime, Runtime::ModuleId module, const std::string& kernel);

  // A number is checked as add_number checks it (no conversion: 16.0f for an int parameter is
  // refused, as its bits would be taken for an integer); anything else as add_bytes.
  template <class T>
  KernelArguments& add(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>, "kernel arguments are plain bytes");
    if constexpr (std::is_arithmetic_v<T>) {
      constexpr bool is_float = std::is_floating_point_v<T>;
      const char kind = is_float ? 'f' : std::is_signed_v<T> ? 's' : 'u';
      return add_number(&value, sizeof(T), is_float, kind + std::to_string(sizeof(T) * 8));
    } else {
      return add_bytes(&value, sizeof(T));
    }
  }
  // The next parameter's bytes; std::invalid_argument when the size differs, none is left or
  // `data` is null.
  KernelArguments& add_bytes(const void* data, uint64_t bytes);
  // A number of `type_name` (`f32`, `u32`, ...) for the next parameter: as add_bytes, and a
  // float for an integer parameter (.u32, .s64, ...) or an integer for a float one is refused;
  // a bit-size parameter (.b32) takes either.
  KernelArguments& add_number(const void* data, uint64_t bytes, bool is_float,
                              const std::string& type_name);

  // The finished block; std::invalid_argument when parameters are missing.
  std::vector<uint8_t> bytes() const;
  size_t parameter_count() const { return m_slots.size(); }

 private:
  std::string m_kernel;
  std::vector<Runtime::ParamSlot> m_slots;
  std::vector<uint8_t> m_block;
  size_t m_next = 0;
};

}  // namespace ohmvp
