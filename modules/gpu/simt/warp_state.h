#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "modules/gpu/simt/device_fault.h"
#include "modules/gpu/simt/execution_context.h"
#include "modules/gpu/simt/kernel_layout.h"
#include "modules/gpu/simt/memory_request.h"
#include "modules/gpu/simt/simt_stack.h"

namespace ohmvp::gpu {

// A call in progress: where the caller continues, how deep its SIMT entries reach and where
// the threads' call stack stood (what the callee takes of it, it gives back on return). A
// recursive one (the callee already on the call chain) also keeps what the callee's outer
// activation had in the slots they share: its registers and parameter/return blocks (saved on
// the warp's save stack) and its .local frame's place.
struct CallFrame {
  uint32_t caller = 0;      // function index
  uint32_t call_pc = 0;     // the call instruction in the caller
  uint32_t stack_base = 0;  // SIMT depth below the callee's entries
  uint64_t call_stack_top = 0;
  bool recursive = false;
  uint64_t outer_local_base = 0;  // recursive: the outer activation's .local frame
};

// The architectural state of one warp: lanes, registers, carry flags, SIMT stack, call frames,
// per-lane thread coordinates and parameter arenas. Sized once for a kernel (no allocation while
// it runs); `start` reuses it for another CTA or warp.
class WarpState {
 public:
  WarpState(const KernelLayout& layout, uint32_t warp_size);
  // For another kernel's launch: the storage is kept, so the register file is not made (and
  // zeroed whole) again.
  void rebind(const KernelLayout& layout);

  // Lanes 0..count-1 become threads first_thread..first_thread+count-1 (linear index in the CTA,
  // x fastest) of a CTA of shape `block`. The register file is zeroed whole at the first start;
  // at a later one, also after a rebind, only the rows in `zeroed_rows` when given (the rows a
  // thread may read before writing them, see registers_to_zero in
  // modules/gpu/register_zeroing.h), else whole again.
  void start(uint32_t warp_id, const Dim3& block, uint32_t first_thread,
             const std::vector<uint32_t>* zeroed_rows = nullptr);

  const KernelLayout& layout() const { return *m_layout; }
  uint32_t warp_size() const { return m_warp_size; }
  uint32_t warp_id() const { return m_warp_id; }
  uint64_t valid_lanes() const { return m_valid; }
  uint64_t exited_lanes() const { return m_exited; }
  uint64_t live_lanes() const { return m_valid & ~m_exited; }
  bool finished() const { return m_stack.empty(); }
  uint64_t active_mask() const { return m_stack.empty() ? 0 : m_stack.mask(); }
  uint32_t pc() const { return m_stack.pc(); }
  uint32_t function() const { return m_function; }
  const SimtStack& stack() const { return m_stack; }
  size_t call_depth() const { return m_frames.size(); }

  uint64_t& reg(uint32_t index, uint32_t lane) {
    return m_registers[(m_register_base + index) * m_warp_size + lane];
  }
  uint64_t reg(uint32_t index, uint32_t lane) const {
    return m_registers[(m_register_base + index) * m_warp_size + lane];
  }
  // Register `index`'s values of every lane, lane 0 first (what reg(index, lane) reads).
  uint64_t* row(uint32_t index) { return &m_registers[(m_register_base + index) * m_warp_size]; }
  bool carry(uint32_t lane) const { return (m_carry >> lane) & 1; }
  void set_carry(uint32_t lane, bool value) {
    m_carry = (m_carry & ~(uint64_t{1} << lane)) | (uint64_t{value} << lane);
  }

  const Dim3& thread(uint32_t lane) const { return m_threads[lane]; }
  // %tid's component (0: x, 1: y, else z) of every lane, lane 0 first.
  const uint64_t* thread_row(uint32_t component) const {
    return &m_thread_rows[std::min<uint32_t>(component, 2) * m_warp_size];
  }
  uint32_t thread_linear(uint32_t lane) const { return m_first_thread + lane; }

  uint8_t* param_arena(uint32_t lane) { return m_param_arena.data() + lane * m_param_arena_bytes; }
  uint64_t param_arena_bytes() const { return m_param_arena_bytes; }

  MemoryRequest& memory_request() { return m_request; }
  const MemoryRequest& memory_request() const { return m_request; }
  // The taps of the warp's last filtered texture fetch; made on first use (few kernels filter).
  TextureTaps& texture_taps() {
    if (!m_texture_taps) m_texture_taps = std::make_unique<TextureTaps>();
    return *m_texture_taps;
  }
  SharedAccess& shared_access() { return m_shared_access; }
  const SharedAccess& shared_access() const { return m_shared_access; }
  bool memory_pending() const { return m_memory_pending; }
  void set_memory_pending(bool pending) { m_memory_pending = pending; }

