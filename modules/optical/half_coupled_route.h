#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "modules/common/random.h"

namespace ohmvp {

// Ohm-BW's dual route bit by bit, as light levels (shares of the full light of one wavelength):
// the memory controller's half-coupled transmitter sends a 1 as full light and a 0 as the
// uncoupled share 1 - r (it never takes all the light); the XPoint's half-coupled detector takes
// the share r and reads the controller's bits from it; the XPoint modulates its own bits on the
// remaining 1 - r by no coupling (1) or full coupling (0: the extinction share is left); the
// DRAM reads the XPoint's bits by light strength. Bright is 1, as in the paper (light absorbed
// by a resonant MRR is a 0). Both streams run at the full bit rate.
class HalfCoupledRoute {
 public:
  // `coupling_ratio` r of the half-coupled MRRs; `extinction_share` = 1 / extinction ratio.
  HalfCoupledRoute(double coupling_ratio, double extinction_share);

  struct Light {
    std::vector<double> at_xpoint;  // what the XPoint's half-coupled detector takes, per bit
    std::vector<double> at_dram;    // what reaches the DRAM's detector, per bit
  };

  // Both streams of `bytes` bytes on one wavelength, bit i of the route = bit i % 8 of byte i / 8.
  Light transmit(const uint8_t* controller, const uint8_t* xpoint, size_t bytes) const;

  // Adds white Gaussian noise of `sigma` (in shares of the full light) to every level.
  static void add_noise(std::vector<double>& levels, double sigma, Rng& rng);

  // Decisions at the thresholds midway between the levels each receiver must tell apart.
  std::vector<uint8_t> read_controller_at_xpoint(const Light& light) const;
  std::vector<uint8_t> read_xpoint_at_dram(const Light& light) const;

  double xpoint_threshold() const;
  double dram_threshold() const;

 private:
  double m_ratio;
  double m_extinction;
};

// Bits that differ between two buffers of `bytes` bytes.
uint64_t bit_errors(const uint8_t* a, const uint8_t* b, size_t bytes);

}  // namespace ohmvp
