#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>

namespace ohmvp {

// Hands out device memory like cudaMalloc: first fit over the device's address range, every
// block aligned to `alignment` bytes (256, as cudaMalloc guarantees). The range starts above
// address 0 so that a null or small pointer is never a valid device address.
class DeviceAllocator {
 public:
  struct Block {
    uint64_t address = 0;
    uint64_t bytes = 0;  // as requested
  };

  // Manages [base, end). Throws std::invalid_argument for an empty range or an alignment that
  // is not a power of two.
  DeviceAllocator(uint64_t base, uint64_t end, uint64_t alignment = 256);

  // Throws std::bad_alloc-derived OutOfDeviceMemory when no free range fits; `bytes` of 0 gets a
  // block of one alignment unit, like cudaMalloc(0) gives a distinct pointer.
  uint64_t allocate(uint64_t bytes);
  // Throws std::invalid_argument for an address that allocate() did not return.
  void free(uint64_t address);

  // Frees every block but those starting at an address in `keep`.
  void free_all_but(const std::set<uint64_t>& keep);

  // The live block containing [address, address + bytes), if any.
  std::optional<Block> find(uint64_t address, uint64_t bytes = 1) const;

  uint64_t bytes_in_use() const { return m_in_use; }
  uint64_t capacity() const { return m_end - m_base; }

 private:
  // The alignment units a block of `bytes` takes: 1 for 0 bytes.
  uint64_t units_of(uint64_t bytes) const;

  uint64_t m_base, m_end, m_alignment;
  uint64_t m_in_use = 0;
  std::map<uint64_t, uint64_t> m_free;  // address -> bytes, coalesced
  std::map<uint64_t, Block> m_live;     // address -> block
};

class OutOfDeviceMemory : public std::bad_alloc {
 public:
  explicit OutOfDeviceMemory(std::string message) : m_message(std::move(message)) {}
  const char* what() const noexcept override { return m_message.c_str(); }

 private:
  std::string m_message;
};

}  // namespace ohmvp
