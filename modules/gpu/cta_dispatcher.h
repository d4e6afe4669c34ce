#pragma once

#include <cstdint>
#include <vector>

namespace ohmvp::gpu {

// Hands the CTAs of a grid, in linear order (x fastest, then y, then z), to SMs that have a
// free CTA slot. Each SM holds at most `ctas_per_sm` CTAs of the grid (from
// compute_occupancy). The SM for the next CTA is the first SM with a free slot at or after the
// SM that follows the last one served, wrapping around: a fresh grid is spread one CTA per SM
// before any SM gets a second, and a freed slot is refilled in SM order. Deterministic.
class CtaDispatcher {
 public:
  struct Assignment {
    uint32_t sm = 0;
    uint64_t cta = 0;  // linear CTA index in the grid
  };

  explicit CtaDispatcher(uint32_t sm_count);

  // Starts a grid of `cta_count` CTAs; the previous grid must be complete.
  void start_grid(uint64_t cta_count, uint32_t ctas_per_sm);

  // The next CTA and its SM, or false when every CTA is dispatched or no SM has a free slot.
  bool next(Assignment& assignment);
  // A CTA on `sm` finished; its slot is free again.
  void finished(uint32_t sm);

  uint32_t free_slots(uint32_t sm) const { return m_ctas_per_sm - m_resident[sm]; }
  uint32_t resident(uint32_t sm) const { return m_resident[sm]; }
  uint64_t dispatched() const { return m_next_cta; }
  uint64_t completed() const { return m_completed; }
  bool all_dispatched() const { return m_next_cta == m_cta_count; }
  bool grid_done() const { return m_completed == m_cta_count; }
  uint32_t sm_count() const { return static_cast<uint32_t>(m_resident.size()); }

 private:
  std::vector<uint32_t> m_resident;
  uint32_t m_ctas_per_sm = 0;
  uint32_t m_next_sm = 0;
  uint64_t m_cta_count = 0;
  uint64_t m_next_cta = 0;
  uint64_t m_completed = 0;
};

}  // namespace ohmvp::gpu
