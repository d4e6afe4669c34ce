#pragma once

#include <cstdint>
#include <optional>

#include "modules/common/lazy_table.h"
#include "modules/xpoint/feistel_randomiser.h"
#include "modules/xpoint/start_gap.h"
#include "modules/xpoint/xpoint_config.h"

namespace ohmvp {

// Logical media line -> physical media line for the whole device: the optional Feistel
// randomiser, then Start-Gap per region (region r owns physical lines r*(R+1) .. r*(R+1)+R for R
// logical lines per region). With Start-Gap disabled the mapping is the identity.
class WearLeveller {
 public:
  // `lines` logical lines; with Start-Gap enabled it must be a multiple of region_lines
  // (std::invalid_argument otherwise; the config parser reports it first).
  WearLeveller(uint64_t lines, const StartGapConfig& config);

  uint64_t to_physical(uint64_t logical) const {
    if (!m_enabled) return logical;
    const uint64_t randomised = m_randomiser ? m_randomiser->forward(logical) : logical;
    const uint64_t region = randomised / m_region_lines;
    return region * (m_region_lines + 1) +
           m_regions[region].to_physical(randomised - region * m_region_lines);
  }

  // Counts a media write of logical line `logical`; when its region's gap moves, the copy the
  // media must do, in device physical lines.
  std::optional<GapMove> count_write(uint64_t logical);

  uint64_t lines() const { return m_lines; }
  uint64_t physical_lines() const { return m_physical_lines; }
  uint64_t moves() const { return m_moves; }
  bool enabled() const { return m_enabled; }

 private:
  uint64_t m_lines;
  bool m_enabled;
  uint64_t m_region_lines;
  uint64_t m_physical_lines;
  std::optional<FeistelRandomiser> m_randomiser;
  LazyTable<StartGap> m_regions;
  uint64_t m_moves = 0;
};

}  // namespace ohmvp
