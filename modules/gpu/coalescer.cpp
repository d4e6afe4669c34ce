#include "modules/gpu/coalescer.h"

#include <algorithm>
#include <bitset>
#include <string>

#include "modules/common/errors.h"
#include "modules/common/power_of_two.h"
#include "modules/gpu/lane_mask.h"

namespace ohmvp::gpu {

namespace {

// Bits first..last (last <= 31) set.
uint32_t bits_between(uint32_t first, uint32_t last) {
  return uint32_t((uint64_t{2} << last) - (uint64_t{1} << first));
}

}  // namespace

Coalescer::Coalescer(uint32_t line_bytes, uint32_t sector_bytes)
    : m_line_bytes(line_bytes), m_sector_bytes(sector_bytes) {
  if (!is_power_of_two(line_bytes) || line_bytes > 128 || !is_power_of_two(sector_bytes) ||
      sector_bytes > line_bytes || line_bytes / sector_bytes > 32)
    throw SimulationError("coalescer: unsupported line/sector size " + std::to_string(line_bytes) +
                          "/" + std::to_string(sector_bytes));
  m_sector_shift = static_cast<uint32_t>(__builtin_ctz(sector_bytes));
}

uint16_t Coalescer::new_request(uint64_t line_address) {
  for (size_t i = 0; i < m_request_count; ++i) {
    if (m_requests[i].line_address == line_address) {
      m_last_request = static_cast<uint16_t>(i);
      return m_last_request;
    }
  }
  CoalescedRequest& request = m_requests[m_request_count];
  request = CoalescedRequest{};
  request.line_address = line_address;
  m_last_request = static_cast<uint16_t>(m_request_count++);
  return m_last_request;
}

// Inline: called for every piece of every lane.
inline __attribute__((always_inline)) uint16_t Coalescer::request_for_line(uint64_t line_address) {
  if (m_request_count > 0 && m_requests[m_last_request].line_address == line_address)
    return m_last_request;
  return new_request(line_address);
}

inline __attribute__((always_inline)) void Coalescer::mark(CoalescedRequest& request,
                                                           uint32_t offset, uint32_t bytes) const {
  const uint32_t first_sector = offset >> m_sector_shift;
  const uint32_t last_sector = (offset + bytes - 1) >> m_sector_shift;
  request.sector_mask |= bits_between(first_sector, last_sector);
  // bytes is at most 16: the bytes lie in one 64-byte word of the mask or straddle two.
  const uint32_t end = offset + bytes;
  const uint32_t first_word = offset / 64, last_word = (end - 1) / 64;
  if (first_word == last_word) {
    request.byte_mask[first_word] |= ((uint64_t{1} << bytes) - 1) << (offset % 64);
  } else {
    request.byte_mask[first_word] |= ~uint64_t{0} << (offset % 64);
    request.byte_mask[last_word] |= (uint64_t{1} << (end % 64)) - 1;
  }
}

void Coalescer::coalesce(const uint64_t* addresses, uint32_t lane_count, uint64_t active_mask,
                         uint32_t bytes_per_lane) {
  if (lane_count > k_max_lanes)
    throw SimulationError("coalescer: " + std::to_string(lane_count) + " lanes, at most " +
                          std::to_string(k_max_lanes));
  if (bytes_per_lane < 1 || bytes_per_lane > 16)
    throw SimulationError("coalescer: " + std::to_string(bytes_per_lane) +
                          " bytes per lane, expected 1 to 16");
  m_request_count = 0;
  m_last_request = 0;
  m_placements.fill(LanePlacement{});
  if (lane_count < k_max_lanes) active_mask &= (uint64_t{1} << lane_count) - 1;
  const uint64_t line_mask = ~uint64_t{m_line_bytes - 1};
  for_each_lane(
      active_mask, [&](uint32_t lane) __attribute__((always_inline)) {
        LanePlacement& placement = m_placements[lane];
        uint64_t address = addresses[lane];
        uint32_t remaining = bytes_per_lane;
        while (remaining > 0) {
          const uint64_t line = address & line_mask;
          const uint32_t offset = static_cast<uint32_t>(address - line);
          const uint32_t bytes = std::min(remaining, m_line_bytes - offset);
          const uint16_t index = request_for_line(line);
          mark(m_requests[index], offset, bytes);
          placement.pieces[placement.piece_count++] =
              LanePiece{index, static_cast<uint8_t>(offset), static_cast<uint8_t>(bytes)};
          address += bytes;
          remaining -= bytes;
        }
      });
}

uint32_t Coalescer::sector_count() const {
  uint32_t sectors = 0;
  for (size_t i = 0; i < m_request_count; ++i)
    sectors += static_cast<uint32_t>(std::bitset<32>(m_requests[i].sector_mask).count());
  return sectors;
}

}  // namespace ohmvp::gpu
