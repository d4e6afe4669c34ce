#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "modules/common/errors.h"
#include "modules/common/random.h"
#include "modules/host/gpu_workload.h"

namespace ohmvp {

namespace {

// Little-endian bytes of `bits`; with the size fixed the compiler makes one store of them.
template <size_t Size>
void put_bytes(uint8_t* out, uint64_t bits) {
  for (size_t b = 0; b < Size; ++b) out[b] = static_cast<uint8_t>(bits >> (8 * b));
}

void put(std::vector<uint8_t>& bytes, size_t index, size_t size, uint64_t bits) {
  uint8_t* const out = &bytes[index * size];
  switch (size) {
    case 1:
      return put_bytes<1>(out, bits);
    case 2:
      return put_bytes<2>(out, bits);
    case 4:
      return put_bytes<4>(out, bits);
    case 8:
      return put_bytes<8>(out, bits);
    default:
      for (size_t b = 0; b < size; ++b) out[b] = static_cast<uint8_t>(bits >> (8 * b));
  }
}

void read_file(const std::filesystem::path& file, std::vector<uint8_t>& bytes) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> stream(std::fopen(file.c_str(), "rb"),
                                                         &std::fclose);
  if (!stream) throw ConfigError("cannot read " + file.string() + ": " + std::strerror(errno));
  const size_t read = std::fread(bytes.data(), 1, bytes.size(), stream.get());
  if (read != bytes.size() || std::fgetc(stream.get()) != EOF)
    throw ConfigError(file.string() + ": expected exactly " + std::to_string(bytes.size()) +
                      " bytes (the file changed after the workload was loaded?)");
}

void fill_generated(const GpuWorkload& workload, const BufferSpec& buffer,
                    std::vector<uint8_t>& bytes) {
  const GeneratedCsr& csr = workload.generated.at(buffer.init.generator);
  const size_t size = element_size(buffer.type);
  const std::vector<uint64_t>& integers =
      buffer.init.output == "row_offsets" ? csr.row_offsets : csr.column_indices;
  const bool values = buffer.init.output != "row_offsets" && buffer.init.output != "column_indices";
  for (uint64_t i = 0; i < buffer.count; ++i) {
    if (values) {
      put(bytes, i, size, element_bits_from_double(buffer.type, csr.values[i]));
    } else {
      const uint64_t value = integers[i];
      if (element_bits_from_integer(buffer.type, static_cast<int64_t>(value)) != value ||
          (is_signed_type(buffer.type) && element_bits_to_double(buffer.type, value) < 0))
        throw ConfigError(workload.file.string() + ": buffers." + buffer.name + ": " +
                          element_type_name(buffer.type) + " cannot hold " + buffer.init.output +
                          " value " + std::to_string(value));
      put(bytes, i, size, value);
    }
  }
}

}  // namespace

std::vector<uint8_t> initial_bytes(const GpuWorkload& workload, const BufferSpec& buffer) {
  const size_t size = element_size(buffer.type);
  std::vector<uint8_t> bytes(buffer.size_bytes(), 0);
  const BufferInit& init = buffer.init;
  switch (init.kind) {
    case BufferInit::Kind::zero:
    case BufferInit::Kind::variable:  // not written: the executors keep the variable's bytes
      break;
    case BufferInit::Kind::value:
      for (uint64_t i = 0; i < buffer.count; ++i) put(bytes, i, size, init.value_bits);
      break;
    case BufferInit::Kind::random: {
      Rng rng(init.seed);
      const uint64_t span = init.int_max - init.int_min + 1;  // 0: the full 64-bit range
      for (uint64_t i = 0; i < buffer.count; ++i) {
        uint64_t bits;
        if (is_float_type(buffer.type)) {
          bits = element_bits_from_double(
              buffer.type, init.real_min + rng.unit() * (init.real_max - init.real_min));
        } else {
          bits = element_bits_from_integer(
              buffer.type,
              static_cast<int64_t>(init.int_min + (span ? rng.below(span) : rng.next())));
        }
        put(bytes, i, size, bits);
      }
      break;
    }
    case BufferInit::Kind::sequence:
      for (uint64_t i = 0; i < buffer.count; ++i) {
        const double value = init.start + static_cast<double>(i) * init.step;
        put(bytes, i, size, element_bits_from_double(buffer.type, value));
      }
      break;
    case BufferInit::Kind::file:
      read_file(init.file, bytes);
      break;
    case BufferInit::Kind::generator:
      fill_generated(workload, buffer, bytes);
      break;
  }
  return bytes;
}

std::map<std::string, std::vector<uint8_t>> initial_buffers(const GpuWorkload& workload) {
  std::map<std::string, std::vector<uint8_t>> result;
  for (const BufferSpec& buffer : workload.buffers)
    result[buffer.name] = buffer.copy_in ? initial_bytes(workload, buffer)
                                         : std::vector<uint8_t>(buffer.size_bytes(), 0);
  return result;
}

}  // namespace ohmvp
