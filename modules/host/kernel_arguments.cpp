#include "modules/host/kernel_arguments.h"

#include <stdexcept>

#include "modules/gpu/ptx/ptx_names.h"
#include "modules/gpu/ptx/ptx_types.h"

namespace ohmvp {

KernelArguments::KernelArguments(const Runtime& runtime, Runtime::ModuleId module,
                                 const std::string& kernel)
    : m_kernel(runtime.kernel_signature(module, kernel)),
      m_slots(runtime.argument_layout(module, kernel)),
      m_block(runtime.argument_bytes(module, kernel), 0) {}

KernelArguments& KernelArguments::add_bytes(const void* data, uint64_t bytes) {
  if (m_next == m_slots.size())
    throw std::invalid_argument("kernel '" + m_kernel + "' takes " +
                                std::to_string(m_slots.size()) + " arguments; got more");
  const Runtime::ParamSlot& slot = m_slots[m_next];
  if (data == nullptr)
    throw std::invalid_argument("kernel '" + m_kernel + "' parameter " + std::to_string(m_next) +
                                " (" + slot.name + "): the value's pointer is null");
  if (slot.bytes != bytes)
    throw std::invalid_argument("kernel '" + m_kernel + "' parameter " + std::to_string(m_next) +
                                " (" + slot.name + ") is " + std::to_string(slot.bytes) +
                                (slot.bytes == 1 ? " byte" : " bytes") + "; got a value of " +
                                std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes"));
  std::memcpy(m_block.data() + slot.offset, data, bytes);
  ++m_next;
  return *this;
}

KernelArguments& KernelArguments::add_number(const void* data, uint64_t bytes, bool is_float,
                                             const std::string& type_name) {
  if (m_next < m_slots.size()) {
    const Runtime::ParamSlot& slot = m_slots[m_next];
    const bool declared_float = gpu::is_float(slot.type);
    const bool declared_integer = gpu::is_signed_int(slot.type) || gpu::is_unsigned_int(slot.type);
    if ((is_float && declared_integer) || (!is_float && declared_float))
      throw std::invalid_argument(
          "kernel '" + m_kernel + "' parameter " + std::to_string(m_next) + " (" + slot.name +
          ") is ." + std::string(gpu::type_name(slot.type)) + "; got a value of type " + type_name +
          " (expected " + (declared_float ? "a float" : "an integer") + " type)");
  }
  return add_bytes(data, bytes);
}

std::vector<uint8_t> KernelArguments::bytes() const {
  if (m_next != m_slots.size())
    throw std::invalid_argument("kernel '" + m_kernel + "' takes " +
                                std::to_string(m_slots.size()) + " arguments; got " +
                                std::to_string(m_next));
  return m_block;
}

}  // namespace ohmvp
