#pragma once

#include <cstdint>

namespace ohmvp {

// The SM <-> L2 crossbar, clocked with the GPU core, built from the platform's `gpu.crossbar`
// (Gpu). Modelling choices: an 8-cycle traversal, 32-byte ports (one sector per cycle) and 8
// packets buffered per output port.
struct CrossbarConfig {
  uint32_t latency = 8;           // core cycles from a packet's first byte in to its first out
  uint32_t bytes_per_cycle = 32;  // width of every port, both directions
  uint32_t queue_depth = 8;       // packets waiting at an output port, beyond those on the way
};

}  // namespace ohmvp
