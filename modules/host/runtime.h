#pragma once

#include <cstdint>
#include <deque>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <systemc>
#include <vector>

#include "modules/common/stats.h"
#include "modules/common/timed_actions.h"
#include "modules/common/trace_signal.h"
#include "modules/gpu/gpu.h"
#include "modules/gpu/ptx/program.h"
#include "modules/gpu/simt/texture.h"
#include "modules/host/device_allocator.h"
#include "modules/host/settling_memory.h"
#include "modules/host/stream_order.h"
#include "modules/interconnect/pcie_link.h"
#include "modules/uvm/uvm_driver.h"

namespace ohmvp {

// The host side of a platform, modelled on the CUDA runtime: device memory, copies over the PCIe
// link, PTX modules, kernel launches, synchronisation. A host program calls it from sc_main after
// building the platform; each call that has to wait (a copy, synchronize) runs the simulation
// until it is done, so simulated time moves as it would for a real host thread.
//
// Copies are synchronous like cudaMemcpy: they first wait for every launched kernel, then occupy
// the PCIe link for latency + bytes / bandwidth, and the bytes land in device memory (through the
// L2s, which stay coherent with it) when the last one arrives. Launches are asynchronous like
// <<<...>>> on the default stream: they queue and run in order, and a host that has
// max_queued_launches waiting waits for the oldest to finish, as a real runtime's launch queue
// stops the host when it is full.
//
// Streams and events (cudaStreamCreate, cudaMemcpyAsync, cudaEventRecord, ...) order work as
// CUDA does (StreamOrder; stream 0 is the legacy default stream, which every synchronous call
// above uses). A launch goes to the GPU when its stream lets it, beside the kernels of other
// streams that are running (Gpu::launch); an
// asynchronous copy crosses PCIe in parts and the GPU's copy engine moves each part through the
// L2s, so copies overlap kernels of other streams and copies the other way.
//
// The host program calls it from sc_main, or from a SystemC thread of its own (sc_spawn): then
// each call that waits suspends that thread (wait()) while the rest of the platform runs, so that
// the host programs of several GPUs run side by side.
//
// On a multi-GPU platform with memHarvester, another GPU's UVM driver may borrow this GPU's spare
// memory (MemoryLender); a cudaMalloc that finds no room takes borrowed chunks back first.
class Runtime : public sc_core::sc_module, public MemoryLender {
 public:
  using ModuleId = uint32_t;
  using StreamId = StreamOrder::StreamId;
  using EventId = uint32_t;
  static constexpr StreamId default_stream = StreamOrder::default_stream;
  // The part of an asynchronous copy that crosses PCIe and then the copy engine as one: a
  // modelling choice (the copy engine's own unit is not published), the UVM driver's page.
  static constexpr uint64_t async_copy_part_bytes = 4096;
  // A modelling choice: the host queue's depth is not published; launches on one stream are
  // measured to stop the host after about 1000 (Stack Overflow question 53970187, "CUDA stream
  // is blocked when launching many kernels (>1000)"). It also bounds the work queued on all
  // streams together (launches, asynchronous copies, event records and waits).
  static constexpr size_t max_queued_launches = 1024;
  // Cooperative groups' grid workspace: {size, barrier}, two 32-bit words (driver_abi.h).
  static constexpr size_t grid_workspace_bytes = 8;

  struct LaunchConfig {
    gpu::Dim3 grid, block;
    uint32_t dynamic_shared_bytes = 0;
    // cudaLaunchCooperativeKernel: all blocks resident at once (refused when they do not fit),
    // with the grid workspace cooperative groups' this_grid().sync() counts arrivals in.
    bool cooperative = false;
    // Registers a thread gets (ptxas's count); 0: counted from the PTX (gpu::KernelLaunch).
    uint32_t registers_per_thread = 0;
    // cudaLaunchAttributePriority: this launch's priority (clamped as a stream's) instead of its
    // stream's; the grids it launches from the device run at it too.
    std::optional<int> priority;
  };

  // `device_bytes` of memory behind the GPU, at device addresses from gpu.device_base() on;
  // `device_gb_per_s` is its peak bandwidth, which times memset and device-to-device copies
  // (they run on the GPU's copy engine, not over PCIe).
  // `uvm` configures the unified-memory driver of managed allocations; `vcd` traces its faults.
  Runtime(sc_core::sc_module_name name, gpu::Gpu& gpu, const PcieLinkConfig& pcie,
          uint64_t device_bytes, double device_gb_per_s, StatsRegistry& stats,
          const UvmConfig& uvm = {}, VcdWriter* vcd = nullptr);
  ~Runtime() override;

