#include "modules/host/gpu_workload_runner.h"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "modules/common/errors.h"

namespace ohmvp {

namespace {

class StepRunner {
 public:
  StepRunner(const GpuWorkload& workload, WorkloadExecutor& executor)
      : m_workload(workload), m_executor(executor) {}

  void run(const std::vector<WorkloadStep>& steps) {
    for (const WorkloadStep& step : steps) run(step);
  }

 private:
  // A call the runtime refuses (std::invalid_argument) is the workload's error, at its step.
  template <class Call>
  void at(const WorkloadStep& step, Call call) {
    try {
      call();
    } catch (const std::invalid_argument& error) {
      throw ConfigError(m_workload.file.string() + ": " + step.path + ": " + error.what());
    }
  }

  void run(const WorkloadStep& step) {
    m_executor.before_step();
    switch (step.kind) {
      case WorkloadStep::Kind::launch:
        m_executor.launch(step.launch, resolve(step.launch), stream(step.launch.stream));
        break;
      case WorkloadStep::Kind::repeat:
        for (uint64_t i = 0; i < step.count; ++i) {
          if (!step.index_name.empty()) m_counters[step.index_name].push_back(i);
          run(step.steps);
          if (!step.index_name.empty()) m_counters[step.index_name].pop_back();
        }
        break;
      case WorkloadStep::Kind::repeat_until_zero: {
        for (uint64_t i = 0;; ++i) {
          if (i == step.max_iterations)
            throw SimulationError(
                m_workload.file.string() + ": " + step.path + ": buffer '" + step.buffer +
                "' element " + std::to_string(step.element) + " is still non-zero after " +
                std::to_string(step.max_iterations) + " iterations (max_iterations)");
          run(step.steps);
          if (m_executor.read_element(step.buffer, step.element) == 0) break;
        }
        break;
      }
      case WorkloadStep::Kind::copy:
        at(step, [&] { m_executor.copy(step.buffer, step.destination, stream(step.stream)); });
        break;
      case WorkloadStep::Kind::fill:
        at(step, [&] { m_executor.fill(step.buffer, step.fill_bits, stream(step.stream)); });
        break;
      case WorkloadStep::Kind::prefetch:
        at(step, [&] { m_executor.prefetch(step.buffer, step.to_host, stream(step.stream)); });
        break;
      case WorkloadStep::Kind::advise:
        at(step, [&] { m_executor.advise(step.buffer, step.advice); });
        break;
      case WorkloadStep::Kind::to_device: {
        const size_t size = element_bytes(step.buffer);
        const uint64_t offset = value(step.first) * size;
        m_executor.to_device(step.buffer, offset, host_contents(step.buffer).data() + offset,
                             value(step.elements) * size, stream(*step.stream));
        break;
      }
      case WorkloadStep::Kind::to_host: {
        const size_t size = element_bytes(step.buffer);
        m_executor.to_host(step.buffer, value(step.first) * size, value(step.elements) * size,
                           stream(*step.stream));
        break;
      }
      case WorkloadStep::Kind::synchronize:
        if (!step.event.empty())
          m_executor.synchronize_event(step.event);
        else
          m_executor.synchronize(stream(step.stream));
        break;
      case WorkloadStep::Kind::record_event:
        m_executor.record_event(step.event, stream(*step.stream));
        break;
      case WorkloadStep::Kind::wait_event:
        m_executor.wait_event(step.event, stream(*step.stream));
        break;
    }
  }

  // What the number is on this turn of its loop (the parser checked its range).
  uint64_t value(const StepNumber& number) const {
    if (number.loop.empty()) return static_cast<uint64_t>(number.literal);
    // In 64-bit two's complement, which the parse checked to hold the value: a u64 argument's
    // values reach 2^64 - 1, beyond int64_t.
    const uint64_t counter = m_counters.at(number.loop).back();
    return counter * static_cast<uint64_t>(number.times) + static_cast<uint64_t>(number.plus);
  }
  uint32_t stream(const StepNumber& number) const { return static_cast<uint32_t>(value(number)); }
  std::optional<uint32_t> stream(const std::optional<StepNumber>& number) const {
    if (!number) return std::nullopt;
    return stream(*number);
  }

  size_t element_bytes(const std::string& buffer) const {
    return element_size(m_workload.find_buffer(buffer)->type);
  }

