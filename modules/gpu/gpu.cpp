#include "modules/gpu/gpu.h"

#include <algorithm>
#include <tuple>

#include "modules/common/errors.h"
#include "modules/common/sim_time.h"
#include "modules/gpu/occupancy.h"
#include "modules/gpu/register_pressure.h"
#include "modules/gpu/register_zeroing.h"
#include "modules/gpu/simt/launch_bounds.h"

namespace ohmvp::gpu {

struct Gpu::Totals {
  Totals(StatsRegistry& stats, const std::string& g)
      : cycles(stats.counter(g, "cycles", "cycles", "core cycles of all launches")),
        launches(stats.counter(g, "launches", "launches", "kernel launches completed")),
        warp_instructions(
            stats.counter(g, "warp_instructions", "instructions", "warp instructions issued")),
        thread_instructions(stats.counter(g, "thread_instructions", "instructions",
                                          "lanes whose guard held, over issued instructions")),
        ipc(stats.scalar(g, "ipc", "instructions/cycle",
                         "warp instructions per core cycle, all SMs together")),
        simd_efficiency(stats.scalar(g, "simd_efficiency", "ratio",
                                     "active lanes at issue / (warp size x warp instructions)")),
        l1_hit_rate(stats.scalar(g, "l1_hit_rate", "ratio", "L1 line accesses that hit")),
        l2_hit_rate(stats.scalar(g, "l2_hit_rate", "ratio",
                                 "L2 requests, all slices, that found every sector they needed")),
        memory_latency(stats.histogram(g, "memory_latency", "cycles",
                                       "issue to completion of a global/local/texture access")),
        load_latency(
            stats.histogram(g, "load_latency", "cycles",
                            "issue to data of a global/local load, texture fetch or atomic")),
        wmma_load_latency(stats.histogram(g, "wmma_load_latency", "cycles",
                                          "issue of a wmma.load to its fragment written")),
        wmma_store_latency(stats.histogram(g, "wmma_store_latency", "cycles",
                                           "issue of a wmma.store to its last access done")),
        wmma_mma_latency(stats.histogram(g, "wmma_mma_latency", "cycles",
                                         "issue of a wmma.mma or mma.sync to D written")),
        hmma(stats.counter(g, "hmma", "instructions",
                           "HMMA steps of the tensor-core matrix multiplies, all SMs")),
        tensor_tflops(stats.scalar(g, "tensor_tflops", "TFLOPS",
                                   "2 x multiply-adds of the matrix multiplies / kernel time")),
        tensor_utilization(
            stats.scalar(g, "tensor_utilization", "ratio",
                         "tensor-core busy cycles / (cycles x sub-cores of all SMs)")) {
    for (size_t r = 0; r < k_stall_reasons; ++r) {
      const auto reason = StallReason(r);
      const std::string name = reason == StallReason::issued
                                   ? "issue_cycles"
                                   : std::string("stall_") + stall_name(reason);
      stalls[r] = &stats.scalar(g, name, "cycles", "sum over every sub-core of its " + name);
    }
  }
  Counter& cycles;
  Counter& launches;
  Counter& warp_instructions;
  Counter& thread_instructions;
  Scalar& ipc;
  Scalar& simd_efficiency;
  Scalar& l1_hit_rate;
  Scalar& l2_hit_rate;
  Histogram& memory_latency;
  Histogram& load_latency;
  Histogram& wmma_load_latency;
  Histogram& wmma_store_latency;
  Histogram& wmma_mma_latency;
  Counter& hmma;
  Scalar& tensor_tflops;
  Scalar& tensor_utilization;
  std::array<Scalar*, k_stall_reasons> stalls{};
};

// A grid on the GPU: what its SMs read, its printf output, when it started.
struct Gpu::Running {
  Running(std::unique_ptr<LaunchState> launch, LaunchDone on_done, PrintfBuffer::Reader reader)
      : state(std::move(launch)), done(std::move(on_done)), printf(std::move(reader)) {}
  std::unique_ptr<LaunchState> state;
  LaunchDone done;
  PrintfBuffer printf;
  // The first cycle after the GPU took it; for a grid whose CTAs waited for room the earlier
  // grids held, the cycle its first CTA went to an SM.
  uint64_t start_cycle = 0;
  bool dispatched = false;  // a CTA has gone to an SM
  bool waited = false;      // a dispatch found no room for its first CTA
};

namespace {

uint64_t period_ps_of(const GpuConfig& config) {
  return config.core_period_ps();
}

L2SliceConfig slice_config(const GpuConfig& config, uint32_t channels) {
  // One slice per memory channel: a channel's `slices_per_channel` slices of the config are
  // modelled as one slice of their joint size and MSHRs.
  const L2CacheConfig& l2 = config.l2;
  L2SliceConfig slice;
  slice.cache.size_bytes = l2.slice_bytes(channels, "gpu.l2") * l2.slices_per_channel;
  slice.cache.ways = l2.ways;
  slice.cache.line_bytes = l2.line_bytes;
  slice.cache.sector_bytes = l2.sector_bytes;
  slice.hit_latency = l2.hit_latency;
  slice.mshr_entries = l2.mshrs_per_slice * l2.slices_per_channel;
  return slice;
}

ohmvp::CrossbarConfig crossbar_config(const GpuConfig& config) {
  ohmvp::CrossbarConfig crossbar;
  crossbar.latency = config.crossbar.latency;
  crossbar.bytes_per_cycle = config.crossbar.bytes_per_cycle_per_port;
  return crossbar;
}

}  // namespace

Gpu::Gpu(sc_core::sc_module_name name, const GpuConfig& config, MemorySystem& memory,
         StatsRegistry& stats, VcdWriter* vcd, uint64_t device_base)
    : sc_module(name),
      m_config(config),
      m_map{memory.map().channels, memory.map().interleave_bytes, device_base},
      m_loop("cycle_loop", period_ps_of(config), *this),
      m_dispatcher(config.sm_count, config.sm, config.warp_size),
      m_totals(std::make_unique<Totals>(stats, this->name())) {
  if (config.l1d.line_bytes != config.l2.line_bytes ||
      config.l1d.sector_bytes != config.l2.sector_bytes) {
    throw ConfigError("gpu.l1d: line_bytes and sector_bytes must equal gpu.l2's");
  }
  if (device_base % m_map.interleave_bytes != 0) {
    throw ConfigError("gpu: device addresses start at " + std::to_string(device_base) +
                      ", not a multiple of memory.interleave_bytes (" +
                      std::to_string(m_map.interleave_bytes) + ")");
  }
  const sc_core::sc_time period = clock_period();
  for (uint32_t i = 0; i < config.sm_count; ++i) {
    Sm::Callbacks callbacks;
    callbacks.cta_done = [this](uint32_t sm, uint32_t grid) { cta_done(sm, grid); };
    callbacks.fault = [this](uint32_t grid, const std::string& message,
                             std::optional<uint64_t> address) { fault(grid, message, address); };
    m_sms.push_back(std::make_unique<Sm>(
        ("sm" + std::to_string(i)).c_str(), i, m_config, m_loop, stats, vcd,
        Sm::LatencyTotals{m_totals->memory_latency, m_totals->load_latency,
                          m_totals->wmma_load_latency, m_totals->wmma_store_latency,
                          m_totals->wmma_mma_latency},
        callbacks));
  }
  m_crossbar =
      std::make_unique<Crossbar>("crossbar", crossbar_config(config), period, config.sm_count + 1,
                                 m_map, config.l2.sector_bytes, stats);
  for (uint32_t i = 0; i < config.sm_count; ++i) m_sms[i]->out.bind(*m_crossbar->in[i]);
  m_copy_engine = std::make_unique<CopyEngine>("copy_engine", config.sm_count, config.l2.line_bytes,
                                               config.l2.sector_bytes, stats);
  m_copy_engine->out.bind(*m_crossbar->in[config.sm_count]);
  const L2SliceConfig slice = slice_config(config, memory.channel_count());
  for (uint32_t c = 0; c < memory.channel_count(); ++c) {
    m_slices.push_back(std::make_unique<L2Slice>(("l2_" + std::to_string(c)).c_str(), slice, period,
                                                 m_map, c, memory.burst_bytes(), stats, vcd));
    m_crossbar->out[c]->bind(m_slices.back()->in);
    m_slices.back()->out.bind(memory.channel_socket(c));
  }
  m_trace_grids.attach(vcd, this->name(), "grids_running", 16);
  SC_METHOD(deliver_done);
  sensitive << m_done_event;
  dont_initialize();
}

Gpu::~Gpu() = default;

sc_core::sc_time Gpu::clock_period() const {
  return kernel_delay_of_ps(m_config.core_period_ps());
}

void Gpu::launch(const KernelLaunch& launch, LaunchDone done) {
  prepare(launch);  // a bad launch is the caller's error, now
  m_queued.push_back(Queued{launch, std::move(done)});
  start_queued();
}

void Gpu::launch_first(const KernelLaunch& launch, LaunchDone done) {
  prepare(launch);
  m_queued.push_front(Queued{launch, std::move(done)});
  start_queued();
}

void Gpu::stop_all() {
  std::deque<Queued> skipped;
  skipped.swap(m_queued);
  if (!m_running.empty()) fault(std::nullopt, {}, std::nullopt);
  skip(skipped);
}

void Gpu::skip(std::deque<Queued>& queued) {
  for (Queued& launch : queued) {
    LaunchResult result;
    result.skipped = true;
    result.start_cycle = result.end_cycle = m_last_end_cycle;
    if (launch.done) launch.done(result);
  }
}

std::vector<std::string> Gpu::running_kernels() const {
  std::vector<std::string> kernels;
  for (const auto& grid : m_running) kernels.push_back(grid->state->launch.kernel);
  return kernels;
}

std::unique_ptr<LaunchState> Gpu::prepare(const KernelLaunch& launch) const {
  if (launch.module == nullptr) throw ConfigError("launch: no module");
  auto state = std::make_unique<LaunchState>();
  state->launch = launch;
  state->layout =
      std::make_unique<KernelLayout>(*launch.module, launch.kernel, launch.call_stack_bytes);
  const Function& kernel = state->layout->kernel();
  check_architecture(*state->layout, m_config.compute_capability);
  check_warp_size(*state->layout, m_config.warp_size);
  check_tensor_modes(*state->layout, m_config.tensor);
  const std::string where = "launch of kernel '" + launch.kernel + "'";
  if (launch.grid.count() == 0 || launch.block.count() == 0) {
    throw ConfigError(where + ": grid and block must have at least one thread");
  }
  check_launch_dimensions(launch.grid, launch.block, where);
  check_launch_bounds(kernel, launch.block, where);
  if (launch.registers_per_thread > m_config.sm.max_registers_per_thread)
    throw ConfigError(where + ": " + std::to_string(launch.registers_per_thread) +
                      " registers a thread; at most " +
                      std::to_string(m_config.sm.max_registers_per_thread) +
                      " (gpu.sm_limits.max_registers_per_thread)");
  if (launch.arguments.size() < kernel.param_bytes) {
    throw ConfigError(where + ": " + std::to_string(launch.arguments.size()) +
                      " argument bytes, the kernel takes " + std::to_string(kernel.param_bytes));
  }
  if (launch.module->const_bytes != 0 && launch.const_bank == nullptr) {
    throw ConfigError(where + ": the module has .const data but no constant bank was given");
  }
  state->threads_per_cta = uint32_t(launch.block.count());
  state->warps_per_cta = (state->threads_per_cta + m_config.warp_size - 1) / m_config.warp_size;
  state->shared_bytes_per_cta =
      (launch.dynamic_shared_bytes != 0 ? state->layout->extern_shared_offset()
                                        : state->layout->static_shared_bytes()) +
      launch.dynamic_shared_bytes;
  CtaResources resources;
  resources.threads = state->threads_per_cta;
  resources.registers_per_thread =
      launch.registers_per_thread != 0
          ? launch.registers_per_thread
          : bounded_registers_per_thread(
                kernel, live_registers_per_thread(*launch.module, state->layout->kernel_index()),
                state->threads_per_cta, m_config.sm, m_config.warp_size);
  resources.shared_bytes = state->shared_bytes_per_cta;
  state->occupancy = compute_occupancy(resources, m_config.sm, m_config.warp_size, launch.kernel);
  state->cta_count = launch.grid.count();
  const uint64_t resident = uint64_t{state->occupancy.ctas_per_sm} * m_config.sm_count;
  if (launch.grid_workspace != 0 && state->cta_count > resident) {
    std::string limit = limiter_name(state->occupancy.limiter);
    if (state->occupancy.limiter == OccupancyLimiter::registers)
      limit += " (" + std::to_string(state->occupancy.registers_per_thread) + " a thread, " +
               (launch.registers_per_thread != 0
                    ? std::string("as the launch gives them")
                    : std::string("the most the PTX holds live at once; __launch_bounds__' "
                                  "minimum blocks per SM or __maxnreg__ cap them as ptxas does")) +
               ")";
    throw ConfigError(where + ": a cooperative launch of " + std::to_string(state->cta_count) +
                      " blocks needs them all resident at once; " + std::to_string(resident) +
                      " fit on this GPU (" + std::to_string(state->occupancy.ctas_per_sm) +
                      " per SM on " + std::to_string(m_config.sm_count) + " SMs, limited by " +
                      limit + ")");
  }
  state->registers.resize(launch.module->functions.size());
  state->traits.resize(launch.module->functions.size());
  for (size_t f = 0; f < launch.module->functions.size(); ++f) {
    for (const Instruction& instruction : launch.module->functions[f].instructions) {
      state->traits[f].push_back(issue_traits(instruction));
      state->registers[f].push_back(instruction_registers(instruction));
      set_hazard_words(state->registers[f].back(), state->layout->total_registers());
    }
  }
  state->zeroed_registers =
      registers_to_zero(*state->layout, state->registers[state->layout->kernel_index()]);
  return state;
}

void Gpu::start_queued() {
  // The greatest priority goes first, among equal ones the first queued. A grid holds its place
  // until its done has run (its end cycle): one queued behind it starts no earlier.
  while (!m_faulted && !m_queued.empty() &&
         m_running.size() + m_ended.size() < m_config.max_resident_grids) {
    const auto first = std::min_element(
        m_queued.begin(), m_queued.end(),
        [](const Queued& a, const Queued& b) { return a.launch.priority < b.launch.priority; });
    Queued next = std::move(*first);
    m_queued.erase(first);
    start(std::move(next));
  }
}

void Gpu::start(Queued next) {
  if (m_running.empty())
    for (auto& sm : m_sms) sm->begin_grids();
  std::unique_ptr<LaunchState> state = prepare(next.launch);
  state->grid_id = m_grid_id++;
  const LaunchState* launch = state.get();
  auto grid = std::make_unique<Running>(
      std::move(state), std::move(next.done),
      [this, launch](uint64_t address, void* data, uint64_t bytes) {
        if (launch->launch.mapped && !launch->launch.mapped(address, bytes)) return false;
        if (m_translation && address - m_translation->window_base() < m_translation->window_bytes())
          m_translation->read(address, data, bytes);
        else
          read(address, data, bytes);
        return true;
      });
  grid->printf.set_capacity(next.launch.printf_fifo_bytes);
  const uint64_t now = kernel_now_ps();
  grid->start_cycle = (now + m_config.core_period_ps() - 1) / m_config.core_period_ps();
  if (m_running.empty()) m_busy_since = grid->start_cycle;
  grid->state->printf_buffer = &grid->printf;
  m_dispatcher.add_grid(grid->state->grid_id, grid->state->cta_count, grid->state->occupancy,
                        next.launch.grid_workspace != 0, next.launch.priority);
  m_running.push_back(std::move(grid));
  m_dispatch_due = true;
  m_loop.wake();
}

void Gpu::trace_grids(uint64_t cycle) {
  if (!m_trace_grids.enabled()) return;
  const auto on_sms = std::count_if(m_running.begin(), m_running.end(),
                                    [](const auto& grid) { return grid->dispatched; });
  m_trace_grids.set(uint64_t(on_sms), m_loop.time_ps(cycle));
}

Gpu::Running& Gpu::running(uint32_t grid) {
  for (auto& r : m_running)
    if (r->state->grid_id == grid) return *r;
  throw SimulationError(std::string(name()) + ": grid " + std::to_string(grid) + " is not running");
}

uint64_t Gpu::step(uint64_t cycle) {
  if (m_dispatch_due && !m_faulted) {
    m_dispatch_due = false;
    CtaDispatcher::Assignment assignment;
    while (m_dispatcher.next(assignment)) {
      Running& grid = running(assignment.grid);
      if (!grid.dispatched) {
        // A kernel boundary: the L1s forget what they hold, which may be older than what the
        // host or the kernels the grid follows wrote (they are not coherent).
        for (auto& sm : m_sms) sm->invalidate_l1();
        grid.dispatched = true;
        if (grid.waited) grid.start_cycle = cycle;
        trace_grids(cycle);
      }
      m_sms[assignment.sm]->start_cta(*grid.state, assignment.cta, cycle);
    }
    for (auto& grid : m_running) grid->waited = grid->waited || !grid->dispatched;
  }
  uint64_t next = CycleLoop::never;
  for (auto& sm : m_sms) next = std::min(next, sm->due(cycle) ? sm->step(cycle) : sm->wake_cycle());
  if (m_dispatch_due && !m_faulted && !m_dispatcher.all_dispatched()) next = cycle + 1;
  if (m_faulted) {
    if (!m_running.empty() &&
        std::all_of(m_sms.begin(), m_sms.end(), [](const auto& sm) { return sm->idle(); })) {
      if (m_fault_grid) finish(*m_fault_grid, cycle);
      while (!m_running.empty()) finish(m_running.front()->state->grid_id, cycle);
      m_dispatcher.clear();  // forget the stopped grids
    }
  } else {
    for (const uint32_t grid : m_grids_done) finish(grid, cycle);
    m_grids_done.clear();
  }
  return next;
}

// An SM whose LD/ST head is stalled sleeps until a response comes, but the loop keeps the pace
// it had when such an SM was stepped every cycle: jumping ahead would move when the loop runs
// against the other SystemC processes, and with it the order of same-instant events
// (docs/gpu_timing.md).
bool Gpu::paced() const {
  return std::any_of(m_sms.begin(), m_sms.end(),
                     [](const auto& sm) { return sm->ldst_head_stalled(); });
}

void Gpu::cta_done(uint32_t sm, uint32_t grid) {
  ++m_ctas_done;
  m_dispatcher.finished(sm, grid);
  if (m_dispatcher.grid_done(grid)) m_grids_done.push_back(grid);
  m_dispatch_due = !m_dispatcher.all_dispatched();
}

void Gpu::fault(std::optional<uint32_t> grid, const std::string& message,
                std::optional<uint64_t> global_address) {
  if (m_faulted) return;
  m_fault_grid = grid;
  m_fault_message = message;
  m_fault_address = global_address;
  m_faulted = true;
  m_grids_done.clear();
  for (auto& sm : m_sms) sm->abort();
  m_loop.wake();
}

void Gpu::finish(uint32_t grid_id, uint64_t cycle) {
  Running& grid = running(grid_id);
  const LaunchState& state = *grid.state;
  if (!m_faulted) m_dispatcher.remove_grid(grid_id);
  update_totals();
  LaunchResult result;
  result.faulted = m_faulted && grid_id == m_fault_grid;
  result.stopped = m_faulted && !result.faulted;
  if (result.faulted) {
    result.fault = m_fault_message;
    result.fault_address = m_fault_address;
  }
  std::tie(result.printed, result.printf_dropped) = grid.printf.take();
  result.end_cycle = cycle + 1;
  result.start_cycle = grid.start_cycle;
  result.warp_instructions = state.warp_instructions;
  result.thread_instructions = state.thread_instructions;
  m_last_end_cycle = result.end_cycle;
  m_totals->launches.inc();
  m_launch_log.push_back({state.launch.kernel, state.launch.grid, state.launch.block,
                          result.start_cycle, result.end_cycle, result.warp_instructions,
                          result.faulted, state.launch.priority, state.launch.stream,
                          state.occupancy});
  m_ended.push_back(Ended{std::move(grid.done), result});
  m_running.erase(std::find_if(m_running.begin(), m_running.end(),
                               [&](const auto& r) { return r.get() == &grid; }));
  trace_grids(result.end_cycle);
  // The cycles in which some grid ran: a busy period ends with the last grid running.
  if (m_running.empty()) m_totals->cycles.inc(result.end_cycle - m_busy_since);
  const uint64_t cycles = m_totals->cycles.value();
  m_totals->ipc.set(cycles == 0 ? 0.0
                                : double(m_totals->warp_instructions.value()) / double(cycles));
  update_tensor_totals(cycles);
  m_done_event.notify(m_loop.offset_of(cycle + 1));
}

void Gpu::update_tensor_totals(uint64_t cycles) {
  uint64_t hmma = 0, busy = 0, macs = 0;
  for (const auto& sm : m_sms) {
    hmma += sm->stats().hmma.value();
    busy += sm->stats().tensor_busy_cycles.value();
    macs += sm->stats().tensor_multiply_adds.value();
  }
  m_totals->hmma.inc(hmma - m_totals->hmma.value());
  const double seconds = double(cycles) * double(m_config.core_period_ps()) * 1e-12;
  m_totals->tensor_tflops.set(cycles == 0 ? 0.0 : 2.0 * double(macs) / seconds * 1e-12);
  const double sub_core_cycles = double(cycles) * m_config.sm_count * m_config.sub_cores_per_sm;
  m_totals->tensor_utilization.set(cycles == 0 ? 0.0 : double(busy) / sub_core_cycles);
}

uint64_t Gpu::warp_instructions_issued() const {
  uint64_t issued = 0;
  for (const auto& sm : m_sms) issued += sm->stats().warp_instructions.value();
  return issued;
}

void Gpu::update_totals() {
  uint64_t warp = 0, thread = 0, lanes = 0, hits = 0, misses = 0;
  std::array<double, k_stall_reasons> stalls{};
  for (const auto& sm : m_sms) {
    const SmStats& s = sm->stats();
    warp += s.warp_instructions.value();
    thread += s.thread_instructions.value();
    lanes += s.active_lanes.value();
    hits += s.l1_hits.value();
    misses += s.l1_misses.value();
    for (uint32_t k = 0; k < sm->sub_core_count(); ++k) {
      for (size_t r = 0; r < k_stall_reasons; ++r) {
        stalls[r] += double(sm->sub_core_stats(k).cycles(StallReason(r)));
      }
    }
  }
  m_totals->warp_instructions.inc(warp - m_totals->warp_instructions.value());
  m_totals->thread_instructions.inc(thread - m_totals->thread_instructions.value());
  m_totals->simd_efficiency.set(warp == 0 ? 0.0
                                          : double(lanes) / (double(m_config.warp_size) * warp));
  m_totals->l1_hit_rate.set(hits + misses == 0 ? 0.0 : double(hits) / double(hits + misses));
  uint64_t l2_hits = 0, l2_misses = 0;
  for (const auto& slice : m_slices) {
    l2_hits += slice->hits();
    l2_misses += slice->misses();
  }
  m_totals->l2_hit_rate.set(
      l2_hits + l2_misses == 0 ? 0.0 : double(l2_hits) / double(l2_hits + l2_misses));
  for (size_t r = 0; r < k_stall_reasons; ++r) m_totals->stalls[r]->set(stalls[r]);
}

void Gpu::deliver_done() {
  const uint64_t now = kernel_now_ps();
  std::deque<Queued> skipped;
  while (!m_ended.empty() && m_ended.front().result.end_cycle * m_config.core_period_ps() <= now) {
    Ended ended = std::move(m_ended.front());
    m_ended.pop_front();
    if (m_faulted && (ended.result.faulted || ended.result.stopped)) {
      m_faulted = false;  // every grid the fault stopped ends now: the first's turn skips the queue
      skipped.swap(m_queued);
    }
    if (ended.done) ended.done(ended.result);  // may put the grids it launched first
    start_queued();
  }
  skip(skipped);
  if (!m_ended.empty()) m_done_event.notify(m_loop.offset_of(m_ended.front().result.end_cycle));
}

void Gpu::debug(tlm::tlm_command command, uint64_t address, uint8_t* data, uint64_t bytes) {
  constexpr uint64_t chunk = 1 << 20;
  tlm::tlm_generic_payload payload;
  payload.set_command(command);
  for (uint64_t done = 0; done < bytes; done += chunk) {
    const uint64_t n = std::min(chunk, bytes - done);
    payload.set_address(address + done);
    payload.set_data_ptr(data + done);
    payload.set_data_length(uint32_t(n));
    payload.set_streaming_width(uint32_t(n));
    if (m_copy_engine->debug(payload) != n) {
      throw SimulationError(std::string(name()) + ": debug " +
                            (command == tlm::TLM_READ_COMMAND ? "read" : "write") + " of " +
                            std::to_string(bytes) + " bytes at device address " +
                            std::to_string(address) + " lies outside device memory");
    }
  }
}

void Gpu::set_translation(ManagedTranslation* translation) {
  m_translation = translation;
  for (auto& sm : m_sms) sm->set_translation(translation);
}

void Gpu::invalidate_translations(uint64_t address, uint64_t bytes) {
  for (auto& sm : m_sms) sm->invalidate_translations(address, bytes);
}

void Gpu::read(uint64_t address, void* data, uint64_t bytes) {
  debug(tlm::TLM_READ_COMMAND, address, static_cast<uint8_t*>(data), bytes);
}

void Gpu::write(uint64_t address, const void* data, uint64_t bytes) {
  // A debug write only reads from `data`; TLM's payload takes a mutable pointer.
  debug(tlm::TLM_WRITE_COMMAND, address, const_cast<uint8_t*>(static_cast<const uint8_t*>(data)),
        bytes);
}

}  // namespace ohmvp::gpu
