#include "modules/optical/half_coupled_route.h"

#include <bitset>
#include <cmath>
#include <stdexcept>

namespace ohmvp {

namespace {

bool bit_of(const uint8_t* bytes, size_t i) {
  return (bytes[i / 8] >> (i % 8)) & 1u;
}

std::vector<uint8_t> decide(const std::vector<double>& levels, double threshold) {
  std::vector<uint8_t> bytes(levels.size() / 8, 0);
  for (size_t i = 0; i < bytes.size() * 8; ++i)
    if (levels[i] > threshold) bytes[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
  return bytes;
}

// Uniform in (0, 1].
double uniform(Rng& rng) {
  return (static_cast<double>(rng.next() >> 11) + 1.0) * 0x1.0p-53;
}

}  // namespace

HalfCoupledRoute::HalfCoupledRoute(double coupling_ratio, double extinction_share)
    : m_ratio(coupling_ratio), m_extinction(extinction_share) {
  if (!(coupling_ratio > 0.0 && coupling_ratio < 1.0))
    throw std::invalid_argument("HalfCoupledRoute: the coupling ratio must be within (0, 1)");
  if (!(extinction_share >= 0.0 && extinction_share < 1.0 - coupling_ratio))
    throw std::invalid_argument(
        "HalfCoupledRoute: a fully coupled 0 must leave less light than a half-coupled one");
}

HalfCoupledRoute::Light HalfCoupledRoute::transmit(const uint8_t* controller, const uint8_t* xpoint,
                                                   size_t bytes) const {
  Light light;
  light.at_xpoint.resize(bytes * 8);
  light.at_dram.resize(bytes * 8);
  for (size_t i = 0; i < bytes * 8; ++i) {
    const double sent = bit_of(controller, i) ? 1.0 : 1.0 - m_ratio;
    light.at_xpoint[i] = m_ratio * sent;
    const double onward = (1.0 - m_ratio) * sent;
    light.at_dram[i] = bit_of(xpoint, i) ? onward : onward * m_extinction;
  }
  return light;
}

void HalfCoupledRoute::add_noise(std::vector<double>& levels, double sigma, Rng& rng) {
  constexpr double two_pi = 6.283185307179586;
  for (size_t i = 0; i < levels.size(); i += 2) {
    // Box-Muller: two independent normals from two uniforms.
    const double radius = sigma * std::sqrt(-2.0 * std::log(uniform(rng)));
    const double angle = two_pi * uniform(rng);
    levels[i] += radius * std::cos(angle);
    if (i + 1 < levels.size()) levels[i + 1] += radius * std::sin(angle);
  }
}

double HalfCoupledRoute::xpoint_threshold() const {
  // The controller's 1 and 0 seen through the tap: r and r (1 - r).
  return 0.5 * (m_ratio + m_ratio * (1.0 - m_ratio));
}

double HalfCoupledRoute::dram_threshold() const {
  // Dimmest bright: the XPoint's 1 on the controller's 0, (1 - r)^2. Brightest dark: the
  // XPoint's 0 on the controller's 1, (1 - r) x extinction.
  const double onward = 1.0 - m_ratio;
  return 0.5 * (onward * onward + onward * m_extinction);
}

std::vector<uint8_t> HalfCoupledRoute::read_controller_at_xpoint(const Light& light) const {
  return decide(light.at_xpoint, xpoint_threshold());
}

std::vector<uint8_t> HalfCoupledRoute::read_xpoint_at_dram(const Light& light) const {
  return decide(light.at_dram, dram_threshold());
}

uint64_t bit_errors(const uint8_t* a, const uint8_t* b, size_t bytes) {
  uint64_t errors = 0;
  for (size_t i = 0; i < bytes; ++i) errors += std::bitset<8>(a[i] ^ b[i]).count();
  return errors;
}

}  // namespace ohmvp
