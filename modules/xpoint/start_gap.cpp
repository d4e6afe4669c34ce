#include "modules/xpoint/start_gap.h"

#include <stdexcept>

namespace ohmvp {

StartGap::StartGap(uint64_t lines, uint32_t psi) : m_lines(lines), m_psi(psi), m_gap(lines) {
  if (lines == 0) throw std::invalid_argument("StartGap: a region needs at least one line");
  if (psi == 0) throw std::invalid_argument("StartGap: psi must be at least 1");
}

void StartGap::set_registers(uint64_t start, uint64_t gap) {
  if (start >= m_lines || gap > m_lines) {
    throw std::invalid_argument("StartGap: registers out of range");
  }
  m_start = start;
  m_gap = gap;
}

GapMove StartGap::move_gap() {
  ++m_moves;
  if (m_gap > 0) {
    const GapMove move{m_gap - 1, m_gap};
    --m_gap;
    return move;
  }
  // The gap is at line 0: the line in N is copied into 0. Every logical line has now moved
  // up by one physical line, which Start expresses.
  const GapMove move{m_lines, 0};
  m_gap = m_lines;
  m_start = m_start + 1 == m_lines ? 0 : m_start + 1;
  return move;
}

}  // namespace ohmvp
