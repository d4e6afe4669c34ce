#pragma once

#include <cstdint>

#include "modules/gpu/sector_cache.h"

namespace ohmvp::gpu {

// One L2 slice (one per memory channel), built from the platform's `gpu.l2` (Gpu). Defaults: the
// Ohm-GPU L2 (6 MB 8-way over 6 channels, PARAMETERS.md) gives 1 MiB per slice; line 128 B in
// 32-byte sectors as on Volta. The hit latency, MSHR entries and merges are modelling choices.
struct L2SliceConfig {
  SectorCacheGeometry cache{1024 * 1024, 8, 128, 32};
  uint32_t hit_latency = 100;  // core cycles from accepting a request to answering a hit
  uint32_t mshr_entries = 32;  // lines with a miss outstanding
  uint32_t max_merges = 8;     // secondary requests one MSHR holds besides the first
};

}  // namespace ohmvp::gpu
