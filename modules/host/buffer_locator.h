#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ohmvp {

// A host buffer as a device fault message names it.
struct LocatedBuffer {
  std::string name;
  uint64_t address = 0;
  uint64_t count = 0;  // elements
  uint32_t element_bytes = 1;
  std::string element_type;  // "f32"
};

// Where `address` lies against the nearest of `buffers`: "element 12 of buffer 'c' (8192 f32 at
// 0x20000), byte 2 of it", "just past the end of buffer 'c' (...), where its element 8192 would
// be", "256 bytes before buffer 'a' (...)"; "below every buffer: a null pointer?" under 4 KiB.
// Empty when there are no buffers.
std::string locate_address(uint64_t address, const std::vector<LocatedBuffer>& buffers);

}  // namespace ohmvp
