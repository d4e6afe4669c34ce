#include "modules/optical/receiver_model.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ohmvp {

namespace {

constexpr double k_electron_charge = 1.602176634e-19;

double noise_amps(const ReceiverConfig& r, double bandwidth_hz, double current_a) {
  const double thermal = r.noise_pa_per_sqrt_hz * 1e-12;
  return std::sqrt(thermal * thermal * bandwidth_hz +
                   2.0 * k_electron_charge * current_a * bandwidth_hz);
}

}  // namespace

double extinction_share(const ReceiverConfig& receiver) {
  return std::pow(10.0, -receiver.extinction_ratio_db / 10.0);
}

LightLevels on_off_levels(const ReceiverConfig& receiver) {
  return LightLevels{{1.0}, {extinction_share(receiver)}};
}

double LightLevels::dimmest_bright() const {
  if (bright.empty()) throw std::invalid_argument("light levels: no bright level");
  return *std::min_element(bright.begin(), bright.end());
}

double LightLevels::brightest_dark() const {
  if (dark.empty()) throw std::invalid_argument("light levels: no dark level");
  return *std::max_element(dark.begin(), dark.end());
}

double q_factor(const ReceiverConfig& r, double rate_gbps, double full_power_mw,
                const LightLevels& levels) {
  const double bright = levels.dimmest_bright();
  const double dark = levels.brightest_dark();
  if (bright <= dark) return 0.0;
  const double bandwidth_hz = r.bandwidth_per_bit_rate * rate_gbps * 1e9;
  const double i_bright = r.responsivity_a_per_w * bright * full_power_mw * 1e-3;
  const double i_dark = r.responsivity_a_per_w * dark * full_power_mw * 1e-3;
  return (i_bright - i_dark) /
         (noise_amps(r, bandwidth_hz, i_bright) + noise_amps(r, bandwidth_hz, i_dark));
}

double ber_from_q(double q) {
  return 0.5 * std::erfc(q / std::sqrt(2.0));
}

double q_for_ber(double ber) {
  double low = 0.0;
  double high = 40.0;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (low + high);
    (ber_from_q(mid) > ber ? low : high) = mid;
  }
  return high;
}

double required_power_mw(const ReceiverConfig& r, double rate_gbps, const LightLevels& levels) {
  const double q = q_for_ber(r.target_ber);
  double low = 0.0;
  double high = 1.0;
  while (q_factor(r, rate_gbps, high, levels) < q) {
    high *= 2.0;
    if (high > 1e9)
      throw std::invalid_argument("required_power_mw: the levels cannot be told apart");
  }
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (low + high);
    (q_factor(r, rate_gbps, mid, levels) < q ? low : high) = mid;
  }
  return high;
}

}  // namespace ohmvp
