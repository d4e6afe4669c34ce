#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>

namespace ohmvp {

// A fixed number of bytes that start zeroed, from calloc: a large block comes as fresh pages
// from the system, which are zero already, so its bytes are not written until they are used (a
// std::vector<uint8_t>(n) writes every byte when it is made). For the data and dirty bytes of a
// cache, most of whose lines a short run never fills.
class ZeroedBytes {
 public:
  ZeroedBytes() = default;
  explicit ZeroedBytes(size_t size) : m_bytes(allocate(size)), m_size(size) {}

  uint8_t& operator[](size_t i) { return m_bytes.get()[i]; }
  const uint8_t& operator[](size_t i) const { return m_bytes.get()[i]; }
  uint8_t* data() { return m_bytes.get(); }
  const uint8_t* data() const { return m_bytes.get(); }
  size_t size() const { return m_size; }

 private:
  struct Free {
    void operator()(uint8_t* bytes) const { std::free(bytes); }
  };
  static uint8_t* allocate(size_t size) {
    void* bytes = std::calloc(size == 0 ? 1 : size, 1);
    if (bytes == nullptr) throw std::bad_alloc();
    return static_cast<uint8_t*>(bytes);
  }

  std::unique_ptr<uint8_t[], Free> m_bytes;
  size_t m_size = 0;
};

}  // namespace ohmvp
