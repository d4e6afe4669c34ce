#pragma once

#include <cstdint>

namespace ohmvp {

// One address space spread over N channels in blocks of `interleave_bytes`: channel =
// (address / interleave) mod N, and the channel sees the address with that digit removed.
// Shared by the channel interleaver and the GPU crossbar, so that L2 slice i holds exactly the
// lines of memory channel i.
struct InterleaveMap {
  uint32_t channels = 1;
  uint64_t interleave_bytes = 256;

  uint32_t channel_of(uint64_t address) const {
    return static_cast<uint32_t>((address / interleave_bytes) % channels);
  }
  uint64_t local_address(uint64_t address) const {
    return (address / (interleave_bytes * channels)) * interleave_bytes +
           address % interleave_bytes;
  }
  uint64_t global_address(uint32_t channel, uint64_t local) const {
    return ((local / interleave_bytes) * channels + channel) * interleave_bytes +
           local % interleave_bytes;
  }
};

}  // namespace ohmvp
