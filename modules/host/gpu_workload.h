#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "modules/common/errors.h"
#include "modules/common/run_input.h"
#include "modules/gpu/ptx/program.h"
#include "modules/gpu/simt/device_limits.h"
#include "modules/gpu/simt/texture.h"
#include "modules/host/csr_generator.h"
#include "modules/host/gpu_element_type.h"
#include "modules/host/loop_numbers.h"
#include "modules/uvm/managed_advice.h"

namespace ohmvp {

// A kernel workload file (docs/workloads.md): the PTX module, the device buffers and how to
// initialise them, the host-side steps (kernel launches, loops, copies, fills) and the outputs.

struct BufferInit {
  // variable: a buffer bound to a module variable keeps the variable's own initial value.
  enum class Kind { zero, value, random, sequence, file, generator, variable };
  Kind kind = Kind::zero;
  uint64_t value_bits = 0;  // value: the element's bit pattern
  // random: integers draw uniformly from [min, max] (as int64 for signed, uint64 for unsigned
  // types, kept here in two's complement); floats draw min + unit * (max - min) in double, then
  // round to the element type.
  uint64_t seed = 0;
  uint64_t int_min = 0, int_max = 0;
  double real_min = 0, real_max = 0;
  double start = 0, step = 0;     // sequence: element k = start + k * step
  std::filesystem::path file;     // file: raw little-endian bytes, exactly count * size
  std::string generator, output;  // generator: the named generator and which of its outputs
};

// What an output must hold after the run ("expected", for --verify on a workload that has no C++
// reference): its contents given as a buffer's init gives them, and for a float output how far
// an element may be off, |expected - got| <= absolute + relative * |expected|.
struct ExpectedOutput {
  std::string buffer;
  BufferInit values;
  double absolute = 0;
  double relative = 0;
};

struct BufferSpec {
  std::string name;
  ElementType type = ElementType::u8;
  uint64_t count = 0;
  BufferInit init;
  // A module-scope __device__ or __constant__ variable the buffer is (its bytes from the first),
  // as cudaMemcpyToSymbol / cudaGetSymbolAddress reach it; empty for an allocation of its own.
  std::string symbol;
  // "managed": true: allocated with cudaMallocManaged (unified memory, moved by the UVM driver)
  // and initialised in host memory; the functional GPU treats it as device memory.
  bool managed = false;
  // "copy_in": false: the host's contents (init) are not copied before the first step; the
  // device buffer starts zero and to_device steps copy the contents in.
  bool copy_in = true;
  uint64_t size_bytes() const { return count * element_size(type); }
  // Whether the run copies its init to the device before the first step: not a variable's own
  // initial value, nor a buffer whose to_device steps copy it in.
  bool copied_in_first() const { return copy_in && init.kind != BufferInit::Kind::variable; }
};

using TextureFilter = gpu::TextureFilter;
using TextureAddress = gpu::TextureAddress;

struct TextureBinding {
  std::string buffer;
  uint32_t channels = 1;         // elements a texel: 1, 2 or 4 (float, float2, float4)
  bool normalized_read = false;  // "read_mode": "normalized_float" (cudaReadModeNormalizedFloat)
  uint32_t dimensions = 1;       // 1, 2 (height given) or 3 (height and depth given)
  uint64_t width = 0;
  uint64_t height = 1;
  uint64_t depth = 1;
  uint64_t layers = 0;   // "layers": a layered texture of that many 1-D or 2-D ones; 0: not
  bool cubemap = false;  // "cubemap": six square faces (width = height), layered with "layers"
  TextureFilter filter = TextureFilter::point;
  TextureAddress address = TextureAddress::clamp;
  bool normalized = false;  // coordinates in [0, 1) rather than texels
  bool surface = false;     // {"surface": {...}}: a surface object for suld/sust, not a texture
};

struct KernelArg {
  enum class Kind { buffer, scalar, texture, structure };
  // Where a scalar's value comes from: the file, a buffer's element count, or the counter of an
  // enclosing repeat step.
  enum class Source { literal, count_of, loop_index };
  Kind kind = Kind::scalar;
  std::string buffer;  // buffer: its name; count_of: the buffer named
  StepNumber offset;   // buffer: elements past the buffer's start (d_ptr + offset)
  ElementType scalar_type = ElementType::u32;
  Source source = Source::literal;
  uint64_t bits = 0;      // literal scalar
  StepNumber loop_value;  // loop_index scalar
  TextureBinding texture;
  // structure: a struct passed by value, its fields (scalars, buffers as 8-byte device pointers,
  // nested structs) laid out in order, each at a multiple of its alignment, the whole padded to
  // its largest alignment or to `align` if larger (the C layout nvcc uses; __align__(N)).
  std::vector<KernelArg> fields;
  uint32_t align = 1;
  // The largest "align": a kernel's parameters share 4 KiB of parameter space on sm_70.
  static constexpr uint32_t max_struct_align = 4096;
};

struct KernelLaunch {
  std::string path;  // JSON path, for messages
  std::string kernel;
  std::array<uint32_t, 3> grid{1, 1, 1};
  std::array<uint32_t, 3> block{1, 1, 1};
  uint32_t shared_bytes = 0;  // dynamic shared memory
  // cudaLaunchCooperativeKernel: every block resident at once, with a grid workspace so that
  // cooperative groups' this_grid().sync() works.
  bool cooperative = false;
  // Registers a thread gets, as ptxas reports them ("Used N registers"); 0: counted from the
  // PTX's declared (virtual) registers (docs/gpu_sm.md).
  uint32_t registers_per_thread = 0;
  StepNumber stream;  // the workload's stream number; 0 the default stream
  // cudaLaunchAttributePriority: this launch's priority instead of its stream's.
  std::optional<int> priority;
  std::vector<KernelArg> args;
};

// The streams a workload names: numbers it chooses, made at their first use.
constexpr uint32_t max_workload_stream = 1023;

struct WorkloadStep {
  enum class Kind {
    launch,
    repeat,
    repeat_until_zero,
    copy,
    fill,
    prefetch,
    advise,
    to_device,
    to_host,
    synchronize,
    record_event,
    wait_event
  };
  Kind kind = Kind::launch;
  std::string path;  // JSON path, for messages
  KernelLaunch launch;
  uint64_t count = 0;           // repeat
  std::string index_name;       // repeat: the loop counter's name for {"loop_index": ...}
  std::string buffer;  // repeat_until_zero: watched; fill, prefetch, advise: target; copy: source
  uint64_t element = 0;         // repeat_until_zero
  uint64_t max_iterations = 0;  // repeat_until_zero
  std::string destination;      // copy
  // record_event, wait_event; synchronize: an event's (cudaEventSynchronize) when not empty
  std::string event;
  uint64_t fill_bits = 0;       // fill, in the target buffer's element type
  bool to_host = false;         // prefetch: to host memory, not the GPU
  ManagedAdvice advice = ManagedAdvice::set_read_mostly;  // advise
  StepNumber first, elements;  // to_device, to_host: the buffer's elements they copy
  // to_device, to_host; synchronize: none for the device; copy, fill, prefetch: none for a
  // synchronous call
  std::optional<StepNumber> stream;
  std::vector<WorkloadStep> steps;  // repeat, repeat_until_zero
};

struct GpuWorkload {
  std::string name;  // the file's stem unless the file says "name"
  std::string description;
  std::filesystem::path file;
  std::filesystem::path ptx;        // resolved
  std::vector<BufferSpec> buffers;  // in file order of names (sorted, as JSON objects are)
  std::map<std::string, GeneratedCsr> generated;  // generator name -> its output
  std::vector<WorkloadStep> steps;
  std::vector<std::string> outputs;
  std::vector<ExpectedOutput> expected;  // in name order; empty: none given
  gpu::DeviceLimits limits;  // what the program sets with cudaDeviceSetLimit before its launches
  // The stream numbers made with cudaStreamNonBlocking (not ordered with stream 0).
  std::set<uint32_t> non_blocking_streams;
  // The priorities of the streams made with cudaStreamCreateWithPriority (others have 0).
  std::map<uint32_t, int> stream_priorities;

