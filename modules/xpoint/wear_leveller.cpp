#include "modules/xpoint/wear_leveller.h"

#include <stdexcept>

namespace ohmvp {

WearLeveller::WearLeveller(uint64_t lines, const StartGapConfig& config)
    : m_lines(lines),
      m_enabled(config.enabled),
      m_region_lines(config.region_lines),
      m_physical_lines(lines),
      m_regions(0, StartGap(1, 1)) {
  if (lines == 0) throw std::invalid_argument("WearLeveller: needs at least one line");
  if (!m_enabled) return;
  if (m_region_lines == 0 || lines % m_region_lines != 0) {
    throw std::invalid_argument("WearLeveller: region_lines must divide the line count");
  }
  const uint64_t regions = lines / m_region_lines;
  m_physical_lines = regions * (m_region_lines + 1);
  m_regions = LazyTable<StartGap>(regions, StartGap(m_region_lines, config.psi));
  if (config.randomise) m_randomiser.emplace(lines, config.seed);
}

std::optional<GapMove> WearLeveller::count_write(uint64_t logical) {
  if (!m_enabled) return std::nullopt;
  const uint64_t randomised = m_randomiser ? m_randomiser->forward(logical) : logical;
  const uint64_t region = randomised / m_region_lines;
  std::optional<GapMove> move = m_regions.at(region).count_write();
  if (!move) return std::nullopt;
  ++m_moves;
  const uint64_t base = region * (m_region_lines + 1);
  return GapMove{base + move->from, base + move->to};
}

}  // namespace ohmvp
