#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "modules/common/errors.h"
#include "modules/host/gpu_workload_runner.h"

namespace ohmvp::reference {

using BufferBytes = std::map<std::string, std::vector<uint8_t>>;

// A buffer seen as an array of T from byte `start` on (a pointer argument with an offset). Every
// access is bounds-checked: a reference that strays is a SimulationError naming the kernel and
// buffer, never undefined behaviour.
template <class T>
class BufferView {
 public:
  BufferView(std::vector<uint8_t>& bytes, std::string what, uint64_t start = 0)
      : m_bytes(&bytes), m_what(std::move(what)), m_start(start) {}

  uint64_t size() const {
    return m_start >= m_bytes->size() ? 0 : (m_bytes->size() - m_start) / sizeof(T);
  }

  T operator[](uint64_t index) const {
    check(index);
    T value;
    std::memcpy(&value, m_bytes->data() + m_start + index * sizeof(T), sizeof(T));
    return value;
  }

  void set(uint64_t index, T value) {
    check(index);
    std::memcpy(m_bytes->data() + m_start + index * sizeof(T), &value, sizeof(T));
  }

 private:
  void check(uint64_t index) const {
    if (index >= size())
      throw SimulationError(m_what + ": index " + std::to_string(index) + " is outside its " +
                            std::to_string(size()) + " elements");
  }

  std::vector<uint8_t>* m_bytes;
  std::string m_what;
  uint64_t m_start;
};

// An unsigned remainder as the GPU computes it: by zero it is the dividend (rem.u32,
// docs/gpu_simt.md), where the host's % would trap.
inline uint32_t gpu_remainder(uint32_t dividend, uint32_t divisor) {
  return divisor == 0 ? dividend : dividend % divisor;
}

// A texture argument: point sampling of a 1-D or 2-D float texture bound to a buffer.
class TextureView {
 public:
  TextureView(BufferView<float> texels, TextureBinding binding)
      : m_texels(texels), m_binding(std::move(binding)) {}

  // tex1Dfetch: an integer index into linear memory; out of range reads 0.
  float fetch(int64_t index) const {
    if (index < 0 || static_cast<uint64_t>(index) >= m_binding.width) return 0.0f;
    return m_texels[static_cast<uint64_t>(index)];
  }

  // tex2D with unnormalised (or normalised, per the binding) coordinates and point filtering.
  float sample_2d(float x, float y) const;

 private:
  // The texel index along one axis for a point-sampled coordinate; -1 for a border texel.
  int64_t address(float coordinate, uint64_t extent) const;

  BufferView<float> m_texels;
  TextureBinding m_binding;
};

using Dim3 = std::array<uint32_t, 3>;

// One launch of a reference kernel: its geometry and its arguments, checked by index and type.
class KernelCall {
 public:
  KernelCall(const KernelLaunch& launch, const std::vector<ResolvedArg>& args, BufferBytes& memory)
      : m_launch(launch), m_args(args), m_memory(memory) {}

  const Dim3& grid() const { return m_launch.grid; }
  const Dim3& block() const { return m_launch.block; }
  uint32_t shared_bytes() const { return m_launch.shared_bytes; }
  uint64_t threads_per_block() const { return uint64_t{block()[0]} * block()[1] * block()[2]; }

  void expect_args(size_t count) const;

  template <class T>
  BufferView<T> buffer(size_t index) const {
    const ResolvedArg& arg = argument(index, KernelArg::Kind::buffer);
    return BufferView<T>(m_memory.at(arg.buffer), m_launch.kernel + " buffer '" + arg.buffer + "'",
                         arg.byte_offset);
  }

  template <class T>
  T scalar(size_t index) const {
    const ResolvedArg& arg = argument(index, KernelArg::Kind::scalar);
    if (element_size(arg.scalar_type) != sizeof(T))
      fail(index, std::string("expected a ") + std::to_string(8 * sizeof(T)) + "-bit scalar, got " +
                      element_type_name(arg.scalar_type));
    T value;
    std::memcpy(&value, &arg.bits, sizeof(T));  // little-endian host: the low bytes
    return value;
  }

  TextureView texture(size_t index) const;

  // A field of a struct argument at its byte offset in the C layout.
  template <class T>
  T field(size_t index, size_t offset) const {
    const ResolvedArg& arg = argument(index, KernelArg::Kind::structure);
    if (offset + sizeof(T) > arg.bytes.size())
      fail(index, "the struct has " + std::to_string(arg.bytes.size()) + " bytes; field at " +
                      std::to_string(offset) + " needs " + std::to_string(sizeof(T)));
    T value;
    std::memcpy(&value, arg.bytes.data() + offset, sizeof(T));
    return value;
  }

  // A pointer argument passed as the scalar 0 ({"u64": 0}) rather than a buffer.
  bool is_null_pointer(size_t index) const {
    return index < m_args.size() && m_args[index].kind == KernelArg::Kind::scalar &&
           m_args[index].bits == 0;
  }

  // Calls body(block_index, thread_index) for every thread, blocks and threads in x-y-z order.
  // Only for kernels whose threads do not communicate within the launch.
  template <class Body>
  void for_each_thread(Body body) const {
    for_each_block(
        [&](const Dim3& b) { for_each_thread_in_block([&](const Dim3& t) { body(b, t); }); });
  }

  template <class Body>
  void for_each_block(Body body) const {
    for (uint32_t z = 0; z < grid()[2]; ++z)
      for (uint32_t y = 0; y < grid()[1]; ++y)
        for (uint32_t x = 0; x < grid()[0]; ++x) body(Dim3{x, y, z});
  }

  template <class Body>
  void for_each_thread_in_block(Body body) const {
    for (uint32_t z = 0; z < block()[2]; ++z)
      for (uint32_t y = 0; y < block()[1]; ++y)
        for (uint32_t x = 0; x < block()[0]; ++x) body(Dim3{x, y, z});
  }

  [[noreturn]] void fail(size_t index, const std::string& problem) const;

 private:
  const ResolvedArg& argument(size_t index, KernelArg::Kind kind) const;

  const KernelLaunch& m_launch;
  const std::vector<ResolvedArg>& m_args;
  BufferBytes& m_memory;
};

}  // namespace ohmvp::reference
