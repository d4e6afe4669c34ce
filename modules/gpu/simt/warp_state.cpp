#include "modules/gpu/simt/warp_state.h"

#include <algorithm>
#include <array>

namespace ohmvp::gpu {

WarpState::WarpState(const KernelLayout& layout, uint32_t warp_size)
    : m_layout(&layout),
      m_warp_size(warp_size),
      m_threads(warp_size),
      m_thread_rows(3 * size_t{warp_size}),
      m_exchange_rows(std::tuple_size_v<decltype(Instruction::operands)> * size_t{warp_size}),
      m_param_arena_bytes(layout.param_arena_bytes()) {
  m_frames.reserve(8);
}

void WarpState::rebind(const KernelLayout& layout) {
  m_layout = &layout;
  m_param_arena_bytes = layout.param_arena_bytes();
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
  if (m_registers.empty()) {
    m_registers.assign(register_words, 0);
  } else {
    m_registers.resize(register_words);
    if (zeroed_rows) {
      for (const uint32_t row : *zeroed_rows)
        std::fill_n(m_registers.begin() + uint64_t{row} * m_warp_size, m_warp_size, 0);
    } else {
      std::fill(m_registers.begin(), m_registers.end(), 0);
    }
  }
  m_param_arena.assign(m_param_arena_bytes * m_warp_size, 0);
  m_frames.clear();
  m_local_bases.resize(m_layout->module().functions.size());
  for (uint32_t f = 0; f < m_local_bases.size(); ++f)
    m_local_bases[f] = m_layout->local_frame_base(f);
  m_call_stack_top = m_layout->call_stack_base();
  m_saved_registers.clear();
  m_saved_blocks.clear();
  m_jumps_depth = 0;
  m_jumps_mask = 0;
  m_jumps = 0;
  m_paths_split = false;
  m_synchronising_yields = 0;
  m_stack.reset(0, m_valid);
  if (m_valid == 0) m_stack.reconverge();
  m_memory_pending = false;
  m_fault = DeviceFault{};
}

std::optional<uint64_t> WarpState::allocate_stack(uint64_t bytes, uint64_t alignment) {
  const uint64_t base = align_up(m_call_stack_top, alignment);
  const uint64_t end = m_layout->local_bytes_per_thread();
  if (base > end || end - base < bytes) return std::nullopt;
  m_call_stack_top = base + bytes;
  return base;
}

bool WarpState::restore_stack(uint64_t top) {
  if (top < m_layout->call_stack_base() || top > m_layout->local_bytes_per_thread()) return false;
  m_call_stack_top = top;
  return true;
}

bool WarpState::on_call_chain(uint32_t function) const {
  if (function == m_function) return true;
  for (const CallFrame& frame : m_frames)
    if (frame.caller == function) return true;
  return false;
}

bool WarpState::call(uint32_t callee, uint32_t call_pc) {
  CallFrame frame{m_function, call_pc, 0, m_call_stack_top};
  if (on_call_chain(callee)) {
    // 16-aligned as the frames are (an alloca before may have left the top anywhere).
    const std::optional<uint64_t> base = allocate_stack(m_layout->activation_bytes(callee), 16);
    if (!base) return false;
    frame.recursive = true;
    frame.outer_local_base = m_local_bases[callee];
    m_local_bases[callee] = *base;
    save_activation(callee);
  }
  const uint64_t lanes = m_stack.mask();
  m_stack.set_pc(call_pc + 1);
  frame.stack_base = static_cast<uint32_t>(m_stack.depth());
  m_frames.push_back(frame);
  m_stack.push({0, no_target, lanes});
  m_function = callee;
  m_register_base = m_layout->register_base(callee);
  return true;
}

// Every lane's, as lanes parked elsewhere in the outer activation keep their values there too.
// The call-site block is not saved: it carries this call's arguments in and its results out.
void WarpState::save_activation(uint32_t function) {
  const auto rows = m_registers.begin() + uint64_t{m_layout->register_base(function)} * m_warp_size;
  m_saved_registers.insert(
      m_saved_registers.end(), rows,
      rows + uint64_t{m_layout->module().functions[function].register_count} * m_warp_size);
  const uint64_t from = m_layout->function_params_offset(function);
  const uint64_t to = m_layout->function_blocks_end(function);
  for (uint32_t lane = 0; lane < m_warp_size; ++lane)
    m_saved_blocks.insert(m_saved_blocks.end(), param_arena(lane) + from, param_arena(lane) + to);
}

void WarpState::restore_activation(uint32_t function) {
  const uint64_t words =
      uint64_t{m_layout->module().functions[function].register_count} * m_warp_size;
  const auto saved_rows = m_saved_registers.end() - static_cast<std::ptrdiff_t>(words);
  std::copy(saved_rows, m_saved_registers.end(),
            m_registers.begin() + uint64_t{m_layout->register_base(function)} * m_warp_size);
  m_saved_registers.erase(saved_rows, m_saved_registers.end());
  const uint64_t from = m_layout->function_params_offset(function);
  const uint64_t bytes = m_layout->function_blocks_end(function) - from;
  auto saved = m_saved_blocks.end() - static_cast<std::ptrdiff_t>(bytes * m_warp_size);
  const auto first = saved;
  for (uint32_t lane = 0; lane < m_warp_size; ++lane, saved += static_cast<std::ptrdiff_t>(bytes))
    std::copy(saved, saved + static_cast<std::ptrdiff_t>(bytes), param_arena(lane) + from);
  m_saved_blocks.erase(first, m_saved_blocks.end());
}

void WarpState::return_lanes(uint64_t lanes) {
  m_stack.remove_lanes(lanes, frame_floor());
}

void WarpState::exit_lanes(uint64_t lanes) {
  m_exited |= lanes;
  m_stack.remove_lanes(lanes);
}

bool WarpState::loop_back() {
  const size_t floor = frame_floor();
  if (m_stack.depth() != m_jumps_depth || m_stack.mask() != m_jumps_mask) {
    m_jumps_depth = m_stack.depth();
    m_jumps_mask = m_stack.mask();
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
  const size_t floor = frame_floor();
  if ((members & live & ~m_stack.lanes_from(floor)) != 0) return Convergence::outside_function;
  const uint64_t before = m_stack.mask();
  m_stack.gather(floor);
  if (m_stack.mask() != before) return Convergence::gathered;
  if (++m_synchronising_yields <= m_stack.depth() && m_stack.yield(floor))
    return Convergence::yielded;
  m_synchronising_yields = 0;  // every path waits at one: none can join the others
  return Convergence::apart;
}

void WarpState::pass_parked_paths(uint64_t members) {
  std::array<std::pair<size_t, uint64_t>, 64> parked;
  size_t count = 0;
  for_each_parked_path(members, [&](size_t entry, uint64_t lanes, uint32_t) {
    parked[count++] = {entry, lanes};
  });
  // step_past inserts below the top, above every entry visited, so their indices hold.
  for (size_t i = 0; i < count; ++i) m_stack.step_past(parked[i].first, parked[i].second);
  m_stack.drop_empty_below_top(frame_floor());
}

void WarpState::pop_finished() {
  for (;;) {
    const size_t floor = frame_floor();
    m_stack.reconverge(floor);
    if (m_paths_split && !m_stack.empty() && m_stack.mask() == (m_valid & ~m_exited))
      m_paths_split = false;
    if (m_frames.empty() || m_stack.depth() > floor) return;
    const CallFrame& frame = m_frames.back();
    if (frame.recursive) {
      restore_activation(m_function);
      m_local_bases[m_function] = frame.outer_local_base;
    }
    m_call_stack_top = frame.call_stack_top;
    m_function = frame.caller;
    m_register_base = m_layout->register_base(m_function);
    m_frames.pop_back();
  }
}

}  // namespace ohmvp::gpu
