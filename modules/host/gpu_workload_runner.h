#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "modules/host/gpu_element_type.h"

#include "modules/host/gpu_workload.h"

namespace ohmvp {

// A kernel argument with its value settled for one launch: loop counters and buffer counts
// resolved to numbers.
struct ResolvedArg {
  KernelArg::Kind kind = KernelArg::Kind::scalar;
  std::string buffer;        // buffer and texture arguments
  uint64_t byte_offset = 0;  // buffer: bytes past the buffer's start
  ElementType scalar_type = ElementType::u32;
  uint64_t bits = 0;  // scalar
  TextureBinding texture;
  std::vector<uint8_t> bytes;  // structure: its bytes, little-endian, padded per the C layout
  // structure: the fields that hold a buffer's device address, which only the executor knows.
  struct PointerField {
    size_t offset = 0;
    std::string buffer;
    uint64_t byte_offset = 0;  // past the buffer's start
  };
  std::vector<PointerField> pointers;

  // A structure's bytes with each pointer field set to address_of(buffer name).
  template <class AddressOf>
  std::vector<uint8_t> struct_bytes(AddressOf address_of) const {
    std::vector<uint8_t> filled = bytes;
    for (const PointerField& field : pointers) {
      const uint64_t address = address_of(field.buffer) + field.byte_offset;
      for (size_t b = 0; b < 8; ++b)
        filled[field.offset + b] = static_cast<uint8_t>(address >> (8 * b));
    }
    return filled;
  }
};

// Said after a struct argument's size differs from its parameter's.
inline const char* struct_layout_hint() {
  return " (fields are laid out as C lays them out: give padding the C compiler adds for "
         "__align__(N) as \"align\": N, and nested structs as {\"struct\": [...]} fields)";
}

// What runs a workload's steps: the simulated GPU, or a C++ reference.
class WorkloadExecutor {
 public:
  virtual ~WorkloadExecutor() = default;
  // Before each step, and each turn of a loop: a loop of steps that take no simulated time (a
  // synchronize with nothing queued) never reaches the simulation's looks at the run, so the
  // timed executor looks here whether the user asked the run to end.
  virtual void before_step() {}
  // The launch on the workload's `stream` (its "stream" on this turn of a loop).
  virtual void launch(const KernelLaunch& launch, const std::vector<ResolvedArg>& args,
                      uint32_t stream) = 0;
  // cudaMemcpy device to device, or with a stream cudaMemcpyAsync on it.
  virtual void copy(const std::string& from, const std::string& to,
                    std::optional<uint32_t> stream) = 0;
  // Sets every element of the buffer to `element_bits`: synchronously, or with a stream as
  // cuMemsetD8/D16/D32Async on it (memset_element).
  virtual void fill(const std::string& buffer, uint64_t element_bits,
                    std::optional<uint32_t> stream) = 0;
  // Raw little-endian bits of one element.
  virtual uint64_t read_element(const std::string& buffer, uint64_t index) = 0;
  // cudaMemPrefetchAsync of a managed buffer (on `stream`; none: waiting for it, as the
  // synchronous calls do): moves no data a reference sees, so nothing by default.
  virtual void prefetch(const std::string& /*buffer*/, bool /*to_host*/,
                        std::optional<uint32_t> /*stream*/) {}
  // cudaMemAdvise of a managed buffer: likewise.
  virtual void advise(const std::string& /*buffer*/, ManagedAdvice /*advice*/) {}
  // cudaMemcpyAsync on the workload's `stream` of `size` bytes of the host's contents, at
  // `bytes`, into the buffer from `byte_offset`. The bytes stay where they are until the steps
  // end (run_workload_steps ends with synchronize()).
  virtual void to_device(const std::string& buffer, uint64_t byte_offset, const uint8_t* bytes,
                         uint64_t size, uint32_t stream) = 0;
  // cudaMemcpyAsync of `bytes` of the buffer from `byte_offset` to the host: moves nothing a
  // reference sees, so nothing by default.
  virtual void to_host(const std::string& /*buffer*/, uint64_t /*byte_offset*/, uint64_t /*bytes*/,
                       uint32_t /*stream*/) {}
  // cudaStreamSynchronize of the workload's `stream`, or cudaDeviceSynchronize without one.
  virtual void synchronize(std::optional<uint32_t> /*stream*/) {}
  // cudaEventRecord of the workload's event (by name) on `stream`, cudaStreamWaitEvent of
  // `stream` for it, cudaEventSynchronize: they order work and time it, and change no data a
  // reference sees, so nothing by default.
  virtual void record_event(const std::string& /*event*/, uint32_t /*stream*/) {}
  virtual void wait_event(const std::string& /*event*/, uint32_t /*stream*/) {}
  virtual void synchronize_event(const std::string& /*event*/) {}
};

// Runs the steps in order, unrolling repeat loops, then synchronizes the device. A
// repeat_until_zero step runs its body, then reads the watched element and stops when it is zero;
// after max_iterations bodies without that, it throws SimulationError naming the file and the
// step's JSON path.
void run_workload_steps(const GpuWorkload& workload, WorkloadExecutor& executor);

}  // namespace ohmvp