  const DeviceFault& fault() const { return m_fault; }
  void set_fault(const DeviceFault& fault) { m_fault = fault; }

  // Control flow (the interpreter's, after an instruction).
  void set_pc(uint32_t pc) { m_stack.set_pc(pc); }
  // True when the branch made the path yield (see loop_back).
  bool branch(uint64_t taken, uint32_t target, uint32_t fall_through, uint32_t reconvergence_pc) {
    const bool loops_back = taken == m_stack.mask() && target < fall_through;
    m_stack.branch(taken, target, fall_through, reconvergence_pc);
    return loops_back && loop_back();
  }
  // Enters `callee` with the active lanes; the caller resumes after `call_pc`. If the callee is
  // already on the call chain (recursion), its outer activation's registers and parameter and
  // return blocks are saved, to come back when this call's frame is popped, and the new one's
  // .local frame goes on each thread's call stack. False (nothing changed) when the call stack
  // has no room for it.
  bool call(uint32_t callee, uint32_t call_pc);
  // Where `function`'s .local frame lies in each thread's local storage in its current
  // activation.
  uint64_t local_frame_base(uint32_t function) const { return m_local_bases[function]; }

  // The threads' call stack (every lane's at the same offset of its own local storage): alloca
  // takes `bytes` at `alignment` from its top (none when it has no room), stacksave reads the
  // top, stackrestore sets it (false, nothing changed, for a value outside the stack).
  std::optional<uint64_t> allocate_stack(uint64_t bytes, uint64_t alignment);
  uint64_t stack_top() const { return m_call_stack_top; }
  bool restore_stack(uint64_t top);
  // `lanes` return from the current .func: they leave its entries and wait at the caller.
  void return_lanes(uint64_t lanes);
  // `lanes` exit the kernel.
  void exit_lanes(uint64_t lanes);
  // Pops reconverged entries and finished call frames; after it the top entry is what runs
  // next (none when every lane has exited). Inline: after most instructions there is nothing
  // to pop (the top entry has lanes, has not reached its reconvergence pc and is the current
  // function's).
  void reconverge() {
    if (!m_stack.empty()) {
      const SimtEntry& top = m_stack.top();
      if (top.mask != 0 && top.pc != top.reconvergence_pc &&
          (m_frames.empty() || m_stack.depth() > m_frames.back().stack_base))
        return;
    }
    pop_finished();
  }
  // The call instruction that entered the current .func (valid when call_depth() > 0).
  const CallFrame& current_frame() const { return m_frames.back(); }

  // Independent thread scheduling (sm_70 on): a path whose lanes all jump backward this many
  // times in a row, same lanes at the same stack depth (another set of lanes jumping starts the
  // count again), while other lanes wait, yields to the waiting lanes (SimtStack::yield). Jumps
  // to any target count, so that a spin loop with a loop inside it (a lock's backoff) yields too. A
  // lane spinning on a lock that a lane of its own warp holds thereby lets the holder run. A
  // modelling choice (the hardware's yield points are not documented): loops whose lanes leave at
  // different trip counts reconverge at their exit as under the stack alone, as the compiler's
  // convergence barriers make them on the hardware, unless one set of lanes loops 256 times on its
  // own; a contended lock changes hands after 256 turns of the spin loop.
  static constexpr uint32_t yield_after_jumps = 256;

  // Whether a yield has separated paths that have not all met again since (at a synchronising
  // instruction or when the stack pops back to one entry holding every lane).
  bool paths_split() const { return m_paths_split; }
  // An instruction that synchronises nothing ran while paths_split(): see converge.
  void note_unsynchronised_step() { m_synchronising_yields = 0; }

  // What an instruction that synchronises `members` (a CTA barrier or a tensor-core instruction:
  // every lane; shfl.sync, vote.sync, redux.sync, bar.warp.sync: their member mask) does after a
  // yield, as each thread does on sm_70: it runs once every member lane that has not exited is
  // on the executing path. Paths parked at the same instruction (same pc and reconvergence pc)
  // join the top one (SimtStack::gather): `gathered`, step again. Members still elsewhere: the
  // path yields to them and comes back to the instruction later (`yielded`). Once every path
  // has yielded at such an instruction in turn (paths parked at different barriers or
  // warp-synchronous instructions, which may not join: `apart`), the path runs the instruction
  // without the others, or the interpreter refuses it where it would read their registers.
  // Members outside the current function's paths (the warp is in a call
  // the others did not make): `outside_function`.
  enum class Convergence : uint8_t { ready, gathered, yielded, apart, outside_function };
  Convergence converge(uint64_t members);

