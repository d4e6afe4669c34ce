#pragma once

#include <array>
#include <cstdint>
#include <queue>
#include <vector>

#include "modules/gpu/scoreboard.h"

namespace ohmvp::gpu {

// A result's destination registers, released from the scoreboard at `cycle` if the warp slot
// still holds the same warp (`generation`).
struct RegisterRelease {
  uint64_t cycle;
  uint64_t sequence;  // push order
  uint32_t warp;
  uint32_t generation;
  const InstructionRegisters* registers;
  bool operator>(const RegisterRelease& o) const {
    return cycle != o.cycle ? cycle > o.cycle : sequence > o.sequence;
  }
};

// The SM's pending register releases, handed out in (cycle, push order) order, like a
// priority queue: a timing wheel of one bucket per cycle for the next k_span cycles (arithmetic
// latencies), a heap for releases further ahead. Pushing a release at most k_span - 1 cycles
// after the last due() cycle and taking the due ones costs no heap operation.
class ReleaseWheel {
 public:
  static constexpr uint64_t k_span = 64;

  // `release.cycle` must not be before the last due() cycle.
  void push(uint32_t warp, uint32_t generation, const InstructionRegisters& registers,
            uint64_t cycle) {
    const RegisterRelease release{cycle, m_sequence++, warp, generation, &registers};
    if (cycle - m_base >= k_span) {
      m_far.push(release);
      return;
    }
    m_buckets[cycle % k_span].push_back(release);
    m_occupied |= uint64_t{1} << (cycle % k_span);
  }

  // Calls `take(release)` for every release due at or before `cycle`, in order; later pushes
  // must not name an earlier cycle.
  template <class Take>
  void due(uint64_t cycle, Take take) {
    for (;;) {
      const uint64_t near = next_near();
      const uint64_t far = m_far.empty() ? UINT64_MAX : m_far.top().cycle;
      const uint64_t next = near < far ? near : far;
      if (next > cycle) break;
      // Far releases of a cycle were pushed before its near ones (from an earlier cycle).
      while (!m_far.empty() && m_far.top().cycle == next) {
        const RegisterRelease release = m_far.top();
        m_far.pop();
        take(release);
      }
      if (near == next) {
        std::vector<RegisterRelease>& bucket = m_buckets[next % k_span];
        for (const RegisterRelease& release : bucket) take(release);
        bucket.clear();
        m_occupied &= ~(uint64_t{1} << (next % k_span));
      }
    }
    m_base = cycle;
  }

  // The cycle of the earliest pending release, UINT64_MAX when none.
  uint64_t next_cycle() const {
    const uint64_t near = next_near();
    return m_far.empty() || near < m_far.top().cycle ? near : m_far.top().cycle;
  }

  // Drops every pending release (a new launch, an abort).
  void clear() {
    for (std::vector<RegisterRelease>& bucket : m_buckets) bucket.clear();
    m_occupied = 0;
    m_far = {};
  }

 private:
  // Bucket i holds the release cycle in [m_base, m_base + k_span) that is i modulo k_span.
  uint64_t next_near() const {
    if (m_occupied == 0) return UINT64_MAX;
    const uint32_t shift = uint32_t(m_base % k_span);
    const uint64_t rotated =
        shift == 0 ? m_occupied : (m_occupied >> shift) | (m_occupied << (64 - shift));
    return m_base + uint64_t(__builtin_ctzll(rotated));
  }

  std::array<std::vector<RegisterRelease>, k_span> m_buckets;
  uint64_t m_occupied = 0;  // bit i: bucket i is not empty
  uint64_t m_base = 0;      // the last due() cycle
  uint64_t m_sequence = 0;
  std::priority_queue<RegisterRelease, std::vector<RegisterRelease>, std::greater<RegisterRelease>>
      m_far;
};

}  // namespace ohmvp::gpu
