#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "modules/gpu/ptx/ptx_types.h"

namespace ohmvp::gpu {

enum class FaultKind : uint8_t {
  none,
  misaligned_address,  // address not a multiple of the access size
  out_of_window,       // outside the shared, local, param or const storage
  unmapped_address,    // global address no allocation covers (reported by the memory)
  trap,                // trap instruction
  breakpoint,          // brkpt instruction
  unsupported,         // an instruction/type combination the interpreter does not execute
  invalid_texture,     // texture handle not bound
  texture_geometry,    // tex.1d on a 2-D texture, or tex.2d on a 1-D one
  bad_control_flow,    // pc past the end of a function, a call to no function
  assertion,           // assert() failed: a call of __assertfail
  stack_overflow,      // recursion beyond the thread's call stack
  invalid_surface,     // suld/sust on a handle that is no bound surface
  surface_bounds,      // suld/sust.trap outside the surface
  invalid_launch,      // a kernel launch from the device that cannot run (dynamic parallelism)
  invalid_barrier,     // bar/barrier with an id past 15 or a thread count no warp multiple
};

const char* fault_kind_name(FaultKind kind);

// A device fault stops the kernel. `lane` is the first faulting lane; pc is the instruction
// index in `function` (Module::functions).
struct DeviceFault {
  FaultKind kind = FaultKind::none;
  uint32_t function = 0;
  uint32_t pc = 0;
  uint32_t lane = 0;
  uint64_t address = 0;
  StateSpace space = StateSpace::generic;
  const char* detail = "";  // static text

  // FaultKind::assertion: what __assertfail received, its texts as module symbols (indices into
  // Module::symbols; no_symbol where a pointer is no module string) and the source line.
  static constexpr uint32_t no_symbol = UINT32_MAX;
  struct AssertionSite {
    uint32_t expression = no_symbol;
    uint32_t file = no_symbol;
    uint32_t function = no_symbol;
    uint32_t line = 0;
  } assertion;

  // The address of an unmapped or misaligned global (or generic) access; none for other faults.
  std::optional<uint64_t> global_address() const;
};

struct Module;
struct Dim3;
struct ExecutionContext;

// "kernel 'k' (file.ptx:42, pc 7 in 'f'): misaligned address 0x... (global) at CTA (1,0,0)
// thread (5,0,0)"; `context` is the faulting thread's CTA's.
std::string describe_fault(const DeviceFault& fault, const Module& module,
                           const std::string& kernel, const ExecutionContext& context,
                           const Dim3& thread);

}  // namespace ohmvp::gpu