  // cudaDeviceSetLimit, for the launches from now on: the call stack, the device heap (its size
  // only before the first launch of a kernel that calls malloc or free) and the printf FIFO.
  // ConfigError for a value out of range or a late heap size (check_limits).
  void set_limits(const gpu::DeviceLimits& limits);
  const gpu::DeviceLimits& limits() const { return m_limits; }

  // cudaMalloc / cudaFree. OutOfDeviceMemory when nothing fits, even with every chunk a
  // neighbour borrowed taken back (waiting for those still being written back to host memory)
  // and every chunk of managed memory evicted (waiting for their pages to be out);
  // std::invalid_argument for a bad free.
  uint64_t malloc(uint64_t bytes);
  // cudaMallocManaged: memory the host and the GPU share. Its pages start in host memory and
  // move to the GPU when a kernel touches them (UvmDriver); a host access (the copies, fill and
  // memset below, on a managed address) first brings the pages it covers back to host memory,
  // as a CPU page fault does, and then takes no simulated time of its own (a modelling choice:
  // host memory's own timing is not modelled). OutOfDeviceMemory when the managed window is full.
  uint64_t malloc_managed(uint64_t bytes);
  // cudaFree of either kind; 0 is nothing to free.
  void free(uint64_t address);
  // cudaMemPrefetchAsync of [address, address + bytes), managed memory of one allocation, to the
  // GPU (`to_host` false) or to host memory, on the default stream: after the queued launches,
  // and returning once the pages are there (as the copies here are synchronous).
  // std::invalid_argument for a range outside every managed allocation.
  void prefetch_managed(uint64_t address, uint64_t bytes, bool to_host);
  // The same queued on `stream`, returning at once: when its stream lets it start and the UVM
  // driver has settled (no fault batch open: kernels on other streams may run and fault), the
  // driver moves the pages as the synchronous call does; faults that come meanwhile wait for the
  // next batch. To host memory it runs as the synchronous call does (a host access's migration,
  // which takes pages from under no running kernel).
  void prefetch_managed_async(uint64_t address, uint64_t bytes, bool to_host, StreamId stream);
  // cudaMemAdvise of [address, address + bytes), managed memory of one allocation
  // (UvmDriver::advise); takes no time. std::invalid_argument for a range outside every managed
  // allocation.
  void advise_managed(uint64_t address, uint64_t bytes, ManagedAdvice advice);

  void copy_to_device(uint64_t destination, const void* source, uint64_t bytes);
  void copy_to_host(void* destination, uint64_t source, uint64_t bytes);
  void copy_on_device(uint64_t destination, uint64_t source, uint64_t bytes);
  void memset(uint64_t destination, uint8_t value, uint64_t bytes);
  // Writes `bytes` bytes from `pattern` (a host buffer of that size, laid out by the caller) as
  // a device-side fill: a memset of any pattern, timed at device-memory bandwidth (through the
  // copy engine beside non-blocking streams' work, as memset).
  void fill(uint64_t destination, const void* pattern, uint64_t bytes);

  // Parses the PTX (ConfigError on bad PTX) and places its .global variables in device memory.
  ModuleId load_module(const std::filesystem::path& ptx);
  // The same for a module already parsed.
  ModuleId load_module(gpu::Module module);
  const gpu::Module& module(ModuleId id) const;
  // cudaGetSymbolAddress: the device address of a module-scope .global or .const variable (a
  // .const one's copy in device memory: what the host writes there, with any copy, is what the
  // launches after read from the constant bank, as cudaMemcpyToSymbol does);
  // std::invalid_argument when the module has none of that name.
  uint64_t symbol_address(ModuleId id, const std::string& name) const;

  // Binds `binding` (handle ignored) and returns the texture-object handle a kernel receives;
  // with `binding.surface` set, the surface-object handle suld/sust take
  // (cudaCreateSurfaceObject). Sampling CUDA refuses is std::invalid_argument.
  uint64_t create_texture(gpu::TextureBinding binding);

  // Queues a launch on `stream`; `arguments` is the kernel's parameter block, laid out as its
  // PTX .param list says (see argument_layout). ConfigError for an unknown kernel or a bad
  // configuration.
  void launch(ModuleId module, const std::string& kernel, const LaunchConfig& config,
              std::vector<uint8_t> arguments, StreamId stream = default_stream);