  const BufferSpec* find_buffer(const std::string& name) const;
};

// The cuMemsetD8, D16 or D32Async that sets every element of `element_bytes` (1, 2, 4 or 8) to
// `bits`: an 8-byte element only when its two halves are the same, as CUDA has no 8-byte memset.
struct MemsetElement {
  uint32_t value = 0;
  unsigned bytes = 1;
};
std::optional<MemsetElement> memset_element(uint64_t bits, size_t element_bytes);

// True for a kernel workload ("type": "kernel", or without a type a key only kernel workloads
// have: "ptx", "buffers", "launches", ...); the memory-traffic workloads of
// platforms/workload.cpp say "type": "traffic" or "trace".
bool is_kernel_workload(const nlohmann::json& root);

// Throws ConfigError "<file>: buffers.<name>.symbol: ..." when `buffer` is bound to a variable
// the module lacks or is larger than the variable.
void check_symbol_buffer(const GpuWorkload& workload, const BufferSpec& buffer,
                         const gpu::Module& module);

// "<workload file>: <JSON path>: launch of '<kernel>': ", the start of an error in a launch.
std::string launch_context(const GpuWorkload& workload, const KernelLaunch& launch);

// A GPU's error in `launch`, given the launch's context instead of the GPU's own "launch of
// kernel '<kernel>': " or "launch of '<kernel>': " at its start.
ConfigError launch_error(const GpuWorkload& workload, const KernelLaunch& launch, std::string what);

// The memory a workload's buffers must fit in: its bytes and, for messages, what makes them up
// and which keys set it ("2 channels x ... (memory.channels, ...)"; may be empty).
struct MemoryRoom {
  MemoryRoom(uint64_t bytes = std::numeric_limits<uint64_t>::max(), std::string makeup = {})
      : bytes(bytes), makeup(std::move(makeup)) {}
  uint64_t bytes;
  std::string makeup;
};

// Throws ConfigError "<file>: <json.path>: <problem>" for anything malformed, and for buffers
// that need more than `memory` holds (a generator is stopped as soon as its output cannot fit).
GpuWorkload load_gpu_workload(const std::filesystem::path& file, const MemoryRoom& memory = {});
GpuWorkload parse_gpu_workload(const nlohmann::json& root, const std::filesystem::path& file,
                               const MemoryRoom& memory = {});

// Every file the workload reads: itself, its PTX, and the files buffers and expected outputs
// take their contents from.
std::vector<RunInput> workload_inputs(const GpuWorkload& workload);

// A buffer's contents on the host, from its init (little-endian, deterministic from the file
// alone).
std::vector<uint8_t> initial_bytes(const GpuWorkload& workload, const BufferSpec& buffer);
// Each buffer's bytes on the device before the first step: its initial bytes, or zeros for one
// whose "copy_in" is false.
std::map<std::string, std::vector<uint8_t>> initial_buffers(const GpuWorkload& workload);

}  // namespace ohmvp
