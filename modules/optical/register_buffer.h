#pragma once

#include <cstdint>

namespace ohmvp {

// The register buffer in front of a memory device (Ohm-GPU: 16 KB): bytes from the optical
// channel wait here until the device takes them. A full buffer pushes back: the channel must not
// deliver a transfer that does not fit (can_accept first).
class RegisterBuffer {
 public:
  explicit RegisterBuffer(uint32_t capacity_bytes) : m_capacity(capacity_bytes) {}

  uint32_t capacity() const { return m_capacity; }
  uint32_t occupancy() const { return m_occupancy; }
  uint32_t free_bytes() const { return m_capacity - m_occupancy; }
  bool can_accept(uint32_t bytes) const { return bytes <= free_bytes(); }
  // Times a push found no room (the sender had to wait).
  uint64_t backpressure_events() const { return m_refusals; }

  // Takes `bytes` in; false (and nothing stored) when they do not fit.
  bool push(uint32_t bytes);
  // The device consumes `bytes`; throws std::logic_error when fewer are buffered.
  void pop(uint32_t bytes);

 private:
  uint32_t m_capacity;
  uint32_t m_occupancy = 0;
  uint64_t m_refusals = 0;
};

}  // namespace ohmvp
