#include "modules/gpu/sm.h"

#include <algorithm>
#include <cstring>

#include "modules/common/errors.h"
#include "modules/common/sim_time.h"
#include "modules/gpu/issue_traits.h"
#include "modules/gpu/simt/fragment_layout.h"
#include "modules/gpu/simt/memory_windows.h"
#include "modules/gpu/simt/module_image.h"

namespace ohmvp::gpu {

namespace {

// The lanes in a mask; a full 32-lane warp without the popcount call (this build's target has
// no popcount instruction).
uint64_t lane_count(uint64_t mask) {
  return mask == 0xffffffff ? 32 : uint64_t(__builtin_popcountll(mask));
}

// nanosleep t: the cycles the warp sleeps, t ns (a modelling choice: the PTX ISA promises a time
// in [0, 2t]) up to the ISA's 1 ms, t from the first lane that executes it.
uint64_t sleep_cycles(const Instruction& instruction, const WarpState& state, uint64_t lanes,
                      uint64_t period_ps) {
  const Operand& t = instruction.operands[0];
  const uint32_t lane = static_cast<uint32_t>(__builtin_ctzll(lanes));
  const uint64_t ns = (t.kind == Operand::Kind::reg ? state.reg(t.reg, lane) : t.imm) & 0xffffffff;
  return (std::min<uint64_t>(ns, 1000000) * 1000 + period_ps - 1) / period_ps;
}

// Calls `f(address)` for each access of `lane`: its runs, or a filtered texture fetch's taps.
template <class F>
void for_each_access(const MemoryRequest& request, const TextureTaps* taps, uint32_t lane, F f) {
  if (taps) {
    for (uint32_t k = 0; k < taps->count; ++k)
      if ((taps->present[lane] >> k) & 1) f(taps->address[lane][k]);
    return;
  }
  for (uint32_t run = 0; run < request.run_count; ++run)
    f(request.address[lane] + uint64_t(request.run_offset[run]));
}

// Whether every lane's bytes of an access are mapped and at most 16, found from the lowest and
// the highest of the lanes' addresses (every run's or tap's): an allocation that holds the bytes
// from the one to the other holds every lane's, so one look-up stands for one per lane and run.
// False when it cannot tell; the lanes are then checked one by one.
bool every_lane_mapped(const KernelLaunch& k, const MemoryRequest& request,
                       const TextureTaps* taps) {
  if (request.bytes > 16) return false;
  if (!k.mapped) return true;
  uint64_t lowest = UINT64_MAX, highest = 0;
  for (uint64_t m = request.lanes; m != 0; m &= m - 1) {
    for_each_access(request, taps, uint32_t(__builtin_ctzll(m)), [&](uint64_t address) {
      lowest = std::min(lowest, address);
      highest = std::max(highest, address);
    });
  }
  return lowest <= highest && highest <= UINT64_MAX - request.bytes &&
         k.mapped(lowest, highest - lowest + request.bytes);
}

Dim3 unflatten(uint64_t linear, const Dim3& shape) {
  Dim3 d;
  d.x = uint32_t(linear % shape.x);
  d.y = uint32_t(linear / shape.x % shape.y);
  d.z = uint32_t(linear / (uint64_t(shape.x) * shape.y));
  return d;
}

}  // namespace

Sm::Sm(sc_core::sc_module_name name, uint32_t id, const GpuConfig& config, CycleLoop& loop,
       StatsRegistry& stats, VcdWriter* vcd, LatencyTotals totals, Callbacks callbacks)
    : sc_module(name),
      out("out"),
      m_id(id),
      m_config(config),
      m_loop(loop),
      m_callbacks(std::move(callbacks)),
      m_sub_core_count(config.sub_cores_per_sm),
      m_stats(stats, this->name()),
      m_totals(totals),
      m_ldst(id, config, m_stats),
      m_banks(config.shared_memory.banks, config.shared_memory.bank_width_bytes),
      m_tensor(config.tensor) {
  out.bind(*this);
  for (uint32_t s = 0; s < m_sub_core_count; ++s) {
    const std::string sub = std::string(this->name()) + ".sub" + std::to_string(s);
    m_sub_cores.push_back(
        std::make_unique<SubCore>(config, config.max_warps_per_sub_core(), stats, sub, vcd, sub));
  }
  m_idle.assign(m_sub_core_count, IdleSubCore{});
  m_reports_access_waits = m_sub_cores.front()->scheduler().wants_access_waits();
  m_access_waits.reserve(config.max_warps_per_sub_core());
  m_ldst.on_op_done([this](MemoryOp& op, uint64_t cycle) { memory_done(op, cycle); });
  m_ldst.on_send([this](LdstUnit::Outbound& outbound) { queue_send(outbound); });
  m_trace_mshrs.attach(vcd, this->name(), "l1_mshrs", 16);
  SC_METHOD(send);
  sensitive << m_send_event;
  dont_initialize();
}

void Sm::begin_grids() {
  m_wake_cycle = 0;
  m_idle.assign(m_sub_core_count, IdleSubCore{});
  m_aborted = false;
  m_releases.clear();  // results of the previous launch's last warps
  // Each slot's WarpState is made when it first starts a warp, and kept for later launches.
  m_warps.resize(m_config.sm.max_warps);
  for (Warp& warp : m_warps) {
    std::unique_ptr<WarpState> state = std::move(warp.state);
    warp = Warp{};
    warp.state = std::move(state);
  }
  m_scoreboards.assign(m_config.sm.max_warps, Scoreboard{});
  if (m_reports_access_waits) m_load_boards = m_scoreboards;
  m_ctas.resize(m_config.sm.max_ctas);  // none resident: every grid before has ended
}

void Sm::start_cta(LaunchState& launch, uint64_t cta_linear, uint64_t cycle) {
  const auto slot =
      std::find_if(m_ctas.begin(), m_ctas.end(), [](const Cta& c) { return !c.resident; });
  if (slot == m_ctas.end()) throw SimulationError(std::string(name()) + ": no free CTA slot");
  const uint32_t cta_index = uint32_t(slot - m_ctas.begin());
  Cta& cta = *slot;
  cta.launch = &launch;
  cta.resident = true;
  cta.linear = cta_linear;
  cta.live_warps = launch.warps_per_cta;
  cta.memory_in_flight = 0;
  cta.arrived.fill(0);
  cta.expected_threads.fill(0);
  cta.shared.assign(launch.shared_bytes_per_cta, 0);

  const KernelLaunch& k = launch.launch;
  ExecutionContext& c = cta.context;
  c = ExecutionContext{};
  c.layout = launch.layout.get();
  c.kernel_arguments = k.arguments.data();
  c.kernel_argument_bytes = k.arguments.size();
  c.shared = cta.shared.data();
  c.shared_bytes = cta.shared.size();
  c.dynamic_shared_bytes = k.dynamic_shared_bytes;
  c.const_bank = k.const_bank;
  c.const_bytes = launch.layout->module().const_bytes;
  c.global_segment_base = k.global_segment_base;
  c.const_segment_base = const_segment_base(launch.layout->module(), k.global_segment_base);
  c.local_region_base = k.local_base;
  c.local_stride = k.local_stride;
  c.textures = k.textures;
  c.printf_buffer = launch.printf_buffer;
  c.heap = k.heap;
  c.device_launches = k.device_launches;
  c.fragment_mapping = m_config.tensor.fragment_mapping;
  c.grid = k.grid;
  c.block = k.block;
  c.cta = unflatten(cta_linear, k.grid);
  c.cta_linear = uint32_t(cta_linear);
  c.sm_id = m_id;
  c.sm_count = m_config.sm_count;
  c.grid_id = launch.grid_id;
  c.grid_workspace = k.grid_workspace;
  const uint32_t banks = m_config.shared_memory.banks;
  const uint32_t bank_width = m_config.shared_memory.bank_width_bytes;
  if ((banks & (banks - 1)) == 0 && (bank_width & (bank_width - 1)) == 0 &&
      banks >= m_config.warp_size) {  // see ExecutionContext::bank_width_shift
    c.bank_width_shift = uint32_t(__builtin_ctz(bank_width));
    c.bank_mask = banks - 1;
  }

  uint32_t started = 0;
  for (uint32_t w = 0; w < m_warps.size() && started < launch.warps_per_cta; ++w) {
    Warp& warp = m_warps[w];
    if (warp.resident || warp.memory_in_flight != 0) continue;
    if (!warp.state)
      warp.state = std::make_unique<WarpState>(*launch.layout, m_config.warp_size);
    else if (&warp.state->layout() != launch.layout.get())
      warp.state->rebind(*launch.layout);
    warp.launch = &launch;
    warp.state->start(started, k.block, started * m_config.warp_size, &launch.zeroed_registers);
    warp.resident = true;
    warp.at_barrier = false;
    warp.cta = cta_index;
    warp.ready_cycle = cycle;
    ++warp.generation;
    m_scoreboards[w].reset(launch.layout->total_registers());
    if (m_reports_access_waits) m_load_boards[w].reset(launch.layout->total_registers());
    fetch_next(warp);
    SubCore& sub_core = *m_sub_cores[sub_core_of(w)];
    sub_core.scheduler().add_warp(scheduler_slot(w), m_warp_age++);
    ++sub_core.resident_warps;
    ++started;
  }
  if (started != launch.warps_per_cta) {
    throw SimulationError(std::string(name()) + ": no free warp slots for a CTA");
  }
  if (m_resident_ctas++ == 0) m_active_since = cycle;
  m_wake_cycle = 0;
  for (IdleSubCore& idle : m_idle) idle.valid = false;
}

void Sm::for_each_warp_position(
    const std::function<void(const LaunchState&, uint32_t, uint32_t, bool)>& visit) const {
  for (const Warp& warp : m_warps)
    if (warp.resident && warp.state)
      visit(*warp.launch, warp.state->function(), warp.state->pc(), warp.at_barrier);
}

bool Sm::idle() const {
  return m_resident_ctas == 0 && m_ldst.idle() && m_to_send.empty() && m_walking.empty() &&
         !m_port_busy;
}

uint64_t Sm::simulate(uint64_t cycle) {
  m_releases.due(cycle, [this](const RegisterRelease& r) {
    if (m_warps[r.warp].generation == r.generation && m_warps[r.warp].resident) {
      m_scoreboards[r.warp].release(*r.registers);
      m_idle[sub_core_of(r.warp)].valid = false;
    }
  });
  const bool ldst_was_full = !m_ldst.can_accept();
  const uint64_t ldst_next = m_ldst.step(cycle);
  if (ldst_was_full && m_ldst.can_accept()) {
    for (IdleSubCore& idle : m_idle) idle.valid = false;
  }
  m_trace_mshrs.set(m_ldst.mshr_occupancy(), m_loop.time_ps(cycle));
  if (m_resident_ctas == 0) return ldst_next == UINT64_MAX ? CycleLoop::never : ldst_next;

  bool issued_any = false;
  m_next_wake = UINT64_MAX;
  const uint64_t time_ps = m_loop.time_ps(cycle);
  for (uint32_t s = 0; s < m_sub_core_count; ++s) {
    SubCore& sub_core = *m_sub_cores[s];
    sub_core.trace_active(sub_core.resident_warps, time_ps);
    if (sub_core.resident_warps == 0) {
      sub_core.pause();
      sub_core.trace_issue(0, time_ps);
      continue;
    }
    IdleSubCore& idle = m_idle[s];
    if (idle.valid && cycle < idle.until) {  // see IdleSubCore
      m_next_wake = std::min(m_next_wake, idle.until);
      sub_core.record(cycle, idle.first);
      sub_core.trace_issue(0, time_ps);
      continue;
    }
    const uint64_t others_wake = m_next_wake;
    m_next_wake = UINT64_MAX;
    bool seen = false;
    StallReason first = StallReason::no_ready_warp;
    const auto ready = [&](uint32_t slot) {
      const StallReason reason = check(warp_of(s, slot), cycle);
      if (!seen && m_warps[warp_of(s, slot)].resident) {
        seen = true;
        first = reason;
      }
      return reason == StallReason::issued;
    };
    GtoScheduler* gto = sub_core.gto_scheduler();
    const uint32_t slot = gto ? gto->pick_ready(ready) : sub_core.scheduler().pick(ready);
    idle = IdleSubCore{slot == WarpScheduler::k_no_warp, m_next_wake, first};
    m_next_wake = std::min(m_next_wake, others_wake);
    if (!m_access_waits.empty()) report_access_waits(s, cycle);
    if (slot == WarpScheduler::k_no_warp) {
      sub_core.record(cycle, first);
      sub_core.trace_issue(0, time_ps);
      continue;
    }
    const uint32_t w = warp_of(s, slot);
    sub_core.record(cycle, StallReason::issued);
    sub_core.trace_issue(w + 1, time_ps);
    issued_any = true;
    issue(s, w, cycle);
    // Accesses the CTAs queued before the fault still drain (see abort()).
    if (m_aborted) return cycle + 1;
  }
  if (m_resident_ctas == 0) {
    m_stats.active_cycles.inc(cycle + 1 - m_active_since);
    // The SM sleeps from here on: its signals fall now, as the next cycle would have set them.
    const uint64_t next_ps = m_loop.time_ps(cycle + 1);
    for (auto& sub_core : m_sub_cores) {
      sub_core->pause();
      sub_core->trace_active(sub_core->resident_warps, next_ps);
      sub_core->trace_issue(0, next_ps);
    }
  }
  if (issued_any) return cycle + 1;
  uint64_t next = std::min(m_next_wake, ldst_next);
  next = std::min(next, m_releases.next_cycle());
  return next == UINT64_MAX ? CycleLoop::never : std::max(next, cycle + 1);
}

// Inline: every readiness check that gets past the ready cycle asks it.
inline __attribute__((always_inline)) bool Sm::has_hazard(Warp& warp, uint32_t w) {
  const Scoreboard& scoreboard = m_scoreboards[w];
  if (warp.hazard_free) return false;
  if (warp.hazard_seen_at == scoreboard.release_count()) return true;
  if (!scoreboard.has_hazard(*warp.next_registers)) {
    warp.hazard_free = true;
    return false;
  }
  warp.hazard_seen_at = scoreboard.release_count();
  return true;
}

StallReason Sm::check(uint32_t w, uint64_t cycle) {
  Warp& warp = m_warps[w];
  if (!warp.resident) return StallReason::no_ready_warp;
  if (warp.at_barrier) return StallReason::barrier;
  if (warp.ready_cycle > cycle) {
    m_next_wake = std::min(m_next_wake, warp.ready_cycle);
    return StallReason::no_ready_warp;
  }
  const Instruction& instruction = *warp.next;
  const IssueTraits& traits = *warp.next_traits;
  if (warp.memory_in_flight != 0 && traits.drains_memory) {
    if (m_reports_access_waits && m_load_boards[w].pending_count() != 0)
      m_access_waits.push_back(w);
    return StallReason::memory;
  }
  // An acquire orders the warp's later accesses after it, and after the L1 it empties.
  if (warp.acquires_in_flight != 0 && traits.memory) return StallReason::memory;
  if (has_hazard(warp, w)) {
    // A warp with an access in flight is taken to wait for it (the usual case: a use of loaded
    // data); otherwise the pending register belongs to an arithmetic result.
    if (warp.memory_in_flight == 0) return StallReason::scoreboard;
    if (m_reports_access_waits && m_load_boards[w].has_hazard(*warp.next_registers))
      m_access_waits.push_back(w);
    return StallReason::memory;
  }
  FunctionalUnitGroup& unit = m_sub_cores[sub_core_of(w)]->unit(instruction.unit);
  if (!unit.can_issue(cycle)) {
    m_next_wake = std::min(m_next_wake, unit.next_free_cycle());
    return StallReason::structural;
  }
  if (traits.memory && !m_ldst.can_accept()) return StallReason::memory;
  return StallReason::issued;
}

// A pc past the end of its function issues a no-op so that the interpreter reports the fault.
const Instruction k_past_the_end{};
const InstructionRegisters k_no_registers{};
const IssueTraits k_past_the_end_traits = issue_traits(k_past_the_end);

// Inline: every issue looks up the warp's next instruction.
inline __attribute__((always_inline)) void Sm::fetch_next(Warp& warp) {
  warp.hazard_seen_at = UINT64_MAX;
  warp.hazard_free = false;
  const WarpState& state = *warp.state;
  if (state.finished()) return;
  const LaunchState& launch = *warp.launch;
  const std::vector<InstructionRegisters>& registers = launch.registers[state.function()];
  const bool in_function = state.pc() < registers.size();
  warp.next = in_function ? &launch.instruction(state.function(), state.pc()) : &k_past_the_end;
  warp.next_registers = in_function ? &registers[state.pc()] : &k_no_registers;
  warp.next_traits =
      in_function ? &launch.traits[state.function()][state.pc()] : &k_past_the_end_traits;
}

void Sm::issue(uint32_t s, uint32_t w, uint64_t cycle) {
  Warp& warp = m_warps[w];
  WarpState& state = *warp.state;
  Cta& cta = m_ctas[warp.cta];
  const Instruction& instruction = *warp.next;
  const InstructionRegisters& registers = *warp.next_registers;
  const IssueTraits& traits = *warp.next_traits;
  const bool maybe_shared = traits.maybe_shared;
  const bool shared_from_step = traits.shared_from_step;
  uint32_t passes = 0;
  if (maybe_shared && !shared_from_step)
    passes = shared_passes(warp, instruction, state.active_mask());

  // A matrix multiply in a mode the tensor cores lack was refused at the launch
  // (check_tensor_modes).
  const bool tensor = instruction.unit == UnitClass::tensor;

  cta.context.clock = cycle;
  cta.context.globaltimer_ns = m_loop.time_ps(cycle) / 1000;
  const StepResult result = Interpreter::step(state, cta.context);
  fetch_next(warp);
  if (shared_from_step && state.shared_access().lanes != 0) {
    const SharedAccess& shared = state.shared_access();
    passes = shared.one_pass
                 ? 1
                 : m_banks.passes(shared.address.data(), 64, shared.lanes, traits.bank_bytes);
  }

  SubCore& sub_core = *m_sub_cores[s];
  uint64_t unit_ready = 0;
  if (tensor) {
    const HmmaSchedule& hmma = m_tensor.schedule(instruction);
    unit_ready =
        sub_core.unit(UnitClass::tensor).issue(cycle, hmma.latency, hmma.initiation_interval);
    m_stats.hmma.inc(hmma.hmma);
    m_stats.tensor_busy_cycles.inc(hmma.initiation_interval);
    m_stats.tensor_multiply_adds.inc(hmma.multiply_adds);
    m_totals.wmma_mma.sample(unit_ready - cycle);
    sub_core.trace_tensor(hmma.hmma, m_loop.time_ps(cycle), m_loop.time_ps(unit_ready));
  } else {
    unit_ready = sub_core.unit(instruction.unit).issue(cycle);
  }
  if (GtoScheduler* gto = sub_core.gto_scheduler())
    gto->on_issue(scheduler_slot(w));  // without the virtual call
  else
    sub_core.scheduler().on_issue(scheduler_slot(w));
  const uint32_t executed = lane_count(result.executed_mask);
  m_stats.warp_instructions.inc();
  m_stats.thread_instructions.inc(executed);
  ++warp.launch->warp_instructions;
  warp.launch->thread_instructions += executed;
  m_stats.active_lanes.inc(lane_count(result.active_mask));
  if (result.yielded) m_stats.path_yields.inc();
  warp.ready_cycle = instruction.unit == UnitClass::branch ? unit_ready : cycle + 1;
  if (instruction.op == Opcode::nanosleep && result.executed_mask != 0)
    warp.ready_cycle = std::max(
        warp.ready_cycle,
        cycle + sleep_cycles(instruction, state, result.executed_mask, m_loop.period_ps()));

  switch (result.status) {
    case StepStatus::executed: {
      uint64_t done = unit_ready;
      if (traits.invalidates_l1) empty_l1_for_ordering();  // own accesses done (drains_memory)
      if (traits.constant) {
        done = cycle + std::max(1u, m_config.constant_cache_latency);
        m_stats.const_accesses.inc();
      } else if (maybe_shared && passes != 0) {
        const uint64_t start = std::max(cycle, m_shared_free_cycle);
        m_shared_free_cycle = start + passes;
        done = start + passes - 1 + (unit_ready - cycle) + m_config.shared_memory.latency;
        m_stats.shared_accesses.inc();
        m_stats.shared_passes.inc(passes);
        sample_fragment_latency(instruction.op, done - cycle);
      }
      // A path that stayed at its instruction to let another run (a yield) wrote nothing.
      const bool stayed = result.yielded && result.executed_mask == 0;
      if (registers.destination_count != 0 && !stayed) {
        m_scoreboards[w].reserve(registers);
        schedule_release(w, registers, done);
      }
      break;
    }
    case StepStatus::memory_pending:
      issue_memory(w, registers, instruction.op, cycle);
      break;
    case StepStatus::barrier:
      arrive_at_barrier(w, result, cycle);
      break;
    case StepStatus::exited:
      break;
    case StepStatus::fault:
      raise_fault(warp, state.fault());
      return;
  }
  if (warp.resident && state.finished()) finish_warp(w, cycle);
}

uint32_t Sm::shared_passes(const Warp& warp, const Instruction& instruction, uint64_t lanes) {
  const Operand* address = address_operand(instruction);
  if (address == nullptr) return 0;
  const WarpState& state = *warp.state;
  uint64_t base = uint64_t(address->offset);
  if (address->symbol != UINT32_MAX) {
    base += warp.launch->layout->module().symbols[address->symbol].offset;
  }
  uint64_t shared_lanes = 0;
  for (uint64_t m = lanes; m != 0; m &= m - 1) {
    const uint32_t lane = uint32_t(__builtin_ctzll(m));
    uint64_t a = base;
    if (address->reg != no_register) a += state.reg(address->reg, lane);
    if (instruction.space == StateSpace::generic) {
      if (a - shared_window_base >= shared_window_size) continue;  // not shared: LD/ST path
      a -= shared_window_base;
    }
    m_lane_addresses[lane] = a;
    shared_lanes |= uint64_t{1} << lane;
  }
  if (shared_lanes == 0) return 0;
  if (is_fragment_access(instruction.op))
    return fragment_shared_passes(state, instruction, shared_lanes);
  if (instruction.op == Opcode::ldmatrix) {  // one 16-byte row from each of 8 lanes per matrix
    const uint64_t row_lanes = (uint64_t{1} << (8 * instruction.mod.vector_width)) - 1;
    return m_banks.passes(m_lane_addresses.data(), 64, shared_lanes & row_lanes, 16);
  }
  return m_banks.passes(m_lane_addresses.data(), 64, shared_lanes, bank_access_bytes(instruction));
}

// A wmma.load/store from shared memory: one bank-array access per run (an LDS/STS of up to 16
// bytes per lane), from the tile addresses shared_passes() put in m_lane_addresses.
uint32_t Sm::fragment_shared_passes(const WarpState& state, const Instruction& instruction,
                                    uint64_t lanes) {
  const FragmentSpec spec = fragment_spec_of(instruction, m_config.tensor.fragment_mapping);
  const FragmentRuns runs = fragment_runs(spec);
  const std::array<uint64_t, 64> tiles = m_lane_addresses;
  std::array<uint64_t, 64> strides{};
  for (uint64_t m = lanes; m != 0; m &= m - 1) {
    const uint32_t lane = uint32_t(__builtin_ctzll(m));
    const Operand& stride = instruction.operands[2];
    const uint64_t given =
        stride.kind == Operand::Kind::imm ? stride.imm : uint32_t(state.reg(stride.reg, lane));
    strides[lane] = instruction.operand_count < 3 ? default_stride(spec)
                                                  : uint32_t(storage_stride(instruction, given));
  }
  uint32_t passes = 0;
  for (uint32_t r = 0; r < runs.runs; ++r) {
    for (uint64_t m = lanes; m != 0; m &= m - 1) {
      const uint32_t lane = uint32_t(__builtin_ctzll(m));
      m_lane_addresses[lane] =
          tiles[lane] + fragment_byte_offset(spec, strides[lane], lane, r * runs.run_elements);
    }
    passes += m_banks.passes(m_lane_addresses.data(), 64, lanes,
                             runs.run_elements * spec.element_bytes());
  }
  return passes;
}

void Sm::sample_fragment_latency(Opcode op, uint64_t cycles) {
  if (op == Opcode::wmma_store_d)
    m_totals.wmma_store.sample(cycles);
  else if (op == Opcode::wmma_load_a || op == Opcode::wmma_load_b || op == Opcode::wmma_load_c)
    m_totals.wmma_load.sample(cycles);
}

void Sm::issue_memory(uint32_t w, const InstructionRegisters& registers, Opcode opcode,
                      uint64_t cycle) {
  Warp& warp = m_warps[w];
  WarpState& state = *warp.state;
  MemoryRequest& request = state.memory_request();
  const KernelLaunch& k = warp.launch->launch;
  const TextureTaps* taps = request.filtered ? &state.texture_taps() : nullptr;
  for (uint64_t m = every_lane_mapped(k, request, taps) ? 0 : request.lanes; m != 0; m &= m - 1) {
    const uint32_t lane = uint32_t(__builtin_ctzll(m));
    bool mapped = true;
    for_each_access(request, taps, lane, [&](uint64_t address) {
      mapped = mapped && (!k.mapped || k.mapped(address, request.bytes));
    });
    if (!mapped || request.bytes > 16) {
      DeviceFault fault;
      fault.kind = mapped ? FaultKind::unsupported : FaultKind::unmapped_address;
      fault.function = request.function;
      fault.pc = request.pc;
      fault.lane = lane;
      fault.address = request.address[lane];
      fault.space = request.space[lane];
      fault.detail = mapped ? "accesses of more than 16 bytes per lane in the timing model" : "";
      raise_fault(warp, fault);
      return;
    }
  }
  MemoryOp& op = m_ldst.new_op();
  op.warp = w;
  op.registers = &registers;
  op.issue_cycle = cycle;
  op.opcode = opcode;
  op.request = request;
  if (taps) {
    if (!op.taps) op.taps = std::make_unique<TextureTaps>();
    op.taps->copy_plan(*taps, request.lanes);
  }
  state.set_memory_pending(false);
  m_scoreboards[w].reserve(registers);
  ++warp.memory_in_flight;
  ++m_ctas[warp.cta].memory_in_flight;
  if (request.acquires) ++warp.acquires_in_flight;
  if (m_reports_access_waits && returns_data(request.kind)) m_load_boards[w].reserve(registers);
  if (request.lanes == 0) {
    memory_done(op, cycle);
  } else if (request.run_count > 1 || request.filtered) {
    issue_parts(w, op, cycle);
  } else {
    m_ldst.accept(op);
  }
}

// A wmma.load/store goes as one part per run, every lane's address moved by the run's offset; a
// filtered texture fetch as one part per tap, with the lanes that have the tap, at its address.
void Sm::issue_parts(uint32_t w, MemoryOp& whole, uint64_t cycle) {
  const MemoryRequest& r = whole.request;
  const TextureTaps* taps = r.filtered ? whole.taps.get() : nullptr;
  const uint32_t runs = taps ? taps->count : r.run_count;
  std::array<uint64_t, std::max(TextureTaps::max_taps, MemoryRequest::max_runs)> run_lanes{};
  whole.parts_left = 0;
  for (uint32_t run = 0; run < runs; ++run) {
    for (uint64_t m = r.lanes; m != 0; m &= m - 1) {
      const uint32_t lane = uint32_t(__builtin_ctzll(m));
      if (!taps || (taps->present[lane] >> run) & 1) run_lanes[run] |= uint64_t{1} << lane;
    }
    whole.parts_left += run_lanes[run] != 0;
  }
  for (uint32_t run = 0; run < runs; ++run) {
    if (run_lanes[run] == 0) continue;
    MemoryOp& part = m_ldst.new_op();
    part.warp = w;
    part.registers = whole.registers;
    part.issue_cycle = cycle;
    part.request = r;
    part.request.lanes = run_lanes[run];
    part.request.run_count = 1;
    part.request.fragment = false;
    part.request.filtered = false;
    part.whole = &whole;
    part.run = run;
    for (uint64_t m = run_lanes[run]; m != 0; m &= m - 1) {
      const uint32_t lane = uint32_t(__builtin_ctzll(m));
      part.request.address[lane] =
          taps ? taps->address[lane][run] : r.address[lane] + uint64_t(r.run_offset[run]);
      if (r.kind == MemoryKind::store)
        std::memcpy(part.request.data[lane].data(), r.data[lane].data() + run * r.bytes, r.bytes);
    }
    m_ldst.accept(part);
  }
}

void Sm::empty_l1_for_ordering() {
  m_ldst.invalidate_for_fence();
  m_stats.l1_fence_invalidations.inc();
}

void Sm::memory_done(MemoryOp& op, uint64_t cycle) {
  if (op.whole != nullptr) {  // one run of a wmma.load/store
    MemoryOp& whole = *op.whole;
    if (op.error && !whole.error) {
      whole.error = true;
      whole.request.address = op.request.address;
    }
    if (!op.error && (whole.request.kind == MemoryKind::load || whole.request.filtered)) {
      for (uint64_t m = op.request.lanes; m != 0; m &= m - 1) {
        const uint32_t lane = uint32_t(__builtin_ctzll(m));
        uint8_t* into = whole.request.filtered ? whole.taps->texels[lane].data()
                                               : whole.request.data[lane].data();
        std::memcpy(into + op.run * op.request.bytes, op.request.data[lane].data(),
                    op.request.bytes);
      }
    }
    m_ldst.release(op);
    if (--whole.parts_left == 0) memory_done(whole, cycle);
    return;
  }
  Warp& warp = m_warps[op.warp];
  m_idle[sub_core_of(op.warp)].valid = false;
  if (!m_aborted) {
    if (op.error) {
      DeviceFault fault;
      fault.kind = FaultKind::unmapped_address;
      fault.function = op.request.function;
      fault.pc = op.request.pc;
      fault.lane = uint32_t(__builtin_ctzll(op.request.lanes));
      fault.address = op.request.address[fault.lane];
      fault.space = op.request.space[fault.lane];
      fault.detail = "the memory system answered an address error";
      raise_fault(warp, fault);
    } else {
      Interpreter::complete_memory(*warp.state, op.request,
                                   op.request.filtered ? op.taps.get() : nullptr);
      m_scoreboards[op.warp].release(*op.registers);
      if (op.request.acquires) empty_l1_for_ordering();
      const bool loaded = returns_data(op.request.kind);
      if (m_reports_access_waits && loaded) {
        m_load_boards[op.warp].release(*op.registers);
        m_sub_cores[sub_core_of(op.warp)]->scheduler().on_long_latency_done(
            scheduler_slot(op.warp));
      }
      m_stats.memory_latency.sample(cycle - op.issue_cycle);
      m_totals.memory.sample(cycle - op.issue_cycle);
      if (loaded) {
        m_stats.load_latency.sample(cycle - op.issue_cycle);
        m_totals.load.sample(cycle - op.issue_cycle);
      }
      sample_fragment_latency(op.opcode, cycle - op.issue_cycle);
    }
  }
  --warp.memory_in_flight;
  if (op.request.acquires) --warp.acquires_in_flight;
  Cta& cta = m_ctas[warp.cta];
  --cta.memory_in_flight;
  m_ldst.release(op);
  if (!m_aborted) maybe_finish_cta(warp.cta);
}

// The warps of sub-core `s` its scheduler's pick found waiting on a load: told now, after the
// pick. The scheduler's sets changed (a two-level active set may now have room for a pending
// warp), so the sub-core picks again next cycle.
void Sm::report_access_waits(uint32_t s, uint64_t cycle) {
  WarpScheduler& scheduler = m_sub_cores[s]->scheduler();
  for (const uint32_t w : m_access_waits) scheduler.on_long_latency_wait(scheduler_slot(w));
  m_access_waits.clear();
  m_idle[s].valid = false;
  m_next_wake = std::min(m_next_wake, cycle + 1);
}

void Sm::arrive_at_barrier(uint32_t w, const StepResult& result, uint64_t cycle) {
  Warp& warp = m_warps[w];
  Cta& cta = m_ctas[warp.cta];
  const uint32_t id = result.barrier_id;  // below cta_barriers: the interpreter faults past it
  cta.expected_threads[id] = result.barrier_threads;
  ++cta.arrived[id];
  if (!result.barrier_arrive_only) {
    warp.at_barrier = true;
    warp.barrier = id;
    warp.reduction = result.barrier_reduction;
    m_sub_cores[sub_core_of(w)]->scheduler().on_long_latency_wait(scheduler_slot(w));
  }
  check_barriers(cta, warp.cta, cycle);
}

void Sm::check_barriers(Cta& cta, uint32_t cta_index, uint64_t cycle) {
  for (uint32_t id = 0; id < 16; ++id) {
    if (cta.arrived[id] == 0) continue;
    const uint32_t threads = cta.expected_threads[id];
    const uint32_t needed =
        threads == 0 ? cta.live_warps : (threads + m_config.warp_size - 1) / m_config.warp_size;
    if (cta.arrived[id] < needed) continue;
    cta.arrived[id] = 0;
    const uint64_t ready = cycle + m_config.unit(UnitClass::barrier).latency;
    const auto released = [&](const Warp& warp) {
      return warp.resident && warp.cta == cta_index && warp.at_barrier && warp.barrier == id;
    };
    BarrierReductionTotals totals;  // bar.red: every warp released gets the CTA's count
    for (const Warp& warp : m_warps)
      if (released(warp)) totals.add(warp.reduction);
    for (Warp& warp : m_warps) {
      if (released(warp)) {
        write_barrier_reduction(*warp.state, warp.reduction, totals);
        warp.reduction = {};
        warp.at_barrier = false;
        warp.ready_cycle = std::max(warp.ready_cycle, ready);
        const uint32_t w = uint32_t(&warp - m_warps.data());
        m_sub_cores[sub_core_of(w)]->scheduler().on_long_latency_done(scheduler_slot(w));
        m_idle[sub_core_of(w)].valid = false;
      }
    }
  }
}

void Sm::finish_warp(uint32_t w, uint64_t cycle) {
  Warp& warp = m_warps[w];
  warp.resident = false;
  SubCore& sub_core = *m_sub_cores[sub_core_of(w)];
  sub_core.scheduler().remove_warp(scheduler_slot(w));
  --sub_core.resident_warps;
  m_idle[sub_core_of(w)].valid = false;
  Cta& cta = m_ctas[warp.cta];
  --cta.live_warps;
  check_barriers(cta, warp.cta, cycle);
  maybe_finish_cta(warp.cta);
}

void Sm::maybe_finish_cta(uint32_t cta_index) {
  Cta& cta = m_ctas[cta_index];
  if (!cta.resident || cta.live_warps != 0 || cta.memory_in_flight != 0) return;
  cta.resident = false;
  --m_resident_ctas;
  m_stats.ctas.inc();
  m_callbacks.cta_done(m_id, cta.launch->grid_id);
}

void Sm::schedule_release(uint32_t w, const InstructionRegisters& registers, uint64_t cycle) {
  m_releases.push(w, m_warps[w].generation, registers, cycle);
}

void Sm::raise_fault(const Warp& warp, const DeviceFault& fault) {
  const Cta& cta = m_ctas[warp.cta];
  const LaunchState& launch = *warp.launch;
  const Dim3 thread = warp.state->thread(fault.lane);
  const std::string message =
      describe_fault(fault, launch.layout->module(), launch.launch.kernel, cta.context, thread);
  m_callbacks.fault(launch.grid_id, message, fault.global_address());
}

void Sm::abort() {
  m_aborted = true;
  m_wake_cycle = 0;
  for (IdleSubCore& idle : m_idle) idle.valid = false;
  for (uint32_t w = 0; w < m_warps.size(); ++w) {
    Warp& warp = m_warps[w];
    if (!warp.resident) continue;
    warp.resident = false;
    SubCore& sub_core = *m_sub_cores[sub_core_of(w)];
    sub_core.scheduler().remove_warp(scheduler_slot(w));
    --sub_core.resident_warps;
  }
  for (Cta& cta : m_ctas) cta.resident = false;
  m_resident_ctas = 0;
  m_releases.clear();
  for (auto& sub_core : m_sub_cores) sub_core->pause();
}

void Sm::queue_send(LdstUnit::Outbound& outbound) {
  m_to_send.push_back(&outbound);
  if (!m_port_busy && m_to_send.size() == 1) {
    m_send_event.notify(m_loop.offset_of(outbound.send_cycle));
  }
}

void Sm::send() {
  while (!m_port_busy) {
    LdstUnit::Outbound* next = next_to_send();
    if (next == nullptr) return;
    LdstUnit::Outbound& head = *next;
    if (head.get_address() - m_managed_base < m_managed_bytes && !translate(head)) continue;
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    m_port_busy = true;
    const tlm::tlm_sync_enum status = out->nb_transport_fw(head, phase, delay);
    if (status == tlm::TLM_COMPLETED) {
      m_port_busy = false;
      response_arrived(head, delay);
    } else if (status == tlm::TLM_UPDATED && phase == tlm::END_REQ) {
      m_port_busy = false;
    } else if (status == tlm::TLM_UPDATED && phase == tlm::BEGIN_RESP) {
      m_port_busy = false;
      response_arrived(head, delay);
    }
  }
}

LdstUnit::Outbound* Sm::next_to_send() {
  const uint64_t now = kernel_now_ps();
  uint64_t next_cycle = CycleLoop::never;
  if (!m_walking.empty()) {
    const Walking& first = m_walking.front();
    if (m_loop.time_ps(first.ready_cycle) <= now) {
      LdstUnit::Outbound* request = first.request;
      std::pop_heap(m_walking.begin(), m_walking.end(), std::greater<>());
      m_walking.pop_back();
      return request;
    }
    next_cycle = first.ready_cycle;
  }
  if (!m_to_send.empty()) {
    LdstUnit::Outbound* head = m_to_send.front();
    if (m_loop.time_ps(head->send_cycle) <= now) {
      m_to_send.pop_front();
      return head;
    }
    next_cycle = std::min(next_cycle, head->send_cycle);
  }
  if (next_cycle != CycleLoop::never) m_send_event.notify(m_loop.offset_of(next_cycle));
  return nullptr;
}

bool Sm::translate(LdstUnit::Outbound& request) {
  const uint64_t address = request.get_address();
  const bool walked = request.walked;
  const uint64_t page = m_tlb ? m_tlb->page_of(address) : 0;
  if (m_tlb) {
    if (walked) {
      request.walked = false;
      const auto walking = m_walk_ready.find(page);
      if (walking != m_walk_ready.end() && m_loop.time_ps(walking->second) <= kernel_now_ps())
        m_walk_ready.erase(walking);
    } else if (m_tlb->lookup(page)) {
      m_stats.tlb_hits.inc();
    } else {
      m_stats.tlb_misses.inc();
      walk(request, page);
      return false;
    }
  }
  using Outcome = ManagedTranslation::Translation::Outcome;
  const ManagedTranslation::Translation translation =
      m_translation->translate(address, *this, request);
  if (translation.outcome == Outcome::fault) return false;  // the driver replays it
  if (walked) m_tlb->insert(page);
  if (translation.outcome == Outcome::remote) return false;  // the driver answers it
  request.set_address(translation.frame);
  request.translated = true;
  return true;
}

void Sm::walk(LdstUnit::Outbound& request, uint64_t page) {
  const uint64_t period = m_loop.period_ps();
  const uint64_t cycle = (kernel_now_ps() + period - 1) / period;
  auto [walking, started] = m_walk_ready.try_emplace(page, 0);
  if (started || walking->second < cycle) {
    walking->second = cycle + m_config.tlb.page_walk_cycles;
    m_stats.page_walks.inc();
  }
  request.walked = true;
  m_walking.push_back({walking->second, m_walk_order++, &request});
  std::push_heap(m_walking.begin(), m_walking.end(), std::greater<>());
}

void Sm::invalidate_translations(uint64_t address, uint64_t bytes) {
  if (m_tlb) m_stats.tlb_invalidations.inc(m_tlb->invalidate(address, bytes));
}

tlm::tlm_sync_enum Sm::nb_transport_bw(tlm::tlm_generic_payload& payload, tlm::tlm_phase& phase,
                                       sc_core::sc_time& delay) {
  if (phase == tlm::END_REQ) {
    m_port_busy = false;
    if (!m_to_send.empty() || !m_walking.empty()) m_send_event.notify(delay);
    return tlm::TLM_ACCEPTED;
  }
  if (phase == tlm::BEGIN_RESP) {
    if (payload.get_ref_count() == 0 || !payload.has_mm()) {
      throw SimulationError(std::string(name()) + ": response to a request this SM did not send");
    }
    response_arrived(static_cast<LdstUnit::Outbound&>(payload), delay);
    return tlm::TLM_COMPLETED;
  }
  throw SimulationError(std::string(name()) + ": unexpected phase from the crossbar");
}

void Sm::set_translation(ManagedTranslation* translation) {
  m_translation = translation;
  m_managed_base = translation ? translation->window_base() : 0;
  m_managed_bytes = translation ? translation->window_bytes() : 0;
  m_tlb.reset();
  if (translation && m_config.tlb.entries > 0)
    m_tlb.emplace(m_config.tlb.entries, translation->page_bytes());
}

void Sm::remote_response(LdstUnit::Outbound& request) {
  response_arrived(request, sc_core::SC_ZERO_TIME);
}

void Sm::replay(LdstUnit::Outbound& request) {
  request.send_cycle = m_loop.arrival_cycle(sc_core::SC_ZERO_TIME);
  queue_send(request);
}

void Sm::response_arrived(LdstUnit::Outbound& outbound, const sc_core::sc_time& delay) {
  if (outbound.translated) {
    outbound.translated = false;
    m_translation->answered(outbound.get_address());
  }
  m_ldst.response(outbound, m_loop.arrival_cycle(delay));
  m_wake_cycle = 0;
  m_loop.wake();
}

}  // namespace ohmvp::gpu
