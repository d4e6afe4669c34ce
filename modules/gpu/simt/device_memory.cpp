#include "modules/gpu/simt/device_memory.h"

#include <cstring>

#include "modules/common/errors.h"
#include "modules/common/power_of_two.h"
#include "modules/gpu/ptx/atomic_alu.h"
#include "modules/gpu/simt/kernel_layout.h"
#include "modules/gpu/simt/memory_windows.h"

namespace ohmvp::gpu {

uint64_t DeviceMemory::allocate(uint64_t bytes, uint64_t alignment) {
  if (bytes == 0) throw ConfigError("device allocation of 0 bytes");
  if (!is_power_of_two(alignment))
    throw ConfigError("device allocation alignment " + std::to_string(alignment) +
                      " is not a power of two");
  const uint64_t address = align_up(m_next, alignment);
  if (address + bytes + guard_bytes >= function_address_base)  // data stays below it
    throw ConfigError("device memory exhausted allocating " + std::to_string(bytes) + " bytes");
  m_allocations.emplace(address, std::vector<uint8_t>(bytes, 0));
  m_next = address + bytes + guard_bytes;
  m_allocated += bytes;
  return address;
}

void DeviceMemory::free(uint64_t address) {
  const auto it = m_allocations.find(address);
  if (it == m_allocations.end())
    throw ConfigError("free of a device address that is not an allocation");
  m_allocated -= it->second.size();
  m_allocations.erase(it);
}

const uint8_t* DeviceMemory::locate(uint64_t address, uint64_t bytes) const {
  auto it = m_allocations.upper_bound(address);
  if (it == m_allocations.begin()) return nullptr;
  --it;
  const uint64_t offset = address - it->first;
  if (offset > it->second.size() || it->second.size() - offset < bytes) return nullptr;
  return it->second.data() + offset;
}

bool DeviceMemory::read(uint64_t address, void* out, uint64_t bytes) const {
  const uint8_t* data = locate(address, bytes);
  if (!data) return false;
  std::memcpy(out, data, bytes);
  return true;
}

bool DeviceMemory::write(uint64_t address, const void* in, uint64_t bytes) {
  uint8_t* data = const_cast<uint8_t*>(locate(address, bytes));
  if (!data) return false;
  std::memcpy(data, in, bytes);
  return true;
}

bool DeviceMemory::atomic(uint64_t address, AtomicOp op, DataType type, uint64_t b, uint64_t c,
                          uint64_t& old_value) {
  const size_t size = type_bytes(type);
  uint8_t* data = const_cast<uint8_t*>(locate(address, size));
  if (!data || !atomic_supported(op, type)) return false;
  old_value = 0;
  std::memcpy(&old_value, data, size);
  const uint64_t result = atomic_result(op, type, old_value, b, c, AtomicMemory::global);
  std::memcpy(data, &result, size);
  return true;
}

}  // namespace ohmvp::gpu