  // cudaStreamCreate / cudaStreamDestroy (its work still runs). The calls below take a stream;
  // std::invalid_argument for one that names no stream. A non-blocking stream
  // (cudaStreamCreateWithFlags(cudaStreamNonBlocking)) is not ordered with the default stream:
  // its work does not wait for stream 0's, and stream 0's work and the synchronous copies and
  // memset do not wait for its (synchronize, free, reset, fill, copy_on_device and calls on
  // managed memory do).
  // `priority` (cudaStreamCreateWithPriority): the CTAs of kernels launched on the stream, and
  // of the grids those launch from the device, are dispatched before those of lesser priority
  // waiting beside them (gpu::CtaDispatcher); copies are not ordered by it. Lower numbers are
  // greater priorities; a value outside stream_priority_range() takes its nearest end, as CUDA
  // clamps it. Stream 0's priority is 0, the least.
  using StreamKind = StreamOrder::Kind;
  StreamId create_stream(StreamKind kind = StreamKind::blocking, int priority = 0);
  // cudaDeviceGetStreamPriorityRange: 0 and gpu.greatest_stream_priority.
  struct StreamPriorityRange {
    int least = 0;
    int greatest = 0;
  };
  StreamPriorityRange stream_priority_range() const;
  // cudaStreamGetPriority: the priority `stream` was created with (after clamping).
  int stream_priority(StreamId stream) const;
  void destroy_stream(StreamId stream);
  // cudaStreamSynchronize: waits for the stream's work; raises a device fault as synchronize().
  void stream_synchronize(StreamId stream);
  // cudaStreamQuery: whether the stream's work is done (takes no time).
  bool stream_query(StreamId stream);
  // cudaMemcpyAsync and cudaMemsetAsync: queued on the stream, returning at once. The host
  // buffer must stay as it is (a source) or unread (a destination) until the stream's work is
  // done, as for pinned host memory: a part's bytes are read or written when it crosses. On a
  // managed address they run as the synchronous calls do, after all the work queued before.
  void copy_to_device_async(uint64_t destination, const void* source, uint64_t bytes,
                            StreamId stream);
  void copy_to_host_async(void* destination, uint64_t source, uint64_t bytes, StreamId stream);
  void memset_async(uint64_t destination, uint8_t value, uint64_t bytes, StreamId stream);
  // cuMemsetD16Async and cuMemsetD32Async (and D8 with `element_bytes` 1): `count` elements of
  // `element_bytes` (1, 2 or 4) from `destination`, which must be aligned to them, each set to
  // `value`'s low bytes (little-endian). Otherwise std::invalid_argument.
  void memset_elements_async(uint64_t destination, uint32_t value, unsigned element_bytes,
                             uint64_t count, StreamId stream);
  // cudaMemcpyAsync device to device: the copy engine reads each part of the source and writes
  // it to the destination. The two ranges may not overlap (std::invalid_argument).
  void copy_on_device_async(uint64_t destination, uint64_t source, uint64_t bytes, StreamId stream);

  // cudaEventCreate / cudaEventDestroy, numbered from 1. The calls below take an event;
  // std::invalid_argument for one that names no event.
  EventId create_event();
  void destroy_event(EventId event);
  // cudaEventRecord: the event completes when the stream's work queued so far is done, and
  // keeps that time.
  void record_event(EventId event, StreamId stream = default_stream);
  // cudaStreamWaitEvent: the stream's later work waits for the event's last record.
  void stream_wait_event(StreamId stream, EventId event);
  // cudaEventSynchronize (an event never recorded is complete) and cudaEventQuery.
  void event_synchronize(EventId event);
  bool event_query(EventId event);
  // cudaEventElapsedTime: simulated milliseconds from `start` to `end`, both recorded and
  // complete (std::invalid_argument otherwise).
  double event_elapsed_ms(EventId start, EventId end);
  // When the stream reached the event's last record (simulated ps), for a report; none when it
  // was never recorded or that record is not done.
  std::optional<uint64_t> event_time_ps(EventId event);
  // Waits for every queued launch. A device fault raises DeviceFaultError (a SimulationError)
  // with its message and, for an unmapped or misaligned global access, its address.
  // The fault is sticky, as CUDA's are ("any further CUDA work will return the same error"):
  // the launches queued behind it are not run, and from the call that raises it on, every call
  // of this API that CUDA has (malloc to synchronize) raises it again, until reset().
  void synchronize();
  // A fresh context on the same device, where CUDA has the host program end and start again
  // (its sticky faults outlast cudaDeviceReset): waits for the queued launches, forgets the fault,
  // frees every allocation, unloads every module (their ids name nothing from then on), unbinds
  // the textures, drops the device heap and the grid workspace, and restores the default limits.
  // Device memory keeps its bytes and the statistics keep counting; simulated time goes on.
  void reset();
  // Where the text of the kernels' printf calls goes when they are reaped (at a synchronising
  // call, as CUDA prints it): stdout unless set; a note of dropped printfs goes to stderr.
  void set_printf_output(std::ostream& out) { m_printf_output = &out; }

