#include "modules/host/runtime.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>

#include "modules/common/demangle.h"
#include "modules/common/errors.h"
#include "modules/common/hex_text.h"
#include "modules/common/process_error.h"
#include "modules/common/scoped_value.h"
#include "modules/gpu/load_hoisting.h"
#include "modules/gpu/ptx/ptx_parser.h"
#include "modules/gpu/simt/kernel_layout.h"
#include "modules/gpu/simt/module_image.h"

namespace ohmvp {

using sc_core::SC_PS;
using sc_core::sc_time;

struct Runtime::LoadedModule {
  gpu::Module module;
  uint64_t global_base = 0;
  std::vector<uint8_t> const_bank;
};

// A grid a kernel launched from the device (dynamic parallelism), waiting to run.
struct Runtime::DeviceWork {
  gpu::DeviceLaunch launch;
  std::string parent;  // the launching kernel
  uint32_t depth = 1;  // 1 for a grid the host's kernel launched
};

// A host launch. It is done when its grid and every grid launched from the device under it have
// run: they run one after another as they were made, a grid's own launches before those its
// launcher made after it (depth first), ahead of the host's later launches.
struct Runtime::Pending {
  bool done = false;
  gpu::LaunchResult result;   // the host grid's; the device grids add their printf text and fault
  uint64_t local_region = 0;  // 0 when the kernel uses no .local storage
  std::string kernel;
  uint64_t printf_fifo_bytes = 0;
  ModuleId module = 0;
  int priority = 0;                     // its stream's; the grids it launches run at it too
  StreamOrder::WorkId work = 0;         // its place on its stream
  gpu::DeviceLaunches device_launches;  // what the grid running now launches
  std::deque<DeviceWork> device_work;   // the grids launched from the device still to run
  uint64_t device_local_region = 0;     // the running device grid's .local storage
};

namespace {

uint64_t now_ps() {
  return sc_core::sc_time_stamp().value();
}

// The error that ended an sc_start and left the kernel as it was inside a process: SystemC cannot
// run on from there (one kernel per process, so one record for every runtime).
std::string& aborted_simulation() {
  static std::string message;
  return message;
}

// Whether the caller is a SystemC process (a host thread), not sc_main. (The current process
// handle can stay valid in sc_main after sc_start returns; the status cannot, unless an error
// ended sc_start from inside a process.)
bool in_process() {
  return sc_core::sc_get_status() == sc_core::SC_RUNNING && aborted_simulation().empty();
}

// An exception thrown inside a SystemC process reaches sc_start's caller wrapped in an
// sc_report (process_error.h).
template <class... Args>
void simulate(const Args&... duration) {
  if (!aborted_simulation().empty())
    throw SimulationError(
        "the simulation cannot go on: an error stopped it inside a SystemC "
        "process earlier (" +
        aborted_simulation() + "); a new run needs a new process");
  try {
    sc_core::sc_start(duration...);
  } catch (const sc_core::sc_report& report) {
    if (sc_core::sc_get_status() == sc_core::SC_RUNNING) aborted_simulation() = report.get_msg();
    rethrow_process_error(report);
  }
}

}  // namespace

Runtime::Runtime(sc_core::sc_module_name name, gpu::Gpu& gpu, const PcieLinkConfig& pcie,
                 uint64_t device_bytes, double device_gb_per_s, StatsRegistry& stats,
                 const UvmConfig& uvm, VcdWriter* vcd)
    : sc_module(name),
      m_gpu(gpu),
      m_pcie(pcie),
      m_device_gb_per_s(device_gb_per_s),
      m_allocator(gpu.device_base(), gpu.device_base() + device_bytes),
      m_timed("timed"),
      m_launches(stats.counter(this->name(), "kernel_launches", "launches", "kernels launched")),
      m_h2d_bytes(stats.counter(this->name(), "host_to_device_bytes", "bytes",
                                "bytes copied from host to device over PCIe")),
      m_d2h_bytes(stats.counter(this->name(), "device_to_host_bytes", "bytes",
                                "bytes copied from device to host over PCIe")),
      m_pcie_busy_ps(stats.counter(this->name(), "pcie_busy", "ps",
                                   "time the PCIe link carried copies, the two directions "
                                   "summed (so up to twice the run's time)")),
      m_pcie_link_busy_ps(stats.counter(this->name(), "pcie_link_busy", "ps",
                                        "time the PCIe link carried anything, the two "
                                        "directions summed: "
                                        "copies, managed pages' migrations and the GPU's "
                                        "accesses in host memory")),
      m_kernel_ps(stats.counter(this->name(), "kernel_time", "ps",
                                "simulated time in which launches ran on the GPU: from "
                                "each launch's start to its completion, time two launches "
                                "overlap counted once")),
      m_chunks_lent(stats.counter(this->name(), "chunks_lent", "chunks",
                                  "chunks of this GPU's memory a harvesting GPU borrowed")),
      m_chunks_taken_back(stats.counter(this->name(), "chunks_taken_back", "chunks",
                                        "borrowed chunks this GPU's own allocations took back")) {
  const auto chunks = [this](uint64_t bytes) -> std::optional<uint64_t> {
    try {
      return allocate(bytes, false);
    } catch (const OutOfDeviceMemory&) {
      return std::nullopt;
    }
  };
  m_pcie.count_busy_in(m_pcie_link_busy_ps);
  const auto give_back = [this](uint64_t address) { m_allocator.free(address); };
  m_uvm = std::make_unique<UvmDriver>("uvm", uvm, gpu, m_pcie, chunks, give_back, stats, vcd);
  m_trace_copies[0].attach(vcd, this->name(), "copies_to_device", 8);
  m_trace_copies[1].attach(vcd, this->name(), "copies_to_host", 8);
}

void Runtime::count_copies(PcieLink::Direction direction, int change) {
  const int way = direction == PcieLink::Direction::host_to_device ? 0 : 1;
  m_copies_in_flight[way] += change;
  m_trace_copies[way].set(m_copies_in_flight[way], now_ps());
}

Runtime::~Runtime() = default;

uint64_t Runtime::malloc(uint64_t bytes) {
  raise_fault();
  const uint64_t address = allocate(bytes, true);
  m_user_blocks.insert(address);
  return address;
}

uint64_t Runtime::take(uint64_t bytes) {
  const uint64_t address = m_allocator.allocate(bytes);
  m_untouched_from = std::max(m_untouched_from, address + bytes);
  return address;
}

uint64_t Runtime::allocate(uint64_t bytes, bool may_wait) {
  for (;;) {
    try {
      return take(bytes);
    } catch (const OutOfDeviceMemory&) {
      // A host call may also take managed memory back (evicting, so it waits); the UVM driver's
      // own request for a chunk, or a launch's from inside the simulation, may not.
      std::vector<MemoryBorrower*> holders = m_borrowers;
      if (may_wait) holders.push_back(&m_uvm->memory_for_malloc());
      const MemoryBorrower::Reclaim answer = reclaim_one(holders);
      if (answer == MemoryBorrower::Reclaim::holds_none ||
          (answer == MemoryBorrower::Reclaim::wait && !may_wait))
        throw;
      if (answer == MemoryBorrower::Reclaim::gave_back) continue;
      // Any holder's change will do.
      wait_for(
          [&holders](const std::function<void()>& changed) {
            for (MemoryBorrower* holder : holders) holder->when_reclaimable(changed);
          },
          "waiting for lent or managed memory to come back");
    }
  }
}

MemoryBorrower::Reclaim Runtime::reclaim_one(const std::vector<MemoryBorrower*>& holders) {
  bool wait = false;
  for (const bool removable : {false, true})
    for (MemoryBorrower* holder : holders) {
      const MemoryBorrower::Reclaim answer = holder->reclaim(removable);
      if (answer == MemoryBorrower::Reclaim::gave_back) {
        if (holder != &m_uvm->memory_for_malloc()) m_chunks_taken_back.inc();
        return answer;
      }
      wait = wait || answer == MemoryBorrower::Reclaim::wait;
    }
  return wait ? MemoryBorrower::Reclaim::wait : MemoryBorrower::Reclaim::holds_none;
}

std::optional<uint64_t> Runtime::lend(uint64_t bytes) {
  try {
    const uint64_t address = take(bytes);
    m_lent.insert(address);
    m_chunks_lent.inc();
    return address;
  } catch (const OutOfDeviceMemory&) {
    return std::nullopt;
  }
}

void Runtime::give_back(uint64_t address) {
  m_lent.erase(address);
  m_allocator.free(address);
}

uint64_t Runtime::malloc_managed(uint64_t bytes) {
  raise_fault();
  const uint64_t chunk = m_uvm->config().chunk_bytes;
  if (chunk > m_allocator.capacity())
    throw ConfigError("uvm.chunk_bytes: is " + std::to_string(chunk) +
                      "; managed memory needs chunks no larger than the GPU's memory (" +
                      std::to_string(m_allocator.capacity()) + " bytes)");
  return m_uvm->allocate(bytes);
}

void Runtime::free(uint64_t address) {
  if (address == 0) return;  // cudaFree(0) does nothing, for optional buffers
  synchronize();
  if (managed(address)) {
    settle_managed();
    m_uvm->free(address);
    return;
  }
  const std::optional<DeviceAllocator::Block> block = m_allocator.find(address, 1);
  if (block && block->address == address && m_user_blocks.count(address) == 0)
    throw std::invalid_argument("free of " + hex_text(address) + ": the block holds " +
                                owner_of(address) +
                                ", which the runtime set aside itself; free takes what malloc "
                                "returned");
  m_allocator.free(address);
  m_user_blocks.erase(address);
}

std::string Runtime::owner_of(uint64_t block) const {
  for (size_t id = 0; id < m_modules.size(); ++id)
    if (m_modules[id] && m_modules[id]->global_base == block)
      return "module " + std::to_string(id) + "'s .global and .const variables";
  if (m_heap && m_heap->base() == block) return "the device heap of the kernels' malloc";
  if (m_grid_workspace == block) return "the cooperative launches' grid workspace";
  if (m_lent.count(block)) return "a chunk lent to another GPU";
  for (const auto& pending : m_pending)
    if (pending->local_region == block || pending->device_local_region == block)
      return "a launch's .local storage";
  return "managed pages of the unified-memory driver";
}

void Runtime::check_managed_range(uint64_t address, uint64_t bytes, const char* what) const {
  if (!managed(address) || !m_uvm->mapped(address, bytes))
    throw std::invalid_argument(std::string(what) + " of " + std::to_string(bytes) + " bytes at " +
                                hex_text(address) + " is outside every managed allocation");
}

void Runtime::prefetch_managed(uint64_t address, uint64_t bytes, bool to_host) {
  raise_fault();
  check_managed_range(address, bytes, "prefetch");
  quiesce();
  if (to_host) return bring_to_host(address, bytes, false);
  settle_managed();
  m_uvm->prefetch(address, bytes);
  settle_managed();
}

void Runtime::advise_managed(uint64_t address, uint64_t bytes, ManagedAdvice advice) {
  raise_fault();
  if (static_cast<unsigned>(advice) > static_cast<unsigned>(ManagedAdvice::unset_accessed_by))
    throw std::invalid_argument("advice: " + std::to_string(static_cast<int>(advice)) +
                                " is not a ManagedAdvice");
  check_managed_range(address, bytes, "advice");
  m_uvm->advise(address, bytes, advice);
}

void Runtime::ensure_started() {
  if (m_started) return;
  m_started = true;
  if (in_process()) return;  // the simulation runs
  // Ending elaboration with a zero-time start is deliberate; SystemC warns when it finds nothing
  // to do at time zero.
  sc_core::sc_report_handler::set_actions(sc_core::SC_ID_NO_SC_START_ACTIVITY_,
                                          sc_core::SC_DO_NOTHING);
  simulate(sc_core::SC_ZERO_TIME);  // ends elaboration; processes may now be notified
}

void Runtime::advance_to(uint64_t time_ps) {
  // sc_start may return early when another GPU's host thread ends (sc_pause).
  while (time_ps > now_ps()) {
    if (sc_core::sc_get_status() == sc_core::SC_STOPPED)
      throw SimulationError("simulation stopped while the host waited for a copy");
    const sc_time left(static_cast<double>(time_ps - now_ps()), SC_PS);
    if (in_process())
      sc_core::wait(left);
    else
      simulate(left);
  }
}

void Runtime::wake() {
  // Host threads and sc_main may wait at once: each looks again.
  if (m_threads_waiting > 0) m_progress.notify(sc_core::SC_ZERO_TIME);
  if (m_main_waiting) sc_core::sc_pause();
}

void Runtime::run_until(const std::function<bool()>& finished, const char* what) {
  ensure_started();
  if (in_process()) {
    while (!finished()) {
      ++m_threads_waiting;
      sc_core::wait(m_progress);
      --m_threads_waiting;
    }
    return;
  }
  const ScopedValue waiting(m_main_waiting, true);
  while (!finished()) {
    if (!sc_core::sc_pending_activity())
      throw SimulationError(std::string("simulation stalled while ") + what +
                            ": no event is pending but the operation has not finished");
    if (sc_core::sc_get_status() == sc_core::SC_STOPPED)
      throw SimulationError(std::string("simulation stopped while ") + what);
    simulate();  // returns on sc_pause() from a completion, or when nothing is left
  }
}

void Runtime::check_host_pointer(const void* pointer, uint64_t bytes, const char* what) {
  if (pointer == nullptr && bytes > 0)
    throw std::invalid_argument(std::string(what) + " of " + std::to_string(bytes) +
                                " bytes: the host pointer is null");
}

void Runtime::check_range(uint64_t address, uint64_t bytes, const char* what) const {
  if (bytes == 0) return;
  if (!mapped(address, bytes))
    throw std::invalid_argument(std::string(what) + " of " + std::to_string(bytes) +
                                " bytes at device address " + hex_text(address) +
                                " is outside every allocation");
}

bool Runtime::mapped(uint64_t address, uint64_t bytes) const {
  const std::optional<DeviceAllocator::Block> block = m_allocator.find(address, bytes);
  return (block && m_lent.count(block->address) == 0) || m_uvm->mapped(address, bytes);
}

void Runtime::wait_for(const std::function<void(const std::function<void()>&)>& start,
                       const char* what) {
  // Shared: a callback may outlast this call (several registered, one called).
  const auto done = std::make_shared<bool>(false);
  start([this, done] {
    if (*done) return;
    *done = true;
    wake();
  });
  run_until([done] { return *done; }, what);
}

void Runtime::settle_managed() {
  wait_for([this](const std::function<void()>& done) { m_uvm->when_settled(done); },
           "waiting for managed pages on their way out");
}

void Runtime::bring_to_host(uint64_t address, uint64_t bytes, bool for_write) {
  settle_managed();
  wait_for(
      [this, address, bytes, for_write](const std::function<void()>& done) {
        m_uvm->migrate_to_host(address, bytes, for_write, done);
      },
      "bringing managed pages back to host memory");
}

void Runtime::read_bytes(uint64_t address, void* data, uint64_t bytes) {
  if (!managed(address)) return m_gpu.read(address, data, bytes);
  bring_to_host(address, bytes, false);
  m_uvm->host_read(address, data, bytes);
}

void Runtime::write_bytes(uint64_t address, const void* data, uint64_t bytes) {
  if (!managed(address)) return m_gpu.write(address, data, bytes);
  bring_to_host(address, bytes, true);
  m_uvm->host_write(address, data, bytes);
}

void Runtime::copy_to_device(uint64_t destination, const void* source, uint64_t bytes) {
  raise_fault();
  check_host_pointer(source, bytes, "copy to device");
  check_range(destination, bytes, "copy to device");
  quiesce(managed(destination));
  if (managed(destination)) return write_bytes(destination, source, bytes);
  if (beside_other_streams()) {
    copy_to_device_async(destination, source, bytes, default_stream);
    return stream_synchronize(default_stream);
  }
  const uint64_t done = m_pcie.transfer(PcieLink::Direction::host_to_device, now_ps(), bytes);
  m_pcie_busy_ps.inc(done - now_ps());
  count_copies(PcieLink::Direction::host_to_device, +1);
  advance_to(done);
  count_copies(PcieLink::Direction::host_to_device, -1);
  m_gpu.write(destination, source, bytes);
  m_h2d_bytes.inc(bytes);
}

void Runtime::copy_to_host(void* destination, uint64_t source, uint64_t bytes) {
  raise_fault();
  check_host_pointer(destination, bytes, "copy to host");
  check_range(source, bytes, "copy to host");
  quiesce(managed(source));
  if (managed(source)) return read_bytes(source, destination, bytes);
  if (beside_other_streams()) {
    copy_to_host_async(destination, source, bytes, default_stream);
    return stream_synchronize(default_stream);
  }
  m_gpu.read(source, destination, bytes);
  const uint64_t done = m_pcie.transfer(PcieLink::Direction::device_to_host, now_ps(), bytes);
  m_pcie_busy_ps.inc(done - now_ps());
  count_copies(PcieLink::Direction::device_to_host, +1);
  advance_to(done);
  count_copies(PcieLink::Direction::device_to_host, -1);
  m_d2h_bytes.inc(bytes);
}

bool Runtime::beside_other_streams() const {
  return !m_streams.idle();
}

void Runtime::quiesce(bool every_stream) {
  if (every_stream) {
    synchronize();
  } else {
    const auto default_stream_free = [this] { return !m_streams.would_wait(default_stream); };
    if (!default_stream_free()) run_until(default_stream_free, "waiting for the default stream");
    raise_fault();
  }
  if (m_settling == nullptr || m_settling->idle()) return;
  wait_for([this](const std::function<void()>& done) { m_settling->when_idle(done); },
           "waiting for the memory's migrations to finish");
}

void Runtime::device_side_copy_time(uint64_t bytes_moved) {
  const double ns = static_cast<double>(bytes_moved) / m_device_gb_per_s;
  advance_to(now_ps() + static_cast<uint64_t>(std::llround(ns * 1000.0)));
}

void Runtime::check_device_copy(uint64_t destination, uint64_t source, uint64_t bytes) const {
  check_range(source, bytes, "device copy source");
  check_range(destination, bytes, "device copy destination");
  if (bytes != 0 && source < destination + bytes && destination < source + bytes)
    throw std::invalid_argument("device copy: the source [" + hex_text(source) + ", " +
                                hex_text(source + bytes) + ") and the destination [" +
                                hex_text(destination) + ", " + hex_text(destination + bytes) +
                                ") overlap; a device copy's may not (CUDA leaves such a copy "
                                "undefined)");
}

void Runtime::copy_on_device(uint64_t destination, uint64_t source, uint64_t bytes) {
  raise_fault();
  check_device_copy(destination, source, bytes);
  const bool on_managed = managed(source) || managed(destination);
  quiesce(on_managed);
  if (!on_managed && beside_other_streams()) {
    copy_on_device_async(destination, source, bytes, default_stream);
    return stream_synchronize(default_stream);
  }
  std::vector<uint8_t> staging(bytes);
  read_bytes(source, staging.data(), bytes);
  // The read and the write, each on the device unless it is a host access to managed memory.
  device_side_copy_time((managed(source) ? 0 : bytes) + (managed(destination) ? 0 : bytes));
  write_bytes(destination, staging.data(), bytes);
}

void Runtime::memset(uint64_t destination, uint8_t value, uint64_t bytes) {
  raise_fault();
  check_range(destination, bytes, "memset");  // before its pattern takes host memory
  if (!managed(destination)) {
    quiesce(false);
    if (beside_other_streams()) {
      memset_async(destination, value, bytes, default_stream);
      return stream_synchronize(default_stream);
    }
  }
  const std::vector<uint8_t> pattern(bytes, value);
  fill(destination, pattern.data(), bytes);
}

void Runtime::fill(uint64_t destination, const void* pattern, uint64_t bytes) {
  raise_fault();
  check_host_pointer(pattern, bytes, "fill");
  check_range(destination, bytes, "fill");
  quiesce(managed(destination));
  if (bytes != 0 && !managed(destination) && beside_other_streams())
    return fill_on_default_stream(destination, pattern, bytes);
  if (!managed(destination)) device_side_copy_time(bytes);
  write_bytes(destination, pattern, bytes);
}

Runtime::ModuleId Runtime::load_module(const std::filesystem::path& ptx) {
  ensure_started();
  raise_fault();
  return load_module(gpu::load_ptx_file(ptx.string()));
}

Runtime::ModuleId Runtime::load_module(gpu::Module parsed) {
  ensure_started();
  raise_fault();
  auto loaded = std::make_unique<LoadedModule>();
  loaded->module = std::move(parsed);
  if (m_gpu.config().load_order == gpu::LoadOrder::hoisted) gpu::hoist_loads(loaded->module);
  const gpu::Module& module = loaded->module;
  const uint64_t segment_bytes = gpu::module_segment_bytes(module);
  if (segment_bytes > 0) {
    const uint64_t untouched_from = m_untouched_from;
    try {
      loaded->global_base = allocate(segment_bytes, true);
    } catch (const OutOfDeviceMemory& error) {
      throw ConfigError(module.file + ": its .global and .const variables take " +
                        std::to_string(segment_bytes) + " bytes: " + error.what());
    }
    // .global variables start zero: memory never allocated before is, reused memory is zeroed.
    if (loaded->global_base < untouched_from) {
      const std::vector<uint8_t> zeros(std::min<uint64_t>(segment_bytes, 1 << 20), 0);
      for (uint64_t done = 0; done < segment_bytes; done += zeros.size())
        m_gpu.write(loaded->global_base + done, zeros.data(),
                    std::min<uint64_t>(zeros.size(), segment_bytes - done));
    }
  }
  loaded->const_bank = gpu::place_module(
      module, loaded->global_base, [this](uint64_t address, const uint8_t* bytes, uint64_t size) {
        m_gpu.write(address, bytes, size);
      });
  m_modules.push_back(std::move(loaded));
  return static_cast<ModuleId>(m_modules.size() - 1);
}

void Runtime::set_limits(const gpu::DeviceLimits& limits) {
  raise_fault();
  gpu::check_limits(limits, m_heap ? std::optional<uint64_t>(m_heap->bytes()) : std::nullopt);
  m_limits = limits;
}

const gpu::Module& Runtime::module(ModuleId id) const {
  if (id >= m_modules.size())
    throw std::invalid_argument("no module " + std::to_string(id) + ": " +
                                (m_modules.empty()
                                     ? std::string("none is loaded")
                                     : "the ids are 0 to " + std::to_string(m_modules.size() - 1)));
  if (!m_modules[id])
    throw std::invalid_argument("module " + std::to_string(id) + " was unloaded by reset()");
  return m_modules[id]->module;
}

uint64_t Runtime::symbol_address(ModuleId id, const std::string& name) const {
  raise_seen_fault();
  module(id);  // checks the id
  const LoadedModule& loaded = *m_modules[id];
  const gpu::Symbol* variable = gpu::find_variable(loaded.module, name);
  if (!variable)
    throw std::invalid_argument(loaded.module.file + ": no .global or .const variable '" + name +
                                "'");
  return gpu::variable_address(loaded.module, *variable, loaded.global_base);
}

uint64_t Runtime::create_texture(gpu::TextureBinding binding) {
  raise_fault();
  std::string problem = gpu::texture_shape_problem(binding);
  if (problem.empty()) problem = gpu::texture_sampling_problem(binding);
  if (!problem.empty()) throw std::invalid_argument("create_texture: " + problem);
  // Its last texel's end: within one allocation, as a fetch inside the texture must be.
  using Wide = unsigned __int128;
  const Wide extent = Wide{binding.slices() - 1} * binding.layer_pitch() +
                      Wide{binding.depth - 1} * binding.slice_pitch() +
                      Wide{binding.height - 1} * binding.row_pitch() +
                      Wide{binding.width} * binding.texel_bytes();
  const std::string what = "create_texture: " + gpu::texture_shape_text(binding);
  if (extent > Wide{UINT64_MAX - binding.base})
    throw std::invalid_argument(what + " at " + hex_text(binding.base) +
                                " extends past the end of the address space");
  check_range(binding.base, static_cast<uint64_t>(extent), what.c_str());
  binding.handle = m_next_texture++;
  m_textures.bind(binding);
  return binding.handle;
}

const gpu::Function& Runtime::find_kernel(ModuleId id, const std::string& kernel) const {
  return module(id).kernel(kernel);
}

std::vector<Runtime::ParamSlot> Runtime::argument_layout(ModuleId id,
                                                         const std::string& kernel) const {
  const gpu::Module& loaded = module(id);
  std::vector<ParamSlot> slots;
  for (uint32_t index : find_kernel(id, kernel).params) {
    const gpu::Symbol& symbol = loaded.symbols[index];
    slots.push_back({symbol.name, symbol.offset, symbol.size, symbol.type});
  }
  return slots;
}

uint64_t Runtime::argument_bytes(ModuleId id, const std::string& kernel) const {
  return find_kernel(id, kernel).param_bytes;
}

std::string Runtime::kernel_signature(ModuleId id, const std::string& kernel) const {
  return demangle(find_kernel(id, kernel).name);
}

void Runtime::launch(ModuleId id, const std::string& kernel, const LaunchConfig& config,
                     std::vector<uint8_t> arguments, StreamId stream) {
  before_async_work(stream, "launch");
  const gpu::Function& function = find_kernel(id, kernel);
  if (arguments.size() != function.param_bytes)
    throw ConfigError(module(id).file + ": kernel '" + kernel + "' takes " +
                      std::to_string(function.param_bytes) + " bytes of arguments, got " +
                      std::to_string(arguments.size()));
  // Like a real runtime's launch queue, a full one makes the host wait for the oldest launch.
  if (m_pending.size() >= max_queued_launches) {
    const Pending* oldest = m_pending.front().get();
    run_until([oldest] { return oldest->done; }, "waiting for room in the launch queue");
    raise_fault();
  }
  auto pending = std::make_unique<Pending>();
  Pending* state = pending.get();
  state->priority = config.priority ? clamp_priority(*config.priority) : stream_priority(stream);
  gpu::KernelLaunch request =
      make_request(id, kernel, config, std::move(arguments), *state, state->local_region, true);
  request.stream = stream;
  state->kernel = kernel;
  state->module = id;
  state->printf_fifo_bytes = m_limits.printf_fifo_bytes;
  const auto run = [this, state, request, id] {
    // Constant memory is device memory: the bank takes what its copy holds when the launch goes
    // to the GPU, after the work its stream put before it (an asynchronous copy to a
    // __constant__ variable); a synchronous host write waits for the queued launches.
    LoadedModule& loaded = *m_modules[id];
    if (!loaded.const_bank.empty())
      m_gpu.read(gpu::const_segment_base(loaded.module, loaded.global_base),
                 loaded.const_bank.data(), loaded.const_bank.size());
    m_gpu.launch(request, [this, state](const gpu::LaunchResult& result) {
      grid_done(*state, result, state->kernel, 0);
    });
    ++m_launches_on_gpu;  // after the GPU's checks: its done runs later, from a SystemC process
  };
  // After a fault, launches are not run: the work is skipped when its turn comes.
  const bool waits = m_context_faulted || m_streams.would_wait(stream);
  try {  // the GPU checks the launch before it is queued
    if (waits)
      m_gpu.check(request);
    else
      run();
  } catch (...) {
    if (state->local_region) m_allocator.free(state->local_region);
    throw;
  }
  const auto skip = [this, state](StreamOrder::WorkId work) {
    state->result.skipped = true;
    state->done = true;
    work_done(work);
  };
  // Work that need not wait starts as it is added: the launch above is its start.
  StreamWork work{nullptr, skip};
  if (waits) work.start = [run](StreamOrder::WorkId) { run(); };
  state->work = add_work(stream, std::move(work));
  m_pending.push_back(std::move(pending));
  m_launches.inc();
}

gpu::KernelLaunch Runtime::make_request(ModuleId id, const std::string& kernel,
                                        const LaunchConfig& config, std::vector<uint8_t> arguments,
                                        Pending& pending, uint64_t& local_region, bool from_host) {
  LoadedModule& loaded = *m_modules[id];
  const gpu::KernelLayout layout(loaded.module, kernel, m_limits.stack_bytes);
  gpu::check_launch_dimensions(config.grid, config.block, "launch of kernel '" + kernel + "'");
  gpu::KernelLaunch request;
  request.module = &loaded.module;
  request.kernel = kernel;
  request.grid = config.grid;
  request.block = config.block;
  request.dynamic_shared_bytes = config.dynamic_shared_bytes;
  request.arguments = std::move(arguments);
  request.textures = &m_textures;
  request.call_stack_bytes = m_limits.stack_bytes;
  request.printf_fifo_bytes = m_limits.printf_fifo_bytes;
  request.priority = pending.priority;
  if (layout.uses_heap()) {  // set aside at the first launch that needs it, kept from then on
    if (!m_heap) {
      try {
        m_heap = std::make_unique<gpu::DeviceHeap>(allocate(m_limits.malloc_heap_bytes, from_host),
                                                   m_limits.malloc_heap_bytes);
      } catch (const OutOfDeviceMemory& error) {
        throw ConfigError(module(id).file + ": kernel '" + kernel +
                          "' calls malloc or free or launches kernels, and the device heap's " +
                          std::to_string(m_limits.malloc_heap_bytes) +
                          " bytes do not fit: " + error.what());
      }
    }
    request.heap = m_heap.get();
  }
  if (layout.launches_kernels()) request.device_launches = &pending.device_launches;
  if (config.cooperative) {
    if (m_grid_workspace == 0) {  // zeroed, as the driver gives it; sync() leaves it as it was
      try {
        m_grid_workspace = allocate(grid_workspace_bytes, from_host);
      } catch (const OutOfDeviceMemory& error) {
        throw ConfigError(module(id).file + ": kernel '" + kernel +
                          "' is launched cooperatively, and the grid workspace of " +
                          std::to_string(grid_workspace_bytes) +
                          " bytes its grid syncs use does not fit: " + error.what());
      }
      const uint8_t zeros[grid_workspace_bytes] = {};
      m_gpu.write(m_grid_workspace, zeros, grid_workspace_bytes);
    }
    request.grid_workspace = m_grid_workspace;
  }
  request.registers_per_thread = config.registers_per_thread;
  request.global_segment_base = loaded.global_base;
  request.const_bank = loaded.const_bank.data();
  if (layout.local_bytes_per_thread() > 0) {
    request.local_stride = gpu::align_up(layout.local_bytes_per_thread(), 16);
    const uint64_t threads = config.grid.count() * config.block.count();  // may wrap: see below
    const auto too_much = [&](const std::string& why) {
      return ConfigError(module(id).file + ": kernel '" + kernel + "' needs " +
                         std::to_string(request.local_stride) + " bytes of .local storage for " +
                         "each of the launch's " + std::to_string(config.grid.count()) + " x " +
                         std::to_string(config.block.count()) + " threads: " + why);
    };
    uint64_t local_bytes = 0;
    if (__builtin_mul_overflow(threads, request.local_stride, &local_bytes) ||
        threads / config.block.count() != config.grid.count())
      throw too_much("more than 2^64 bytes");
    try {
      local_region = allocate(local_bytes, from_host);
    } catch (const OutOfDeviceMemory& error) {
      throw too_much(error.what());
    }
    request.local_base = local_region;
  }
  request.mapped = [this](uint64_t address, uint64_t bytes) { return mapped(address, bytes); };
  return request;
}

void Runtime::grid_done(Pending& pending, const gpu::LaunchResult& result,
                        const std::string& kernel, uint32_t depth) {
  if (depth == 0) {
    pending.result = result;
  } else {
    gpu::LaunchResult& merged = pending.result;
    merged.printed += result.printed;
    merged.printf_dropped += result.printf_dropped;
    merged.end_cycle = result.end_cycle;
    merged.warp_instructions += result.warp_instructions;
    merged.thread_instructions += result.thread_instructions;
    merged.stopped = merged.stopped || result.stopped;
    if (result.faulted && !merged.faulted) {
      merged.faulted = true;
      merged.fault = result.fault;
      merged.fault_address = result.fault_address;
    }
  }
  if (pending.device_local_region) m_allocator.free(pending.device_local_region);
  pending.device_local_region = 0;
  std::vector<gpu::DeviceLaunch> made = pending.device_launches.take(m_heap.get());
  if (!result.faulted && !result.skipped && !result.stopped)
    for (auto launch = made.rbegin(); launch != made.rend(); ++launch)
      pending.device_work.push_front(DeviceWork{*launch, kernel, depth + 1});
  else
    for (const gpu::DeviceLaunch& launch : made) m_heap->release(launch.parameter_buffer);
  if (!pending.result.faulted && !pending.result.stopped && !pending.device_work.empty() &&
      start_device_work(pending))
    return;
  for (const DeviceWork& dropped : pending.device_work)
    m_heap->release(dropped.launch.parameter_buffer);
  pending.device_work.clear();
  pending.done = true;
  count_kernel_time(pending.result);
  if (pending.result.faulted) {
    m_context_faulted = true;
    abandon_copies();
  }
  work_done(pending.work);
}

void Runtime::count_kernel_time(const gpu::LaunchResult& result) {
  // From the core cycle the grid started on, not the call. Launches of other streams overlap:
  // a busy period lasts while launches are on the GPU, from the earliest start among them.
  const uint64_t period = m_gpu.config().core_period_ps();
  if (!result.skipped)
    m_kernels_since_ps =
        std::min(m_kernels_since_ps.value_or(UINT64_MAX), result.start_cycle * period);
  if (--m_launches_on_gpu == 0 && m_kernels_since_ps) {
    m_kernel_ps.inc(now_ps() - *m_kernels_since_ps);
    m_kernels_since_ps.reset();
  }
}

bool Runtime::start_device_work(Pending& pending) {
  const DeviceWork work = pending.device_work.front();
  pending.device_work.pop_front();
  const gpu::Module& loaded = module(pending.module);
  const std::string kernel = loaded.functions[work.launch.function].name;
  std::vector<uint8_t> arguments(work.launch.parameter_bytes);
  m_gpu.read(work.launch.parameter_buffer, arguments.data(), arguments.size());
  m_heap->release(work.launch.parameter_buffer);
  try {
    if (work.depth > gpu::DeviceLaunches::max_depth) throw ConfigError(gpu::too_deep_text);
    LaunchConfig config;
    config.grid = {work.launch.grid[0], work.launch.grid[1], work.launch.grid[2]};
    config.block = {work.launch.block[0], work.launch.block[1], work.launch.block[2]};
    config.dynamic_shared_bytes = work.launch.shared_bytes;
    const gpu::KernelLaunch request =
        make_request(pending.module, kernel, config, std::move(arguments), pending,
                     pending.device_local_region, false);
    m_gpu.launch_first(
        request, [this, &pending, kernel, depth = work.depth](const gpu::LaunchResult& result) {
          grid_done(pending, result, kernel, depth);
        });
    return true;
  } catch (const ConfigError& error) {
    if (pending.device_local_region) m_allocator.free(pending.device_local_region);
    pending.device_local_region = 0;
    pending.result.faulted = true;
    pending.result.fault = gpu::device_launch_fault(loaded, work.parent, work.launch, error.what());
    m_gpu.stop_all();  // as a device fault does: the context runs nothing more
    return false;
  }
}

void Runtime::reap_finished_launches() {
  while (!m_pending.empty() && m_pending.front()->done) {
    const Pending& oldest = *m_pending.front();
    if (oldest.local_region) m_allocator.free(oldest.local_region);
    *m_printf_output << oldest.result.printed << std::flush;
    if (oldest.result.printf_dropped != 0)
      std::cerr << "ohmvp: " << oldest.result.printf_dropped << " printf calls of kernel '"
                << oldest.kernel << "' were dropped: the device printf buffer ("
                << oldest.printf_fifo_bytes << " bytes per launch) was full\n";
    if (oldest.result.faulted && m_fault.empty()) {
      m_fault = oldest.result.fault;
      m_fault_address = oldest.result.fault_address;
    }
    m_pending.pop_front();
  }
  // Launches on other streams may finish before older ones: a fault is seen when it happens.
  if (m_fault.empty() && m_context_faulted)
    for (const auto& pending : m_pending)
      if (pending->done && pending->result.faulted) {
        m_fault = pending->result.fault;
        m_fault_address = pending->result.fault_address;
        break;
      }
}

void Runtime::raise_fault() {
  reap_finished_launches();
  raise_seen_fault();
}

void Runtime::raise_seen_fault() const {
  if (!m_fault.empty()) throw DeviceFaultError(m_fault, m_fault_address);
}

void Runtime::wait_for_launches(const char* what) {
  if (!m_streams.idle()) run_until([this] { return m_streams.idle(); }, what);
  reap_finished_launches();
}

void Runtime::synchronize() {
  wait_for_launches("waiting for kernels");
  raise_fault();
}

void Runtime::reset() {
  wait_for_launches("waiting for kernels before a reset");
  if (m_parts_in_engine != 0)
    run_until([this] { return m_parts_in_engine == 0; },
              "waiting for the copy parts the copy engine holds before a reset");
  m_fault.clear();
  m_fault_address.reset();
  settle_managed();
  m_allocator.free_all_but(m_lent);
  m_user_blocks.clear();
  m_uvm->reset();
  for (auto& loaded : m_modules) loaded.reset();
  m_textures = gpu::TextureTable();
  m_limits = gpu::DeviceLimits();
  m_heap.reset();
  m_grid_workspace = 0;
  m_streams.forget_streams();  // ids go on: an old one names nothing
  m_stream_priorities.clear();
  m_events.clear();
  m_context_faulted = false;
}

}  // namespace ohmvp
