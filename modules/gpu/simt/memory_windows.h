#pragma once

#include <cstdint>

namespace ohmvp::gpu {

// Generic addresses (64-bit) select a state space by window, as on NVIDIA GPUs:
//   [shared_window_base, + shared_window_size): the CTA's shared memory, offset = address - base
//   [local_window_base, + local_window_size):   the thread's own .local storage
//   [param_window_base, + param_window_size):   the kernel's parameters (argument block), read
//                                               only: a __grid_constant__ parameter's address
//   anything else:                              global memory (device addresses)
// cvta.shared / .local / .param add the window base; cvta.to.<space> subtracts it.
// Device allocations never overlap the windows, nor the function addresses below them
// (function_address_base in ptx/program.h): DeviceMemory allocates below both.
//
// The constant bank has no window of its own: as on NVIDIA GPUs, where constant memory is
// device memory that ld.const reads through the constant cache, a copy of the bank lies in
// device memory after the module's .global variables (module_image.h), and a .const address
// there is a global one. cvta.const adds that copy's base (ExecutionContext::const_segment_base),
// cvta.to.const subtracts it, and a generic load of __constant__ data reads the copy through the
// caches like any global load. nvcc relies on this: it reads a pointer kept in __constant__
// memory with ld.global.
constexpr uint64_t shared_window_base = 0x0000'7e00'0000'0000ULL;
constexpr uint64_t shared_window_size = 0x0000'0001'0000'0000ULL;  // 4 GiB
constexpr uint64_t local_window_base = 0x0000'7f00'0000'0000ULL;
constexpr uint64_t local_window_size = 0x0000'0100'0000'0000ULL;  // 1 TiB
// Above the function addresses (function_address_base), below the shared window.
constexpr uint64_t param_window_base = 0x0000'7d80'0000'0000ULL;
constexpr uint64_t param_window_size = 0x0000'0001'0000'0000ULL;  // 4 GiB

// A .local address (0-based inside a thread's local storage) goes to device memory at
//   local_region_base + global_thread_index * local_stride + local address
// where global_thread_index = ctaid_linear * threads_per_cta + tid_linear and the region is one
// allocation the launcher makes (see ExecutionContext), so the timing model sends .local accesses
// through the caches and DRAM like global ones.

// Parameter-space addresses (what `mov %rd, param_symbol` yields): the kernel argument buffer is
// addressed from 0; a lane's parameter arena (.func arguments, returns, call-site .param blocks)
// from param_arena_tag.
constexpr uint64_t param_arena_tag = uint64_t{1} << 56;

}  // namespace ohmvp::gpu
