#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace ohmvp::gpu {

// One memory request of a warp's access: a line and the sectors and bytes of it that the
// active lanes touch.
struct CoalescedRequest {
  uint64_t line_address = 0;            // aligned to the line size
  uint32_t sector_mask = 0;             // bit s: sector s of the line
  std::array<uint64_t, 2> byte_mask{};  // bit b (of word b / 64): byte b of the line

  bool touches_byte(uint32_t byte) const { return (byte_mask[byte / 64] >> (byte % 64)) & 1; }
};

// Where a lane's bytes are among the requests: one piece, or two when the lane's bytes cross
// a line boundary (only possible for a misaligned address).
struct LanePiece {
  uint16_t request = 0;  // index into the requests
  uint8_t offset = 0;    // first byte inside the request's line
  uint8_t bytes = 0;
};

struct LanePlacement {
  std::array<LanePiece, 2> pieces{};
  uint8_t piece_count = 0;  // 0 for an inactive lane
};

// Turns the per-lane addresses of a warp's global or local access into line requests, as
// Volta's L1 does (the accesses of a warp go out as the distinct 32-byte sectors they touch,
// grouped by 128-byte line). Requests are in the order their line is first touched, going
// through the active lanes from lane 0 up; that order is deterministic and is the order the
// SM sends them to L1. The result stays in the coalescer until the next coalesce(); nothing is
// allocated per call.
class Coalescer {
 public:
  static constexpr uint32_t k_max_lanes = 64;
  static constexpr size_t k_max_requests = 2 * k_max_lanes;

  // `line_bytes` a power of two of at most 128; `sector_bytes` a power of two dividing it,
  // with at most 32 sectors per line.
  explicit Coalescer(uint32_t line_bytes = 128, uint32_t sector_bytes = 32);

  // `addresses[lane]` for lane < lane_count; lanes whose bit in `active_mask` is clear are
  // skipped. `bytes_per_lane` is 1..16 (vector accesses: the whole vector).
  void coalesce(const uint64_t* addresses, uint32_t lane_count, uint64_t active_mask,
                uint32_t bytes_per_lane);

  size_t request_count() const { return m_request_count; }
  const CoalescedRequest& request(size_t index) const { return m_requests[index]; }
  const LanePlacement& placement(uint32_t lane) const { return m_placements[lane]; }
  const std::array<LanePlacement, k_max_lanes>& placements() const { return m_placements; }
  // Sectors over all requests: what a fully sectored L1 looks up.
  uint32_t sector_count() const;

  uint32_t line_bytes() const { return m_line_bytes; }
  uint32_t sector_bytes() const { return m_sector_bytes; }

 private:
  uint16_t request_for_line(uint64_t line_address);
  uint16_t new_request(uint64_t line_address);  // when it is not the last request's line
  void mark(CoalescedRequest& request, uint32_t offset, uint32_t bytes) const;

  uint32_t m_line_bytes;
  uint32_t m_sector_bytes;
  uint32_t m_sector_shift = 0;  // log2(m_sector_bytes): a lane's sector by shift, not division
  std::array<CoalescedRequest, k_max_requests> m_requests{};
  std::array<LanePlacement, k_max_lanes> m_placements{};
  size_t m_request_count = 0;
  uint16_t m_last_request = 0;
};

}  // namespace ohmvp::gpu