  // The same without a yield, where the SIMT stack runs an if/else's (or switch's) arms one
  // after another (docs/gpu_simt.md): an instruction that synchronises `members` with lanes of
  // the executing path's siblings (for_each_parked_path) waits for them, as each thread does on
  // sm_70. `run_siblings`: a sibling holding members does not wait where it is (`waits_at`
  // false: it is still on its way, or its instruction does not wait for other paths), so it
  // goes to the top of the stack (SimtStack::raise) and runs first. `met`: every sibling
  // holding members waits at a warp-synchronous instruction; `alone`: none holds members (they
  // wait at the join or have exited), and the path runs the instruction with its own lanes.
  enum class SiblingWait : uint8_t { alone, run_siblings, met };
  template <class WaitsAt>
  SiblingWait wait_for_siblings(uint64_t members, WaitsAt waits_at) {
    bool waiting = false;
    size_t runnable = m_stack.depth();
    for_each_parked_path(members, [&](size_t entry, uint64_t lanes, uint32_t pc) {
      waiting = true;
      if (runnable == m_stack.depth() && !waits_at(lanes, pc)) runnable = entry;
    });
    if (runnable != m_stack.depth()) {
      m_stack.raise(runnable);
      return SiblingWait::run_siblings;
    }
    return waiting ? SiblingWait::met : SiblingWait::alone;
  }
  // The paths of the current function other than the executing one that hold lanes of
  // `members`: visit(entry, lanes, pc) for each stack entry that is the place of some lanes (the
  // topmost entry holding them), `lanes` those. Without a yield, the paths still on their way:
  // an if/else's other arms, a switch's other cases, and those of every branch the executing
  // path is nested in, less lanes that wait at a join (at_join). After one (converge gave
  // `apart`), every path.
  template <class Visit>
  void for_each_parked_path(uint64_t members, Visit visit) const {
    uint64_t above = m_stack.mask();
    for (size_t i = m_stack.depth() - 1; i-- > frame_floor();) {
      const SimtEntry& entry = m_stack.at(i);
      const uint64_t lanes = entry.mask & ~above;
      above |= entry.mask;
      if ((lanes & members) != 0 && (m_paths_split || !at_join(i))) visit(i, lanes, entry.pc);
    }
  }
  // After those paths met the executing one at their own instructions: they go on past them
  // (SimtStack::step_past).
  void pass_parked_paths(uint64_t members);
  // Scratch rows (one per operand, a value per lane) for an exchange that meets across arms:
  // each lane's operands as its own instruction reads them.
  uint64_t* exchange_row(unsigned operand) { return &m_exchange_rows[operand * m_warp_size]; }

 private:
  // Whether the lanes whose place is stack entry `index` wait at a join: an entry above it (a
  // branch's arms, a loop's body) reconverges where it stands.
  bool at_join(size_t index) const {
    for (size_t i = index + 1; i < m_stack.depth(); ++i)
      if (m_stack.at(i).reconvergence_pc == m_stack.at(index).pc) return true;
    return false;
  }
  // The stack depth below the current function's entries (0 outside any call).
  size_t frame_floor() const { return m_frames.empty() ? 0 : m_frames.back().stack_base; }
  void pop_finished();
  bool on_call_chain(uint32_t function) const;
  void save_activation(uint32_t function);
  void restore_activation(uint32_t function);
  bool loop_back();

  const KernelLayout* m_layout;
  uint32_t m_warp_size;
  uint32_t m_warp_id = 0;
  uint32_t m_first_thread = 0;
  uint64_t m_valid = 0;
  uint64_t m_exited = 0;
  uint64_t m_carry = 0;
  uint32_t m_function = 0;
  uint32_t m_register_base = 0;
  std::vector<uint64_t> m_registers;
  std::vector<Dim3> m_threads;
  std::vector<uint64_t> m_thread_rows;  // m_threads' x, y and z, each a row of lanes
  std::vector<uint64_t> m_exchange_rows;
  std::vector<uint8_t> m_param_arena;
  uint64_t m_param_arena_bytes = 0;
  SimtStack m_stack;
  size_t m_jumps_depth = 0;  // the path that loop_back counts for: its depth and lanes
  uint64_t m_jumps_mask = 0;
  uint32_t m_jumps = 0;
  bool m_paths_split = false;
  size_t m_synchronising_yields = 0;  // yields at synchronising instructions in a row
  std::vector<CallFrame> m_frames;
  // Recursion: each function's current .local frame, the top of the threads' call stack, and
  // the outer activations' registers and parameter/return blocks, innermost last.
  std::vector<uint64_t> m_local_bases;
  uint64_t m_call_stack_top = 0;
  std::vector<uint64_t> m_saved_registers;
  std::vector<uint8_t> m_saved_blocks;
  MemoryRequest m_request;
  std::unique_ptr<TextureTaps> m_texture_taps;
  SharedAccess m_shared_access;
  bool m_memory_pending = false;
  DeviceFault m_fault;
};

}  // namespace ohmvp::gpu
