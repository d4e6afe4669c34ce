#include "modules/optical/register_buffer.h"

#include <stdexcept>
#include <string>

namespace ohmvp {

bool RegisterBuffer::push(uint32_t bytes) {
  if (!can_accept(bytes)) {
    ++m_refusals;
    return false;
  }
  m_occupancy += bytes;
  return true;
}

void RegisterBuffer::pop(uint32_t bytes) {
  if (bytes > m_occupancy)
    throw std::logic_error("register buffer: popping " + std::to_string(bytes) + " bytes, " +
                           std::to_string(m_occupancy) + " buffered");
  m_occupancy -= bytes;
}

}  // namespace ohmvp
