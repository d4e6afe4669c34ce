#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "modules/gpu/ptx/program.h"
#include "modules/gpu/simt/device_limits.h"

namespace ohmvp::gpu {

constexpr uint64_t align_up(uint64_t value, uint64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

// Where a parameter symbol's bytes live (see KernelLayout::param_address).
enum class ParamKind : uint8_t {
  not_param,
  kernel_argument,
  function_argument,
  function_return,
  call_site
};

// Everything the interpreter needs about one kernel of a module that does not change per
// warp, computed once per launch. Each function reachable from the kernel gets fixed slots: its
// registers in the warp's register file, its parameter/return/call-site blocks in each lane's
// parameter arena, and its .local frame in each thread's local region. A function called again
// while it is on the call chain (recursion) runs in the same slots: the warp keeps what the
// outer activation had there and gives the new one a .local frame on the thread's call stack
// (WarpState::call).
class KernelLayout {
 public:
  // Throws ConfigError for a kernel name the module lacks or a call to a function without a
  // body. `call_stack_bytes`: each thread's call stack, for a kernel that may recurse.
  KernelLayout(const Module& module, const std::string& kernel_name,
               uint64_t call_stack_bytes = DeviceLimits{}.stack_bytes);

  const Module& module() const { return *m_module; }
  uint32_t kernel_index() const { return m_kernel; }
  const Function& kernel() const { return m_module->functions[m_kernel]; }

  uint32_t total_registers() const { return m_total_registers; }
  uint32_t register_base(uint32_t function) const { return m_slots[function].register_base; }
  bool reachable(uint32_t function) const { return m_slots[function].reachable; }
  // Whether the kernel may call malloc or free: its launch needs the device heap.
  bool uses_heap() const { return m_uses_heap; }
  // Whether the kernel may launch kernels from the device (dynamic parallelism), or read their
  // errors.
  bool launches_kernels() const { return m_launches_kernels; }

  uint64_t param_arena_bytes() const { return m_param_arena_bytes; }
  uint64_t local_frame_base(uint32_t function) const { return m_slots[function].local_base; }
  // Bytes of .local storage one thread may use at most: every reachable function's frame, and
  // the call stack when the kernel needs one.
  uint64_t local_bytes_per_thread() const {
    return m_local_bytes + (has_call_stack() ? m_call_stack_bytes : 0);
  }

  // Whether a function the kernel reaches may call itself, directly or through others.
  bool recursive() const { return m_recursive; }
  // Whether a function the kernel reaches allocates on the stack (alloca, stacksave).
  bool uses_alloca() const { return m_uses_alloca; }
  bool has_call_stack() const { return m_recursive || m_uses_alloca; }
  // Each thread's call stack, after the frames: a recursive activation's .local frame and
  // call_overhead_bytes for its return address and frame link (a modelling choice), and what
  // alloca takes, until the function that took it returns.
  uint64_t call_stack_bytes() const { return m_call_stack_bytes; }
  static constexpr uint64_t call_overhead_bytes = 16;
  uint64_t call_stack_base() const { return m_local_bytes; }
  // Bytes of a recursive activation on the call stack.
  uint64_t activation_bytes(uint32_t function) const {
    return align_up(m_module->functions[function].local_bytes, 16) + call_overhead_bytes;
  }
  // A function's parameter and return blocks, [params offset, end), in each lane's arena: what a
  // recursive activation overwrites of the outer one's.
  uint64_t function_blocks_end(uint32_t function) const {
    return m_slots[function].call_site_offset;
  }

  uint64_t static_shared_bytes() const { return m_static_shared; }
  // `.extern .shared` arrays start here (Module::extern_shared_offset).
  uint64_t extern_shared_offset() const { return m_extern_shared; }

  ParamKind param_kind(uint32_t symbol) const { return m_param_kinds[symbol]; }
  // Offset of a parameter symbol's first byte: in the kernel argument buffer for
  // kernel_argument, else in the lane's parameter arena.
  uint64_t param_offset(uint32_t symbol) const { return m_param_offsets[symbol]; }
  uint64_t function_params_offset(uint32_t function) const {
    return m_slots[function].params_offset;
  }
  uint64_t function_returns_offset(uint32_t function) const {
    return m_slots[function].returns_offset;
  }

 private:
  struct Slot {
    bool reachable = false;
    uint32_t register_base = 0;
    uint64_t params_offset = 0, returns_offset = 0, call_site_offset = 0;
    uint64_t local_base = 0;
  };
  // Marks `function` and what it calls reachable. Below an indirect call (`through_pointer`)
  // the paths may never be taken (a vtable holds every virtual function of a class, a table
  // every entry): calls of functions without a body there are left to the interpreter, which
  // faults if one happens.
  void visit(uint32_t function, std::vector<uint8_t>& state, bool through_pointer);
  // Throws ConfigError naming the kernel, the instruction and why the model does not run it.
  [[noreturn]] void refuse_unsupported(const Function& function, uint32_t pc) const;

  const Module* m_module;
  uint32_t m_kernel = 0;
  std::vector<Slot> m_slots;
  std::vector<ParamKind> m_param_kinds;
  std::vector<uint64_t> m_param_offsets;
  uint32_t m_total_registers = 0;
  bool m_uses_heap = false;
  bool m_launches_kernels = false;
  bool m_recursive = false;
  bool m_uses_alloca = false;
  uint64_t m_call_stack_bytes = 0;
  uint64_t m_param_arena_bytes = 0;
  uint64_t m_local_bytes = 0;
  uint64_t m_static_shared = 0;
  uint64_t m_extern_shared = 0;
};

}  // namespace ohmvp::gpu