  // The kernel's parameters as (offset, bytes) in its parameter block, and the block's size.
  struct ParamSlot {
    std::string name;
    uint64_t offset = 0;
    uint64_t bytes = 0;
    gpu::DataType type = gpu::DataType::none;  // as declared (.u32, .f32, .b8 for an array)
  };
  std::vector<ParamSlot> argument_layout(ModuleId module, const std::string& kernel) const;
  uint64_t argument_bytes(ModuleId module, const std::string& kernel) const;
  // The kernel's C++ signature ("void blas::scale<2>(float*, float)"), or its name for an
  // extern "C" kernel: how messages name it.
  std::string kernel_signature(ModuleId module, const std::string& kernel) const;

  // The memory behind the GPU, when it moves data by itself (heterogeneous memory): copies,
  // fills and memsets then wait until it is quiet, as a DMA through its controller would wait
  // for a migration of the pages it touches.
  void settle_with(SettlingMemory& memory) { m_settling = &memory; }

  // The unified-memory driver of the managed allocations.
  UvmDriver& uvm() { return *m_uvm; }
  // The PCIe link between host memory and this GPU.
  PcieLink& pcie() { return m_pcie; }

  // MemoryLender: chunks of this GPU's memory for a neighbour's UVM driver.
  std::optional<uint64_t> lend(uint64_t bytes) override;
  void give_back(uint64_t address) override;
  void lend_to(MemoryBorrower& borrower) override { m_borrowers.push_back(&borrower); }

  // Runs the simulation until `finished()` says so (`what` names the wait in a stall's message):
  // from sc_main, in sc_start slices ended by sc_pause() (a completion calls wake()); from a
  // SystemC thread, waiting on wake()'s event. The condition is looked at after each wake(): code
  // of the caller's own that makes it true (a host thread setting a flag) calls wake().
  void run_until(const std::function<bool()>& finished, const char* what);
  // What a completion calls to have run_until look again.
  void wake();

  sc_core::sc_time now() const { return sc_core::sc_time_stamp(); }
  uint32_t kernels_run() const { return static_cast<uint32_t>(m_launches.value()); }

 private:
  struct LoadedModule;
  struct Pending;
  struct DeviceWork;
  struct AsyncCopy;
  // Work on a stream: how it starts (null: it started as it was added), and what it does
  // instead when a launch has faulted (nothing more runs). Each calls work_done once it is done.
  struct StreamWork {
    std::function<void(StreamOrder::WorkId)> start, skip;
  };
  struct Event {
    std::optional<StreamOrder::WorkId> recorded;  // the last record's place on its stream
    uint64_t time_ps = 0;                         // when the stream reached it
  };

  // Queues `work` on `stream` (after `also`, if given) and starts what is ready.
  StreamOrder::WorkId add_work(StreamId stream, StreamWork work,
                               std::optional<StreamOrder::WorkId> also = std::nullopt);
  void start_ready_work();
  void work_done(StreamOrder::WorkId work);
  // What every call that queues work on a stream does first.
  void before_async_work(StreamId stream, const char* what);
  // Waits while max_queued_launches pieces of work are queued on the streams.
  void wait_for_stream_room();
  // A prefetch to the GPU once its stream lets it: waits for the driver to settle, then moves.
  void start_prefetch(const std::shared_ptr<AsyncCopy>& prefetch);
  // `priority` within stream_priority_range(): its nearest end when outside, as CUDA clamps it.
  int clamp_priority(int priority) const;
  // Queues an asynchronous copy or memset on `stream`.
  void queue_copy(StreamId stream, const std::shared_ptr<AsyncCopy>& copy);
  // A copy to the device, once its stream lets it start.
  void start_copy_to_device(const std::shared_ptr<AsyncCopy>& copy);
  // Copy-engine parts of a copy to the host or a memset, two outstanding at a time.
  void issue_device_parts(const std::shared_ptr<AsyncCopy>& copy);
  void part_landed(const std::shared_ptr<AsyncCopy>& copy, uint64_t bytes);
  // The copy engine writes a part (one counted in m_parts_in_engine) to the copy's device range.
  void write_part(const std::shared_ptr<AsyncCopy>& copy, uint64_t offset,
                  std::vector<uint8_t> data);
  void copy_done(AsyncCopy& copy);
  // A launch faulted: the copies on their way end now, and their parts still on the way do
  // nothing (the context is dead; the host may free its buffers once the fault is raised), but
  // for the parts the copy engine already holds, whose stores land.
  void abandon_copies();
  // A part of an asynchronous copy the copy engine held is done (m_parts_in_engine).
  void part_left_engine();
  Event& event(EventId id, const char* what);
  // Copies over PCIe start (+1) or end (-1): their direction's VCD count.
  void count_copies(PcieLink::Direction direction, int change);

