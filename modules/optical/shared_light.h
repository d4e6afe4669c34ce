#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "modules/optical/dual_route_mode.h"
#include "modules/optical/half_coupled_route.h"

namespace ohmvp {

// A memory-route burst's bytes crossing light it shares with the data route, bit by bit, as the
// platform shares it (DualRouteMode):
// - wom (Ohm-WOM): the data route's bits are first-generation WOM words, the memory route's are
//   overlaid as second-generation words; the second write is checked to only add absorption, and
//   the memory route's receiver decodes the cells.
// - half_coupled (Ohm-BW): the controller's half-coupled transmitter leaves at least half the
//   light for a 0; the memory route's sender modulates the remainder and its receiver decides by
//   light strength (HalfCoupledRoute), in either direction.
// The data route's stream a memory-route burst rides on is the channel's latest data-route
// transfer (idle light, all 0s, before the first): a modelling choice, since the timing books the
// sharing as time, not as one data-route burst beside each memory-route one.
class SharedLight {
 public:
  // `mode` wom or half_coupled; `coupling_ratio` and `extinction_share` are the half-coupled
  // MRRs' share and 1 / the extinction ratio (the config's checks keep them readable).
  SharedLight(DualRouteMode mode, double coupling_ratio, double extinction_share);

  // The data route's latest burst, as the controller's stream on the light.
  void data_route_burst(const uint8_t* data, uint32_t bytes);
  // A memory-route burst crosses: `data` becomes what its receiver reads off the light.
  // Throws SimulationError if a WOM second write gives light back (a model error).
  void carry_memory_route(uint8_t* data, uint32_t bytes);

  // WOM: symbols whose first-generation cells already decoded to the memory route's data, so the
  // second write left them (Rivest-Shamir), and symbols rewritten.
  uint64_t wom_symbols_kept() const { return m_wom_kept; }
  uint64_t wom_symbols_rewritten() const { return m_wom_rewritten; }
  // Half-coupled: memory-route bits the receiver read wrong, and data-route bits the memory
  // route's tap read wrong (the snarf of the controller's stream).
  uint64_t bit_errors() const { return m_bit_errors; }
  uint64_t snarf_bit_errors() const { return m_snarf_errors; }

 private:
  // The data route's stream over `bytes` bytes: its latest burst, repeated.
  const uint8_t* stream(uint32_t bytes);
  void carry_wom(uint8_t* data, uint32_t bytes);
  void carry_half_coupled(uint8_t* data, uint32_t bytes);

  DualRouteMode m_mode;
  std::optional<HalfCoupledRoute> m_route;  // half_coupled only
  std::vector<uint8_t> m_latest;  // the data route's latest burst
  std::vector<uint8_t> m_stream;  // scratch: the stream under one memory-route burst
  uint64_t m_wom_kept = 0;
  uint64_t m_wom_rewritten = 0;
  uint64_t m_bit_errors = 0;
  uint64_t m_snarf_errors = 0;
};

}  // namespace ohmvp
