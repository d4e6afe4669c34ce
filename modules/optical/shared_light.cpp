#include "modules/optical/shared_light.h"

#include <cstring>
#include <stdexcept>

#include "modules/common/errors.h"
#include "modules/optical/wom_code.h"

namespace ohmvp {

SharedLight::SharedLight(DualRouteMode mode, double coupling_ratio, double extinction_share)
    : m_mode(mode) {
  if (mode == DualRouteMode::none)
    throw std::invalid_argument("SharedLight: routes that take turns share no light");
  if (mode == DualRouteMode::half_coupled) m_route.emplace(coupling_ratio, extinction_share);
}

void SharedLight::data_route_burst(const uint8_t* data, uint32_t bytes) {
  m_latest.assign(data, data + bytes);
}

const uint8_t* SharedLight::stream(uint32_t bytes) {
  m_stream.assign(bytes, 0);
  if (!m_latest.empty()) {
    for (uint32_t i = 0; i < bytes; ++i) m_stream[i] = m_latest[i % m_latest.size()];
  }
  return m_stream.data();
}

void SharedLight::carry_memory_route(uint8_t* data, uint32_t bytes) {
  if (m_mode == DualRouteMode::wom) {
    carry_wom(data, bytes);
  } else {
    carry_half_coupled(data, bytes);
  }
}

void SharedLight::carry_wom(uint8_t* data, uint32_t bytes) {
  const wom::CellBuffer first = wom::encode_first(stream(bytes), bytes);
  wom::CellBuffer cells = first;
  wom::overlay_second(cells, data, bytes);
  if (const std::optional<wom::WomViolation> violation = wom::check_second_write(first, cells))
    throw SimulationError("memory route: " + violation->describe());
  for (size_t s = 0; s < cells.symbols(); ++s)
    ++(cells.symbol(s) == first.symbol(s) ? m_wom_kept : m_wom_rewritten);
  const std::vector<uint8_t> read = wom::decode(cells);
  std::memcpy(data, read.data(), bytes);
}

void SharedLight::carry_half_coupled(uint8_t* data, uint32_t bytes) {
  const uint8_t* controller = stream(bytes);
  const HalfCoupledRoute::Light light = m_route->transmit(controller, data, bytes);
  const std::vector<uint8_t> read = m_route->read_xpoint_at_dram(light);
  const std::vector<uint8_t> snarfed = m_route->read_controller_at_xpoint(light);
  m_bit_errors += ohmvp::bit_errors(read.data(), data, bytes);
  m_snarf_errors += ohmvp::bit_errors(snarfed.data(), controller, bytes);
  std::memcpy(data, read.data(), bytes);
}

}  // namespace ohmvp