  // The buffer's contents on the host (its init), made at the first step that copies them.
  const std::vector<uint8_t>& host_contents(const std::string& buffer) {
    auto found = m_host.find(buffer);
    if (found == m_host.end())
      found =
          m_host.emplace(buffer, initial_bytes(m_workload, *m_workload.find_buffer(buffer))).first;
    return found->second;
  }

  std::vector<ResolvedArg> resolve(const KernelLaunch& launch) {
    std::vector<ResolvedArg> resolved;
    resolved.reserve(launch.args.size());
    for (const KernelArg& arg : launch.args) resolved.push_back(resolve(arg));
    return resolved;
  }

  uint64_t scalar_value(const KernelArg& arg) {
    uint64_t value = arg.bits;
    if (arg.source == KernelArg::Source::count_of)
      value = m_workload.find_buffer(arg.buffer)->count;
    if (arg.source == KernelArg::Source::loop_index) value = this->value(arg.loop_value);
    if (arg.source == KernelArg::Source::literal) return value;
    return element_bits_from_integer(arg.scalar_type, static_cast<int64_t>(value));
  }

  uint64_t byte_offset(const KernelArg& pointer) const {
    return value(pointer.offset) * element_size(m_workload.find_buffer(pointer.buffer)->type);
  }

  // The C layout nvcc uses: each field at a multiple of its alignment, the whole padded to its
  // largest alignment (or to __align__(N)); an empty struct (a functor) is one byte. Returns the
  // struct's alignment.
  size_t lay_out_struct(const KernelArg& arg, ResolvedArg& r) {
    const auto pad_to = [&r](size_t alignment) {
      r.bytes.resize((r.bytes.size() + alignment - 1) / alignment * alignment, 0);
    };
    size_t alignment = arg.align;
    for (const KernelArg& field : arg.fields) {
      if (field.kind == KernelArg::Kind::structure) {
        ResolvedArg inner;
        const size_t inner_alignment = lay_out_struct(field, inner);
        pad_to(inner_alignment);
        for (ResolvedArg::PointerField pointer : inner.pointers) {
          pointer.offset += r.bytes.size();
          r.pointers.push_back(pointer);
        }
        r.bytes.insert(r.bytes.end(), inner.bytes.begin(), inner.bytes.end());
        alignment = std::max(alignment, inner_alignment);
        continue;
      }
      const bool pointer = field.kind == KernelArg::Kind::buffer;
      const size_t size = pointer ? 8 : element_size(field.scalar_type);
      alignment = std::max(alignment, size);
      pad_to(size);
      if (pointer) r.pointers.push_back({r.bytes.size(), field.buffer, byte_offset(field)});
      const uint64_t bits = pointer ? 0 : scalar_value(field);
      for (size_t b = 0; b < size; ++b) r.bytes.push_back(static_cast<uint8_t>(bits >> (8 * b)));
    }
    if (r.bytes.empty()) r.bytes.push_back(0);
    pad_to(alignment);
    return alignment;
  }

  ResolvedArg resolve(const KernelArg& arg) {
    ResolvedArg r;
    r.kind = arg.kind;
    r.scalar_type = arg.scalar_type;
    r.texture = arg.texture;
    if (arg.kind == KernelArg::Kind::buffer) {
      r.buffer = arg.buffer;
      r.byte_offset = byte_offset(arg);
    }
    if (arg.kind == KernelArg::Kind::texture) r.buffer = arg.texture.buffer;
    if (arg.kind == KernelArg::Kind::scalar) r.bits = scalar_value(arg);
    if (arg.kind == KernelArg::Kind::structure) lay_out_struct(arg, r);
    return r;
  }

  const GpuWorkload& m_workload;
  WorkloadExecutor& m_executor;
  std::map<std::string, std::vector<uint64_t>> m_counters;  // innermost loop last
  std::map<std::string, std::vector<uint8_t>> m_host;       // host_contents, by buffer
};

}  // namespace

void run_workload_steps(const GpuWorkload& workload, WorkloadExecutor& executor) {
  StepRunner runner(workload, executor);
  runner.run(workload.steps);
  executor.synchronize(std::nullopt);  // before the host contents the copies read go
}

}  // namespace ohmvp
