#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "modules/gpu/gpu_config.h"
#include "modules/gpu/occupancy.h"

namespace ohmvp::gpu {

// Hands the CTAs of the running grids to SMs with room for them. Grids are served by priority
// (a CUDA stream priority: lower numbers first), and among equal priorities in the order they
// were added: a grid's CTAs go out once every grid served before it has sent all of its
// (concurrent kernels fill what the earlier ones leave free, as a GPU's block scheduler does),
// and a CTA that fits on no SM holds back the grids served after it. A grid of a greater
// priority added later takes the room that CTAs finishing free before the lower grids' CTAs
// still waiting; CTAs already on an SM are not preempted. Within a grid CTAs go in linear order (x
// fastest, then y, then z). A CTA fits on an SM when the SM's CTAs of every grid together, with it,
// stay within the SM's limits (CTAs, threads counted in whole warps, warps, registers and shared
// memory as compute_occupancy allocates them), so a grid alone gets compute_occupancy's CTAs per
// SM. The SM for the next CTA is the first with room at or after the SM that follows the last one
// served, wrapping around; a grid's first CTA starts the search at SM 0: a fresh grid is spread
// one CTA per SM before any SM gets a second, and a freed slot is refilled in SM order.
// Deterministic.
class CtaDispatcher {
 public:
  struct Assignment {
    uint32_t sm = 0;
    uint32_t grid = 0;
    uint64_t cta = 0;  // linear CTA index in the grid
  };

  CtaDispatcher(uint32_t sm_count, const SmLimits& limits, uint32_t warp_size);

  // Adds grid `grid` (an id not in use) of `cta_count` CTAs, each needing what `occupancy` says.
  // `all_at_once` (a cooperative launch, whose CTAs all fit the GPU): its first CTA waits until
  // no SM holds a CTA of another grid, so that every one of its CTAs is resident together.
  // `priority`: the launch's stream priority (0 the least, negative numbers greater).
  void add_grid(uint32_t grid, uint64_t cta_count, const Occupancy& occupancy,
                bool all_at_once = false, int priority = 0);
  // The next CTA and its SM, or false when every CTA is dispatched or the next one has no room.
  bool next(Assignment& assignment);
  // A CTA of `grid` on `sm` finished; its resources are free again.
  void finished(uint32_t sm, uint32_t grid);
  // Forgets a grid whose CTAs have all finished.
  void remove_grid(uint32_t grid);
  // Forgets every grid and every resident CTA (the SMs dropped them after a device fault).
  void clear();

  bool grid_done(uint32_t grid) const;
  bool has_grid(uint32_t grid) const { return find(grid) != nullptr; }
  bool all_dispatched() const;
  uint32_t resident(uint32_t sm) const { return m_used[sm].ctas; }
  uint32_t sm_count() const { return static_cast<uint32_t>(m_used.size()); }

 private:
  struct Use {
    uint32_t ctas = 0;
    uint64_t threads = 0;
    uint64_t warps = 0;
    uint64_t registers = 0;
    uint64_t shared_bytes = 0;
    Use& operator+=(const Use& cta);
    Use& operator-=(const Use& cta);
  };
  struct Grid {
    uint32_t id = 0;
    uint64_t cta_count = 0;
    uint64_t next_cta = 0;
    uint64_t completed = 0;
    bool all_at_once = false;
    int priority = 0;
    Use cta;  // what one CTA takes (ctas = 1)
  };

  std::deque<Grid>::const_iterator locate(uint32_t grid) const;
  const Grid* find(uint32_t grid) const;
  Grid& get(uint32_t grid, const char* what);
  bool fits(const Use& used, const Use& cta) const;

  SmLimits m_limits;
  uint32_t m_warp_size;
  std::vector<Use> m_used;  // by SM, every grid's resident CTAs
  std::deque<Grid> m_grids;  // in the order they are served
  uint32_t m_next_sm = 0;
};

}  // namespace ohmvp::gpu
