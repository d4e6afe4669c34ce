#include "platforms/simulated_executor.h"

#include <cstring>
#include <utility>

#include "modules/common/errors.h"
#include "modules/common/hex_text.h"
#include "modules/host/workload_texture.h"

namespace ohmvp {

SimulatedExecutor::SimulatedExecutor(Runtime& runtime, const GpuWorkload& workload,
                                     gpu::Module module)
    : m_runtime(runtime), m_workload(workload) {
  runtime.set_limits(workload.limits);
  m_module = runtime.load_module(std::move(module));
  for (const BufferSpec& buffer : workload.buffers) {
    if (!buffer.symbol.empty()) check_symbol_buffer(workload, buffer, runtime.module(m_module));
    const uint64_t address = !buffer.symbol.empty()
                                 ? runtime.symbol_address(m_module, buffer.symbol)
                             : buffer.managed ? runtime.malloc_managed(buffer.size_bytes())
                                              : runtime.malloc(buffer.size_bytes());
    m_addresses[buffer.name] = address;
    if (!buffer.copied_in_first()) continue;
    const std::vector<uint8_t> bytes = initial_bytes(workload, buffer);
    runtime.copy_to_device(address, bytes.data(), bytes.size());
  }
}

void SimulatedExecutor::launch(const KernelLaunch& launch, const std::vector<ResolvedArg>& args,
                               uint32_t number) {
  try {
    KernelArguments packed(m_runtime, m_module, launch.kernel);  // check_launches counted them
    for (const ResolvedArg& arg : args) add(packed, arg);
    Runtime::LaunchConfig config;
    config.grid = {launch.grid[0], launch.grid[1], launch.grid[2]};
    config.block = {launch.block[0], launch.block[1], launch.block[2]};
    config.dynamic_shared_bytes = launch.shared_bytes;
    config.cooperative = launch.cooperative;
    config.registers_per_thread = launch.registers_per_thread;
    config.priority = launch.priority;
    m_runtime.launch(m_module, launch.kernel, config, packed.bytes(), stream(number));
  } catch (const std::invalid_argument& error) {
    throw launch_error(m_workload, launch, error.what());
  } catch (const ConfigError& error) {
    throw launch_error(m_workload, launch, error.what());
  }
}

void SimulatedExecutor::copy(const std::string& from, const std::string& to,
                             std::optional<uint32_t> number) {
  const BufferSpec& source = buffer(from);
  if (number)
    m_runtime.copy_on_device_async(m_addresses.at(to), m_addresses.at(from), source.size_bytes(),
                                   stream(*number));
  else
    m_runtime.copy_on_device(m_addresses.at(to), m_addresses.at(from), source.size_bytes());
}

void SimulatedExecutor::fill(const std::string& name, uint64_t element_bits,
                             std::optional<uint32_t> number) {
  const BufferSpec& target = buffer(name);
  const size_t size = element_size(target.type);
  if (number) {
    const std::optional<MemsetElement> element = memset_element(element_bits, size);
    if (!element)  // the parser refuses it first
      throw std::invalid_argument("fill on a stream: no memset repeats the 8-byte value");
    const uint64_t address = m_addresses.at(name);
    if (address % element->bytes != 0)  // a buffer bound to a variable of lesser alignment
      throw std::invalid_argument(
          "fill of buffer '" + name + "'" +
          (target.symbol.empty() ? "" : " (variable '" + target.symbol + "')") + " on stream " +
          std::to_string(*number) + ": it is at " + hex_text(address) + ", not aligned to the " +
          std::to_string(element->bytes) + "-byte elements cuMemsetD" +
          std::to_string(8 * element->bytes) +
          "Async sets; leave out 'stream' for a synchronous fill");
    return m_runtime.memset_elements_async(address, element->value, element->bytes,
                                           target.size_bytes() / element->bytes, stream(*number));
  }
  const std::vector<uint8_t> pattern = repeated_element(element_bits, size, target.size_bytes());
  m_runtime.fill(m_addresses.at(name), pattern.data(), pattern.size());
}

uint64_t SimulatedExecutor::read_element(const std::string& name, uint64_t index) {
  const BufferSpec& source = buffer(name);
  const size_t size = element_size(source.type);
  uint64_t bits = 0;
  m_runtime.copy_to_host(&bits, m_addresses.at(name) + index * size, size);
  return bits;
}

void SimulatedExecutor::prefetch(const std::string& name, bool to_host,
                                 std::optional<uint32_t> number) {
  if (number)
    m_runtime.prefetch_managed_async(m_addresses.at(name), buffer(name).size_bytes(), to_host,
                                     stream(*number));
  else
    m_runtime.prefetch_managed(m_addresses.at(name), buffer(name).size_bytes(), to_host);
}

void SimulatedExecutor::advise(const std::string& name, ManagedAdvice advice) {
  m_runtime.advise_managed(m_addresses.at(name), buffer(name).size_bytes(), advice);
}

Runtime::StreamId SimulatedExecutor::stream(uint32_t number) {
  if (number == 0) return Runtime::default_stream;
  const auto found = m_streams.find(number);
  if (found != m_streams.end()) return found->second;
  const bool non_blocking = m_workload.non_blocking_streams.count(number) != 0;
  const auto priority = m_workload.stream_priorities.find(number);
  return m_streams
      .emplace(number,
               m_runtime.create_stream(
                   non_blocking ? Runtime::StreamKind::non_blocking : Runtime::StreamKind::blocking,
                   priority == m_workload.stream_priorities.end() ? 0 : priority->second))
      .first->second;
}

Runtime::EventId SimulatedExecutor::event(const std::string& name) {
  const auto found = m_events.find(name);
  if (found != m_events.end()) return found->second.id;
  return m_events.emplace(name, Event{m_runtime.create_event()}).first->second.id;
}

void SimulatedExecutor::record_event(const std::string& name, uint32_t number) {
  m_runtime.record_event(event(name), stream(number));
  ++m_events.at(name).records;
}

void SimulatedExecutor::wait_event(const std::string& name, uint32_t number) {
  m_runtime.stream_wait_event(stream(number), event(name));
}

void SimulatedExecutor::synchronize_event(const std::string& name) {
  m_runtime.event_synchronize(event(name));
}

nlohmann::json SimulatedExecutor::events_report() {
  nlohmann::json events = nlohmann::json::object();
  for (const auto& [name, recorded] : m_events) {
    if (recorded.records == 0) continue;  // waited for before its first record
    const std::optional<uint64_t> at = m_runtime.event_time_ps(recorded.id);
    events[name] = {{"records", recorded.records},
                    {"ns", at ? nlohmann::json(double(*at) / 1000.0) : nlohmann::json()}};
  }
  return events;
}

std::map<Runtime::StreamId, uint32_t> SimulatedExecutor::stream_numbers() const {
  std::map<Runtime::StreamId, uint32_t> numbers{{Runtime::default_stream, 0}};
  for (const auto& [number, stream] : m_streams) numbers.emplace(stream, number);
  return numbers;
}

std::vector<gpu::LaunchRecord> with_workload_streams(
    std::vector<gpu::LaunchRecord> log, const std::map<Runtime::StreamId, uint32_t>& numbers) {
  for (gpu::LaunchRecord& launch : log)
    if (launch.stream) launch.stream = numbers.at(*launch.stream);
  return log;
}

void SimulatedExecutor::to_device(const std::string& name, uint64_t byte_offset,
                                  const uint8_t* bytes, uint64_t size, uint32_t number) {
  m_runtime.copy_to_device_async(m_addresses.at(name) + byte_offset, bytes, size, stream(number));
}

void SimulatedExecutor::to_host(const std::string& name, uint64_t byte_offset, uint64_t bytes,
                                uint32_t number) {
  std::vector<uint8_t>& host = m_host_side[name];
  host.resize(buffer(name).size_bytes());
  m_runtime.copy_to_host_async(host.data() + byte_offset, m_addresses.at(name) + byte_offset, bytes,
                               stream(number));
}

void SimulatedExecutor::synchronize(std::optional<uint32_t> number) {
  if (number)
    m_runtime.stream_synchronize(stream(*number));
  else
    m_runtime.synchronize();
}

std::vector<LocatedBuffer> SimulatedExecutor::located_buffers() const {
  std::vector<LocatedBuffer> located;
  for (const BufferSpec& buffer : m_workload.buffers)
    located.push_back({buffer.name, m_addresses.at(buffer.name), buffer.count,
                       static_cast<uint32_t>(element_size(buffer.type)),
                       element_type_name(buffer.type)});
  return located;
}

std::string SimulatedExecutor::fault_location(const DeviceFaultError& fault) const {
  if (!fault.global_address()) return "";
  const std::string where = locate_address(*fault.global_address(), located_buffers());
  return where.empty() ? "" : "; that is " + where;
}

std::vector<uint8_t> SimulatedExecutor::read_buffer(const std::string& name) {
  std::vector<uint8_t> bytes(buffer(name).size_bytes());
  m_runtime.copy_to_host(bytes.data(), m_addresses.at(name), bytes.size());
  return bytes;
}

const BufferSpec& SimulatedExecutor::buffer(const std::string& name) const {
  const BufferSpec* found = m_workload.find_buffer(name);
  if (!found) throw ConfigError(m_workload.file.string() + ": no buffer '" + name + "'");
  return *found;
}

void SimulatedExecutor::add(KernelArguments& packed, const ResolvedArg& arg) {
  switch (arg.kind) {
    case KernelArg::Kind::buffer:
      packed.add(m_addresses.at(arg.buffer) + arg.byte_offset);
      break;
    case KernelArg::Kind::scalar:
      packed.add_number(&arg.bits, element_size(arg.scalar_type), is_float_type(arg.scalar_type),
                        element_type_name(arg.scalar_type));
      break;
    case KernelArg::Kind::structure: {
      const std::vector<uint8_t> bytes =
          arg.struct_bytes([this](const std::string& name) { return m_addresses.at(name); });
      try {
        packed.add_bytes(bytes.data(), bytes.size());
      } catch (const std::invalid_argument& error) {
        throw std::invalid_argument(error.what() + std::string(struct_layout_hint()));
      }
      break;
    }
    case KernelArg::Kind::texture:
      packed.add(texture(arg));
      break;
  }
}

uint64_t SimulatedExecutor::texture(const ResolvedArg& arg) {
  return m_runtime.create_texture(
      workload_texture(m_workload, arg.texture, m_addresses.at(arg.buffer)));
}

std::map<std::string, std::vector<uint8_t>> read_outputs(const GpuWorkload& workload,
                                                         SimulatedExecutor& executor) {
  std::map<std::string, std::vector<uint8_t>> outputs;
  for (const std::string& name : workload.outputs) outputs[name] = executor.read_buffer(name);
  return outputs;
}

}  // namespace ohmvp
