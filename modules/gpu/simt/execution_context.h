#pragma once

#include <cstddef>
#include <cstdint>

#include "modules/gpu/simt/device_heap.h"
#include "modules/gpu/simt/device_launches.h"
#include "modules/gpu/simt/device_printf.h"
#include "modules/gpu/simt/fragment_layout.h"
#include "modules/gpu/simt/kernel_layout.h"
#include "modules/gpu/simt/texture.h"

namespace ohmvp::gpu {

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  uint64_t count() const { return uint64_t{x} * y * z; }
};

// What a warp's instructions see of the launch and its CTA. The caller owns every buffer and
// keeps it alive while the warp runs; `clock` and `globaltimer_ns` are updated by the caller
// (cycle counter of the SM, simulated time) before each step.
struct ExecutionContext {
  const KernelLayout* layout = nullptr;

  const uint8_t* kernel_arguments = nullptr;
  size_t kernel_argument_bytes = 0;
  uint8_t* shared = nullptr;  // the CTA's shared memory: static, then dynamic bytes
  size_t shared_bytes = 0;
  uint32_t dynamic_shared_bytes = 0;
  const uint8_t* const_bank = nullptr;
  size_t const_bytes = 0;
  uint64_t global_segment_base = 0;  // device address of the module's .global variables
  uint64_t const_segment_base = 0;   // device address of the constant bank's copy

  uint64_t local_region_base = 0;  // see memory_windows.h
  uint64_t local_stride = 0;

  const TextureTable* textures = nullptr;
  PrintfBuffer* printf_buffer = nullptr;  // where printf's text goes; null: printf faults
  DeviceHeap* heap = nullptr;             // malloc/free's; null: they fault
  // Where the grid's device launches (dynamic parallelism) are recorded; null: they fault.
  DeviceLaunches* device_launches = nullptr;
  // Which lanes hold which elements of a wmma fragment: the GPU's architecture.
  FragmentMapping fragment_mapping = FragmentMapping::volta;

  Dim3 grid, block, cta;
  uint32_t cta_linear = 0;
  uint32_t sm_id = 0, sm_count = 1;
  uint32_t grid_id = 0;

  uint64_t clock = 0;
  uint64_t globaltimer_ns = 0;

  // A cooperative launch's grid workspace (cooperative groups' {size, barrier} words that
  // this_grid().sync() counts arrivals in), read through %envreg1 (high word) and %envreg2 (low
  // word) as the CUDA driver passes it; 0 for any other launch, so is_valid() is false there.
  uint64_t grid_workspace = 0;

  // The shared-memory banks, for the bank check that ld/st.shared of one register per lane make
  // on the addresses they compute (see SharedAccess::one_pass): log2 of the bank width and
  // banks - 1, or bank_width_shift 0 when the SM's geometry leaves the check to its own model
  // (banks or width not a power of two, or fewer banks than lanes in a warp).
  uint32_t bank_width_shift = 0;
  uint64_t bank_mask = 0;
};

}  // namespace ohmvp::gpu
