#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "modules/common/stats.h"
#include "modules/common/trace_signal.h"
#include "modules/gpu/copy_engine.h"
#include "modules/gpu/cta_dispatcher.h"
#include "modules/gpu/cycle_loop.h"
#include "modules/gpu/gpu_config.h"
#include "modules/gpu/kernel_launch.h"
#include "modules/gpu/l2_slice.h"
#include "modules/gpu/launch_record.h"
#include "modules/gpu/launch_state.h"
#include "modules/gpu/sm.h"
#include "modules/interconnect/crossbar.h"
#include "platforms/memory_system.h"
#include "tlm_protocols/gpu_memory_protocol.h"

namespace ohmvp::gpu {

// The GPU: `sm_count` SMs stepped by one cycle loop in the core clock domain, a CTA dispatcher,
// the SM <-> L2 crossbar and one L2 slice per memory channel, each slice bound to its channel's
// memory controller (the MemorySystem must be built with MemorySystem::Front::per_channel).
//
// Public API, for the runtime:
//  - launch(): runs one kernel launch. Launches run concurrently, up to
//    `max_resident_grids` grids at once, the later ones queued in call order (launch_first puts
//    one ahead of them; a greater KernelLaunch::priority goes first); a grid's CTAs are
//    dispatched once every earlier grid's of its priority or a greater one have, into the room
//    the others leave on each SM (CtaDispatcher). The caller orders dependent launches: it
//    hands over a launch once the work it depends on has ended. `done` runs (from a SystemC
//    process, at the simulated time the launch ended) once every CTA has finished and every
//    store has reached L2, or once a device fault stopped the launch (then
//    LaunchResult::faulted with the message naming kernel, PC and instruction, CTA and thread).
//    A fault stops the grids running beside it (LaunchResult::stopped) and ends the launches
//    queued behind it: they are not run, and their `done` runs right after the faulted one's with
//    LaunchResult::skipped, as a CUDA context that met a device fault runs nothing more.
//    Bad launches (unknown kernel, empty grid, short argument block, a CTA that fits no SM, an
//    instruction the GPU's compute capability lacks) throw ConfigError at the call.
//  - read()/write(): debug (zero-time) access to device memory through the L2s, for host copies;
//    the L2s' cached bytes are seen and updated. SimulationError outside the memory.
// Device addresses start at `device_base` (a multiple of the memory's interleave): the byte at
// device_base is the memory's first, so a guard below it costs no memory.
// Statistics: group "gpu" (totals over all launches; `cycles` counts the cycles in which at
// least one grid ran) and "gpu.smN" / "gpu.smN.subK".
class Gpu : public sc_core::sc_module, public CycleLoop::Client {
 public:
  Gpu(sc_core::sc_module_name name, const GpuConfig& config, MemorySystem& memory,
      StatsRegistry& stats, VcdWriter* vcd, uint64_t device_base = 0);
  ~Gpu() override;
  SC_HAS_PROCESS(Gpu);

  void launch(const KernelLaunch& launch, LaunchDone done);
  // As launch(), but ahead of the queued launches: a grid launched from the device, which runs
  // before the host's later launches. Called from a done callback, it runs next.
  void launch_first(const KernelLaunch& launch, LaunchDone done);
  // What launch() checks before it queues a launch (ConfigError), for a launch queued later.
  void check(const KernelLaunch& launch) const { prepare(launch); }
  // Ends the launches as a device fault does: the running grids stop (LaunchResult::stopped) and
  // the queued launches complete unrun (LaunchResult::skipped). The runtime found a device
  // launch it cannot make.
  void stop_all();
  bool busy() const { return !m_running.empty() || !m_queued.empty(); }
  // CTAs that have finished, every launch: progress a run monitor can see.
  uint64_t ctas_done() const { return m_ctas_done; }
  // Warp instructions the SMs have issued so far (the `gpu` totals are summed at a launch's end).
  uint64_t warp_instructions_issued() const;
  // Packets the crossbar has started carrying: data moving between the SMs and the L2.
  uint64_t crossbar_packets() const { return m_crossbar->packets(); }
  // The kernels of the grids running now, in the order they started.
  std::vector<std::string> running_kernels() const;

