#pragma once

#include <cstdint>

namespace ohmvp {

// One address space spread over N channels in blocks of `interleave_bytes`: channel =
// (offset / interleave) mod N, and the channel sees the offset with that digit removed, where the
// offset is the address less `base`, the space's first address (a multiple of interleave_bytes;
// addresses below it are not in the space). Shared by the channel interleaver and the GPU
// crossbar, so that L2 slice i holds exactly the lines of memory channel i.
struct InterleaveMap {
  uint32_t channels = 1;
  uint64_t interleave_bytes = 256;
  uint64_t base = 0;

  uint32_t channel_of(uint64_t address) const {
    return static_cast<uint32_t>(((address - base) / interleave_bytes) % channels);
  }
  uint64_t local_address(uint64_t address) const {
    const uint64_t offset = address - base;
    return (offset / (interleave_bytes * channels)) * interleave_bytes + offset % interleave_bytes;
  }
  uint64_t global_address(uint32_t channel, uint64_t local) const {
    return base + ((local / interleave_bytes) * channels + channel) * interleave_bytes +
           local % interleave_bytes;
  }
};

}  // namespace ohmvp
