#pragma once

// Device printf: CUDA's printf compiles to vprintf(format, arguments), the arguments packed in
// the calling thread's local memory, each at the next multiple of its own size (integers below
// 64 bits as 4 bytes, float as an 8-byte double, pointers and 64-bit integers as 8 bytes).

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "modules/gpu/simt/device_limits.h"

namespace ohmvp::gpu {

// The host side of device printf: reads the device memory that the arguments and %s strings
// live in (through `read`), and keeps the text until the host takes it. Like CUDA's printf FIFO
// (cudaLimitPrintfFifoSize, DeviceLimits::printf_fifo_bytes) it holds a bounded amount: a
// printf whose text would overflow `capacity()` bytes is dropped and counted (a modelling
// choice: CUDA's FIFO holds formats and arguments, not text).
class PrintfBuffer {
 public:
  using Reader = std::function<bool(uint64_t address, void* data, uint64_t bytes)>;
  explicit PrintfBuffer(Reader read) : m_read(std::move(read)) {}
  uint64_t capacity() const { return m_capacity; }
  void set_capacity(uint64_t bytes) { m_capacity = bytes; }
  // Reads `bytes` at a device address; false when no allocation holds them.
  bool read(uint64_t address, void* data, uint64_t bytes) const {
    return m_read(address, data, bytes);
  }
  void print(std::string_view text) {
    if (m_text.size() + text.size() > m_capacity)
      ++m_dropped;
    else
      m_text += text;
  }
  const std::string& text() const { return m_text; }
  uint64_t dropped() const { return m_dropped; }
  // The text so far and the count of dropped printfs; the buffer starts empty again.
  std::pair<std::string, uint64_t> take() {
    return {std::exchange(m_text, {}), std::exchange(m_dropped, 0)};
  }

 private:
  Reader m_read;
  uint64_t m_capacity = DeviceLimits{}.printf_fifo_bytes;
  std::string m_text;
  uint64_t m_dropped = 0;
};

// vprintf's arguments in order: `read(offset, data, bytes)` reads the packed block.
class PrintfArguments {
 public:
  using Reader = std::function<bool(uint64_t offset, void* data, uint64_t bytes)>;
  explicit PrintfArguments(Reader read) : m_read(std::move(read)) {}
  // The next argument of `bytes` (4 or 8), or none when the block cannot be read.
  std::optional<uint64_t> next(uint64_t bytes);
  uint32_t taken() const { return m_taken; }

 private:
  Reader m_read;
  uint64_t m_offset = 0;
  uint32_t m_taken = 0;
};

// The text `format` gives with `arguments`, as C's printf writes it; %s strings come from
// `read_string(pointer)`. A conversion whose argument cannot be read prints "<?>"; %n prints
// nothing and stores nothing.
std::string format_device_printf(std::string_view format, PrintfArguments& arguments,
                                 const std::function<std::string(uint64_t)>& read_string);

}  // namespace ohmvp::gpu