  void read(uint64_t address, void* data, uint64_t bytes);
  void write(uint64_t address, const void* data, uint64_t bytes);
  // Timed copies between the host side and device memory through the L2s.
  CopyEngine& copy_engine() { return *m_copy_engine; }
  // Every SM's requests to managed addresses go through `translation` (the UVM driver).
  void set_translation(ManagedTranslation* translation);
  // A TLB shootdown on every SM: the pages [address, address + bytes) overlaps are being unmapped.
  void invalidate_translations(uint64_t address, uint64_t bytes);

  const GpuConfig& config() const { return m_config; }
  uint64_t device_base() const { return m_map.base; }
  sc_core::sc_time clock_period() const;
  const CycleLoop& cycle_loop() const { return m_loop; }
  const Sm& sm(uint32_t index) const { return *m_sms[index]; }
  const L2Slice& l2_slice(uint32_t index) const { return *m_slices[index]; }
  // Every launch that finished, in order.
  const std::vector<LaunchRecord>& launch_log() const { return m_launch_log; }

  uint64_t step(uint64_t cycle) override;
  bool paced() const override;

 private:
  struct Queued {
    KernelLaunch launch;
    LaunchDone done;
  };
  struct Running;
  struct Ended {
    LaunchDone done;
    LaunchResult result;
  };
  struct Totals;

  void start_queued();
  void start(Queued next);
  Running& running(uint32_t grid);
  std::unique_ptr<LaunchState> prepare(const KernelLaunch& launch) const;
  void cta_done(uint32_t sm, uint32_t grid);
  // Stops every running grid: the SMs drop their CTAs; the grids end once the SMs have drained.
  // `grid`: the one that faulted (none: stop_all).
  void fault(std::optional<uint32_t> grid, const std::string& message,
             std::optional<uint64_t> global_address);
  // gpu.grids_running: the grids whose CTAs have started, at `cycle`.
  void trace_grids(uint64_t cycle);
  // Ends grid `grid` at `cycle`; after a fault every running grid ends so.
  void finish(uint32_t grid, uint64_t cycle);
  void deliver_done();
  void skip(std::deque<Queued>& queued);
  void update_tensor_totals(uint64_t cycles);
  void update_totals();
  // Debug transport in chunks of at most 1 MiB; throws when part of the range is not device memory.
  void debug(tlm::tlm_command command, uint64_t address, uint8_t* data, uint64_t bytes);

  GpuConfig m_config;
  InterleaveMap m_map;
  CycleLoop m_loop;
  std::vector<std::unique_ptr<Sm>> m_sms;
  std::unique_ptr<Crossbar> m_crossbar;
  std::vector<std::unique_ptr<L2Slice>> m_slices;
  std::unique_ptr<CopyEngine> m_copy_engine;  // the crossbar port after the SMs'
  ManagedTranslation* m_translation = nullptr;
  CtaDispatcher m_dispatcher;

  std::deque<Queued> m_queued;
  std::vector<std::unique_ptr<Running>> m_running;  // in the order they started
  std::vector<uint32_t> m_grids_done;  // grids whose last CTA finished, to end at the next step
  std::deque<Ended> m_ended;           // their done callbacks, due at their end cycles
  uint64_t m_ctas_done = 0;
  bool m_dispatch_due = false;
  // A device fault stopped the running grids; launches wait in the queue (to be skipped) until
  // the faulted one's done has run.
  bool m_faulted = false;
  std::optional<uint32_t> m_fault_grid;  // none: stop_all()
  std::string m_fault_message;
  std::optional<uint64_t> m_fault_address;
  uint64_t m_busy_since = 0;  // the first cycle of the busy period under way
  TraceSignal m_trace_grids;
  uint32_t m_grid_id = 0;
  uint64_t m_last_end_cycle = 0;
  std::vector<LaunchRecord> m_launch_log;
  sc_core::sc_event m_done_event;

  std::unique_ptr<Totals> m_totals;
};

}  // namespace ohmvp::gpu