  const gpu::Function& find_kernel(ModuleId module, const std::string& kernel) const;
  // The Gpu's request for a launch of `kernel` whose grids record their device launches in
  // `pending`; `local_region` gets its .local storage. ConfigError when it cannot be made.
  // `from_host`: the host launches it (not a kernel), so that memory may be waited for.
  gpu::KernelLaunch make_request(ModuleId module, const std::string& kernel,
                                 const LaunchConfig& config, std::vector<uint8_t> arguments,
                                 Pending& pending, uint64_t& local_region, bool from_host);
  // A grid of `pending`'s ended (depth 0: the host's, else one launched from the device): queues
  // the grids it launched, starts the next one, or marks the launch done.
  // Adds a finished launch's time on the GPU to kernel_time (overlapping launches once).
  void count_kernel_time(const gpu::LaunchResult& result);
  void grid_done(Pending& pending, const gpu::LaunchResult& result, const std::string& kernel,
                 uint32_t depth);
  // Starts the next grid launched from the device; false when it cannot run (then `pending`
  // holds the fault, and the queued launches are skipped).
  bool start_device_work(Pending& pending);
  void reap_finished_launches();
  // Raises the sticky fault, if one has been seen (after reaping the finished launches).
  void raise_fault();
  void raise_seen_fault() const;
  // Runs the simulation until every queued launch is done, and reaps them.
  void wait_for_launches(const char* what);
  // A block from the allocator (OutOfDeviceMemory when none fits), m_untouched_from moved past it.
  uint64_t take(uint64_t bytes);
  // take(), taking borrowed chunks back when nothing fits. With `may_wait`, a host call's, it
  // also takes the UVM driver's chunks (evicting managed pages), and waits for borrowed chunks to
  // become removable and evicted ones to be out; without, it takes back only borrowed chunks
  // that can go at once.
  uint64_t allocate(uint64_t bytes, bool may_wait);
  // One chunk back from `holders`, in order: a free one from any, else a removable one.
  MemoryBorrower::Reclaim reclaim_one(const std::vector<MemoryBorrower*>& holders);
  void ensure_started();
  void advance_to(uint64_t time_ps);
  void device_side_copy_time(uint64_t bytes_moved);
  // Kernels done and, with settle_with, the memory quiet: what a functional copy needs.
  // What a synchronous call waits for before it acts: the work the default stream's order puts
  // before it (every blocking stream's; every stream's when `every_stream`, as the calls on
  // managed memory need, the driver moving pages while no kernel runs), a fault raised, then the
  // memory's migrations.
  void quiesce(bool every_stream = true);
  // Whether a synchronous call that waited for the default stream's order runs beside work of
  // non-blocking streams. Then a copy, memset or fill goes through the copy engine as an
  // asynchronous one on stream 0, and the call waits for it: the synchronous path writes and reads
  // device memory at once, which the kernels' accesses in flight could undo.
  bool beside_other_streams() const;
  // A fill beside such work: the copy engine writes the pattern on stream 0, and the call waits.
  void fill_on_default_stream(uint64_t destination, const void* pattern, uint64_t bytes);
  // std::invalid_argument when a call that moves `bytes` of host memory is given none.
  static void check_host_pointer(const void* pointer, uint64_t bytes, const char* what);
  void check_range(uint64_t address, uint64_t bytes, const char* what) const;
  // Both ranges in allocations, not overlapping: std::invalid_argument otherwise.
  void check_device_copy(uint64_t destination, uint64_t source, uint64_t bytes) const;
  // std::invalid_argument naming `what` unless the range lies in one managed allocation.
  void check_managed_range(uint64_t address, uint64_t bytes, const char* what) const;
  bool mapped(uint64_t address, uint64_t bytes) const;
  // What a block the runtime allocated for itself holds, for free()'s message.
  std::string owner_of(uint64_t block) const;
  bool managed(uint64_t address) const { return m_uvm->in_window(address); }
  // The bytes of a range of one allocation, as the host sees them: device memory through the
  // L2s, or a managed range's host memory once its pages are back there.
  void read_bytes(uint64_t address, void* data, uint64_t bytes);
  void write_bytes(uint64_t address, const void* data, uint64_t bytes);
  // Runs until the UVM driver has no pre-eviction in flight.
  void settle_managed();
  // Runs until the callback `start` hands out has been called (run_until with a flag that
  // callback sets; it may be handed to several, the first call counts).
  void wait_for(const std::function<void(const std::function<void()>&)>& start, const char* what);
  // Waits for the UVM driver's migrate_to_host of the range (a host read, or a write).
  void bring_to_host(uint64_t address, uint64_t bytes, bool for_write);

