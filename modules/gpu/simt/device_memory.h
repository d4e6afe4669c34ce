#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "modules/gpu/ptx/instruction.h"

namespace ohmvp::gpu {

// Device memory for the functional mode: separate allocations with unmapped gaps between them,
// so an access past an allocation's end faults instead of reaching its neighbour. Addresses
// start at `first_address` and stay far below the generic shared/local windows.
class DeviceMemory {
 public:
  static constexpr uint64_t first_address = 0x1'0000'0000ULL;
  static constexpr uint64_t guard_bytes = 4096;

  // Zero-filled. Throws ConfigError for 0 bytes or an alignment that is not a power of two.
  uint64_t allocate(uint64_t bytes, uint64_t alignment = 256);
  // Throws ConfigError unless `address` is the start of an allocation.
  void free(uint64_t address);

  // False (nothing done) unless [address, address + bytes) lies inside one allocation.
  bool read(uint64_t address, void* out, uint64_t bytes) const;
  bool write(uint64_t address, const void* in, uint64_t bytes);
  // Read-modify-write of one element (see atomic_alu.h); `old_value` receives what was there.
  bool atomic(uint64_t address, AtomicOp op, DataType type, uint64_t b, uint64_t c,
              uint64_t& old_value);

  bool mapped(uint64_t address, uint64_t bytes) const { return locate(address, bytes) != nullptr; }
  uint64_t allocated_bytes() const { return m_allocated; }

 private:
  const uint8_t* locate(uint64_t address, uint64_t bytes) const;

  std::map<uint64_t, std::vector<uint8_t>> m_allocations;
  uint64_t m_next = first_address;
  uint64_t m_allocated = 0;
};

}  // namespace ohmvp::gpu
