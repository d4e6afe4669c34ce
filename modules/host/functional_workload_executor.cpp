#include "modules/host/functional_workload_executor.h"

#include <cstring>

#include "modules/common/errors.h"
#include "modules/gpu/ptx/ptx_parser.h"
#include "modules/host/workload_architecture.h"
#include "modules/host/workload_texture.h"

namespace ohmvp {

namespace {

const char* kind_name(const ResolvedArg& arg) {
  switch (arg.kind) {
    case KernelArg::Kind::buffer:
      return "a buffer (an 8-byte pointer)";
    case KernelArg::Kind::scalar:
      return "a scalar";
    case KernelArg::Kind::texture:
      return arg.texture.surface ? "a surface (an 8-byte handle)" : "a texture (an 8-byte handle)";
    case KernelArg::Kind::structure:
      return "a struct";
  }
  return "?";
}

}  // namespace

FunctionalWorkloadExecutor::FunctionalWorkloadExecutor(const GpuWorkload& workload,
                                                       const gpu::Module& module,
                                                       uint32_t warp_size)
    : m_workload(workload), m_module(&module), m_executor(module, m_memory, warp_size) {
  check_launches(workload, module);
  m_executor.set_limits(workload.limits);
  for (const BufferSpec& spec : workload.buffers) {
    DeviceBuffer buffer;
    buffer.bytes = spec.size_bytes();
    buffer.element_bytes = element_size(spec.type);
    if (buffer.bytes == 0)
      throw ConfigError(workload.file.string() + ": buffers." + spec.name + ": count is 0");
    if (spec.symbol.empty()) {
      buffer.address = m_memory.allocate(buffer.bytes);
    } else {
      check_symbol_buffer(workload, spec, module);
      buffer.address = m_executor.symbol_address(spec.symbol);
    }
    if (spec.copied_in_first()) {
      const std::vector<uint8_t> bytes = initial_bytes(workload, spec);
      m_memory.write(buffer.address, bytes.data(), bytes.size());
    }
    m_buffers[spec.name] = buffer;
  }
}

const FunctionalWorkloadExecutor::DeviceBuffer& FunctionalWorkloadExecutor::find(
    const std::string& name) const {
  const auto found = m_buffers.find(name);
  if (found == m_buffers.end())
    throw ConfigError(m_workload.file.string() + ": no buffer '" + name + "'");
  return found->second;
}

uint64_t FunctionalWorkloadExecutor::bind_texture(const KernelLaunch& launch,
                                                  const ResolvedArg& arg) {
  gpu::TextureBinding binding;
  try {
    binding = workload_texture(m_workload, arg.texture, find(arg.texture.buffer).address);
  } catch (const ConfigError& error) {
    throw ConfigError(launch_context(m_workload, launch) + error.what());
  }
  binding.handle = m_next_texture_handle++;
  m_executor.textures().bind(binding);
  return binding.handle;
}

std::vector<uint8_t> FunctionalWorkloadExecutor::pack_arguments(
    const KernelLaunch& launch, const gpu::Function& kernel, const std::vector<ResolvedArg>& args) {
  const std::string where = launch_context(m_workload, launch);
  const gpu::Module& module = *m_module;
  std::vector<uint8_t> block(kernel.param_bytes, 0);
  for (size_t i = 0; i < args.size(); ++i) {
    const ResolvedArg& arg = args[i];
    const gpu::Symbol& param = module.symbols[kernel.params[i]];
    std::vector<uint8_t> bytes;
    auto put_u64 = [&](uint64_t value) {
      bytes.resize(8);
      std::memcpy(bytes.data(), &value, 8);
    };
    switch (arg.kind) {
      case KernelArg::Kind::buffer:
        put_u64(find(arg.buffer).address + arg.byte_offset);
        break;
      case KernelArg::Kind::texture:
        put_u64(bind_texture(launch, arg));
        break;
      case KernelArg::Kind::scalar:
        bytes.resize(element_size(arg.scalar_type));
        std::memcpy(bytes.data(), &arg.bits, bytes.size());  // little-endian: the low bytes
        break;
      case KernelArg::Kind::structure:
        bytes = arg.struct_bytes([&](const std::string& name) { return find(name).address; });
        break;
    }
    if (bytes.size() != param.size)
      throw ConfigError(where + "argument " + std::to_string(i) + " is " + kind_name(arg) + " of " +
                        std::to_string(bytes.size()) + " bytes, parameter '" + param.name +
                        "' takes " + std::to_string(param.size) +
                        (arg.kind == KernelArg::Kind::structure ? struct_layout_hint() : ""));
    std::memcpy(block.data() + param.offset, bytes.data(), bytes.size());
  }
  return block;
}

void FunctionalWorkloadExecutor::launch(const KernelLaunch& launch,
                                        const std::vector<ResolvedArg>& args, uint32_t) {
  const gpu::Function& kernel = m_module->kernel(launch.kernel);  // check_launches found it
  gpu::LaunchParams params;
  params.kernel = launch.kernel;
  params.grid = {launch.grid[0], launch.grid[1], launch.grid[2]};
  params.block = {launch.block[0], launch.block[1], launch.block[2]};
  params.dynamic_shared_bytes = launch.shared_bytes;
  params.cooperative = launch.cooperative;
  params.arguments = pack_arguments(launch, kernel, args);
  gpu::LaunchStatistics stats;
  try {
    stats = m_executor.launch(params);
  } catch (const ConfigError& error) {
    throw launch_error(m_workload, launch, error.what());
  }
  m_totals.warp_size = stats.warp_size;
  m_totals.add(stats);
  ++m_launches;
}

void FunctionalWorkloadExecutor::copy(const std::string& from, const std::string& to,
                                      std::optional<uint32_t> /*stream: steps run in order*/) {
  const DeviceBuffer& source = find(from);
  const DeviceBuffer& destination = find(to);
  if (source.bytes != destination.bytes)
    throw ConfigError(m_workload.file.string() + ": copy from '" + from + "' (" +
                      std::to_string(source.bytes) + " bytes) to '" + to + "' (" +
                      std::to_string(destination.bytes) + " bytes): sizes differ");
  const std::vector<uint8_t> bytes = read_buffer(from);
  m_memory.write(destination.address, bytes.data(), bytes.size());
}

void FunctionalWorkloadExecutor::to_device(const std::string& name, uint64_t byte_offset,
                                           const uint8_t* bytes, uint64_t size, uint32_t) {
  m_memory.write(find(name).address + byte_offset, bytes, size);
}

void FunctionalWorkloadExecutor::fill(const std::string& name, uint64_t element_bits,
                                      std::optional<uint32_t>) {
  const DeviceBuffer& buffer = find(name);
  const std::vector<uint8_t> bytes =
      repeated_element(element_bits, buffer.element_bytes, buffer.bytes);
  m_memory.write(buffer.address, bytes.data(), bytes.size());
}

uint64_t FunctionalWorkloadExecutor::read_element(const std::string& name, uint64_t index) {
  const DeviceBuffer& buffer = find(name);
  if (index >= buffer.bytes / buffer.element_bytes)
    throw ConfigError(m_workload.file.string() + ": element " + std::to_string(index) +
                      " of buffer '" + name + "' is outside its " +
                      std::to_string(buffer.bytes / buffer.element_bytes) + " elements");
  uint64_t bits = 0;
  m_memory.read(buffer.address + index * buffer.element_bytes, &bits, buffer.element_bytes);
  return bits;
}

std::vector<uint8_t> FunctionalWorkloadExecutor::read_buffer(const std::string& name) const {
  const DeviceBuffer& buffer = find(name);
  std::vector<uint8_t> bytes(buffer.bytes);
  m_memory.read(buffer.address, bytes.data(), bytes.size());
  return bytes;
}

FunctionalRun run_workload_functionally(const GpuWorkload& workload, uint32_t warp_size) {
  const gpu::Module module = gpu::load_ptx_file(workload.ptx.string());
  FunctionalWorkloadExecutor executor(workload, module, warp_size);
  run_workload_steps(workload, executor);
  FunctionalRun run;
  for (const std::string& output : workload.outputs)
    run.outputs[output] = executor.read_buffer(output);
  run.totals = executor.totals();
  run.totals.warp_size = warp_size;
  run.launches = executor.launches();
  return run;
}

}  // namespace ohmvp