  gpu::Gpu& m_gpu;
  SettlingMemory* m_settling = nullptr;
  PcieLink m_pcie;
  std::unique_ptr<UvmDriver> m_uvm;
  double m_device_gb_per_s;
  DeviceAllocator m_allocator;
  std::set<uint64_t> m_user_blocks;  // what malloc returned and free has not taken back
  uint64_t m_untouched_from = 0;  // device memory from here on was never allocated: all zero
  gpu::TextureTable m_textures;
  uint64_t m_next_texture = 1;
  std::vector<std::unique_ptr<LoadedModule>> m_modules;
  // Launches not yet reaped, oldest first; a finished one is reaped (its .local storage freed,
  // its fault kept for synchronize) when the host next launches or synchronizes.
  std::deque<std::unique_ptr<Pending>> m_pending;
  std::ostream* m_printf_output = &std::cout;
  gpu::DeviceLimits m_limits;
  std::unique_ptr<gpu::DeviceHeap> m_heap;  // malloc/free's, once a kernel uses them
  uint64_t m_grid_workspace = 0;            // cooperative launches', set aside at the first one
  std::string m_fault;                      // the first device fault seen: sticky until reset()
  std::optional<uint64_t> m_fault_address;  // its global address, if an access faulted
  TimedActions m_timed;
  // Copies in flight each way, synchronous and asynchronous (VCD: copies_to_device/_to_host).
  uint32_t m_copies_in_flight[2] = {0, 0};
  TraceSignal m_trace_copies[2];
  StreamOrder m_streams;
  std::map<StreamId, int> m_stream_priorities;  // the streams made with a priority other than 0
  std::map<StreamOrder::WorkId, std::shared_ptr<AsyncCopy>> m_async_copies;  // started, not done
  // Parts of asynchronous copies the copy engine holds: those of abandoned copies still land, and
  // reset() waits for them, so that they land before the next context's writes.
  uint32_t m_parts_in_engine = 0;
  std::map<StreamOrder::WorkId, StreamWork> m_stream_work;  // queued, not started
  bool m_starting_work = false;    // start_ready_work is running (work may be done at once)
  bool m_adding_work = false;      // a host call adds work: work done now wakes no one
  bool m_context_faulted = false;  // a launch faulted: the work queued after it is skipped
  std::map<EventId, Event> m_events;
  EventId m_next_event = 1;
  bool m_started = false;
  uint32_t m_threads_waiting = 0;  // host threads waiting in run_until for m_progress
  bool m_main_waiting = false;     // sc_main waits in run_until for an sc_pause()
  sc_core::sc_event m_progress;
  std::vector<MemoryBorrower*> m_borrowers;
  std::set<uint64_t> m_lent;  // chunks the borrowers hold

  Counter& m_launches;
  Counter& m_h2d_bytes;
  Counter& m_d2h_bytes;
  Counter& m_pcie_busy_ps;
  Counter& m_pcie_link_busy_ps;
  Counter& m_kernel_ps;
  uint32_t m_launches_on_gpu = 0;              // the host's launches handed to the GPU, not done
  std::optional<uint64_t> m_kernels_since_ps;  // the busy period's first start
  Counter& m_chunks_lent;
  Counter& m_chunks_taken_back;
};

}  // namespace ohmvp
