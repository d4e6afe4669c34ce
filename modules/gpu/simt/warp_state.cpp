#include "modules/gpu/simt/warp_state.h"

#include <algorithm>

namespace ohmvp::gpu {

WarpState::WarpState(const KernelLayout& layout, uint32_t warp_size)
    : m_layout(&layout),
      m_warp_size(warp_size),
      m_threads(warp_size),
      m_thread_rows(3 * size_t{warp_size}),
      m_param_arena_bytes(layout.param_arena_bytes()) {
  m_frames.reserve(8);
}

void WarpState::start(uint32_t warp_id, const Dim3& block, uint32_t first_thread,
                      const std::vector<uint32_t>* zeroed_rows) {
  m_warp_id = warp_id;
  m_first_thread = first_thread;
  const uint64_t threads = block.count();
  const uint64_t count =
      first_thread >= threads ? 0 : std::min<uint64_t>(m_warp_size, threads - first_thread);
  m_valid = count >= 64 ? ~uint64_t{0} : (uint64_t{1} << count) - 1;
  for (uint32_t lane = 0; lane < m_warp_size; ++lane) {
    const uint64_t linear = first_thread + lane;
    m_threads[lane] = {static_cast<uint32_t>(linear % block.x),
                       static_cast<uint32_t>(linear / block.x % block.y),
                       static_cast<uint32_t>(linear / (uint64_t{block.x} * block.y))};
    m_thread_rows[lane] = m_threads[lane].x;
    m_thread_rows[m_warp_size + lane] = m_threads[lane].y;
    m_thread_rows[2 * m_warp_size + lane] = m_threads[lane].z;
  }
  m_exited = 0;
  m_carry = 0;
  m_function = m_layout->kernel_index();
  m_register_base = m_layout->register_base(m_function);
  // Allocated at the first start (an SM sizes more warp slots than most kernels fill).
  const uint64_t register_words = uint64_t{m_layout->total_registers()} * m_warp_size;
  if (zeroed_rows && m_registers.size() == register_words) {
    for (const uint32_t row : *zeroed_rows)
      std::fill_n(m_registers.begin() + uint64_t{row} * m_warp_size, m_warp_size, 0);
  } else {
    m_registers.assign(register_words, 0);
  }
  m_param_arena.assign(m_param_arena_bytes * m_warp_size, 0);
  m_frames.clear();
  m_jumps_depth = 0;
  m_jumps_mask = 0;
  m_jumps_target = 0;
  m_jumps = 0;
  m_paths_split = false;
  m_synchronising_yields = 0;
  m_stack.reset(0, m_valid);
  if (m_valid == 0) m_stack.reconverge();
  m_memory_pending = false;
  m_fault = DeviceFault{};
}

bool WarpState::call(uint32_t callee, uint32_t call_pc) {
  if (callee == m_function) return false;
  for (const CallFrame& frame : m_frames)
    if (frame.caller == callee) return false;
  const uint64_t lanes = m_stack.mask();
  m_stack.set_pc(call_pc + 1);
  m_frames.push_back({m_function, call_pc, static_cast<uint32_t>(m_stack.depth())});
  m_stack.push({0, no_target, lanes});
  m_function = callee;
  m_register_base = m_layout->register_base(callee);
  return true;
}

void WarpState::return_lanes(uint64_t lanes) {
  m_stack.remove_lanes(lanes, m_frames.empty() ? 0 : m_frames.back().stack_base);
}

void WarpState::exit_lanes(uint64_t lanes) {
  m_exited |= lanes;
  m_stack.remove_lanes(lanes);
}

bool WarpState::loop_back(uint32_t target) {
  const size_t floor = m_frames.empty() ? 0 : m_frames.back().stack_base;
  if (m_stack.depth() != m_jumps_depth || m_stack.mask() != m_jumps_mask ||
      target != m_jumps_target) {
    m_jumps_depth = m_stack.depth();
    m_jumps_mask = m_stack.mask();
    m_jumps_target = target;
    m_jumps = 0;
  }
  if (m_stack.depth() <= floor + 1 || ++m_jumps < yield_after_jumps) return false;
  m_jumps = 0;
  if (!m_stack.yield(floor)) return false;
  m_paths_split = true;
  return true;
}

WarpState::Convergence WarpState::converge(uint64_t members) {
  const uint64_t live = m_valid & ~m_exited;
  if ((members & live & ~m_stack.mask()) == 0) {
    if (m_stack.mask() == live) m_paths_split = false;
    m_synchronising_yields = 0;
    return Convergence::ready;
  }
  const size_t floor = m_frames.empty() ? 0 : m_frames.back().stack_base;
  if ((members & live & ~m_stack.lanes_from(floor)) != 0) return Convergence::outside_function;
  const uint64_t before = m_stack.mask();
  m_stack.gather(floor);
  if (m_stack.mask() != before) return Convergence::gathered;
  if (++m_synchronising_yields <= m_stack.depth() && m_stack.yield(floor))
    return Convergence::yielded;
  m_synchronising_yields = 0;  // every path waits at one: none can join the others
  return Convergence::ready;
}

void WarpState::pop_finished() {
  for (;;) {
    const size_t floor = m_frames.empty() ? 0 : m_frames.back().stack_base;
    m_stack.reconverge(floor);
    if (m_paths_split && !m_stack.empty() && m_stack.mask() == (m_valid & ~m_exited))
      m_paths_split = false;
    if (m_frames.empty() || m_stack.depth() > floor) return;
    m_function = m_frames.back().caller;
    m_register_base = m_layout->register_base(m_function);
    m_frames.pop_back();
  }
}

}  // namespace ohmvp::gpu
