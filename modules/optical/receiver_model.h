#pragma once

#include <vector>

#include "modules/optical/optical_config.h"

namespace ohmvp {

// The light levels a receiver must tell apart, as shares of the full light that reaches it (the
// power after every loss on the route, with every modulator on the way letting the light pass).
// A bit is read as bright or dark: the worst case is the dimmest bright level against the
// brightest dark one. On-off keying with a fully coupled modulator: bright {1}, dark {1/ER}.
struct LightLevels {
  std::vector<double> bright;
  std::vector<double> dark;

  double dimmest_bright() const;
  double brightest_dark() const;
  // Whether any light at all tells the levels apart: the dimmest bright above the brightest dark.
  bool separable() const { return dimmest_bright() > brightest_dark(); }
};

// The receiver model (docs/optical.md): photocurrent I = R P; noise per level
// sigma^2 = i_n^2 B + 2 q I B (white TIA noise plus shot noise) with B = bandwidth_per_bit_rate x
// bit rate; Q = (I_bright - I_dark) / (sigma_bright + sigma_dark) over the worst pair.
double q_factor(const ReceiverConfig& receiver, double rate_gbps, double full_power_mw,
                const LightLevels& levels);

// BER = 0.5 erfc(Q / sqrt(2)).
double ber_from_q(double q);
// The Q that gives `ber` (inverse of ber_from_q; 7.94 for 1e-15).
double q_for_ber(double ber);

// The smallest full received power (mW) whose Q reaches q_for_ber(receiver.target_ber).
// std::invalid_argument when none up to 1e9 mW does (levels that are not separable, or too close
// to tell apart against the receiver's noise).
double required_power_mw(const ReceiverConfig& receiver, double rate_gbps,
                         const LightLevels& levels);

// On-off keying by a fully coupled modulator: bright {1}, dark {1 / extinction ratio}.
LightLevels on_off_levels(const ReceiverConfig& receiver);
double extinction_share(const ReceiverConfig& receiver);  // 1 / ER as a power ratio

}  // namespace ohmvp
