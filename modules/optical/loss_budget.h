#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ohmvp {

// What light loses on its way from the laser to one receiver.
enum class LossKind : uint8_t {
  coupler,              // laser into the waveguide
  modulator_insertion,  // the transmitting MRR, even when it lets the light pass
  ring_through,         // an MRR passed that does not couple this wavelength
  waveguide,            // propagation, per cm
  half_tap_through,     // light going on past a half-coupled MRR (its uncoupled share)
  half_tap_drop,        // light a half-coupled receiver takes (its coupled share)
  splitter_excess,      // excess loss of a half-coupled MRR used as a splitter
  filter_drop,          // the receiving MRR dropping the wavelength
  detector,             // photodetector
};

struct LossTerm {
  LossKind kind;
  double count;    // rings, cm, taps
  double each_db;  // loss of one
  double db() const { return count * each_db; }
};

// A per-wavelength loss budget along one route, term by term (P_rx[dBm] = P_laser[dBm] - total).
class LossBudget {
 public:
  void add(LossKind kind, double count, double each_db);
  double total_db() const;
  // The sum of the terms of one kind (0 when absent).
  double db_of(LossKind kind) const;
  const std::vector<LossTerm>& terms() const { return m_terms; }

 private:
  std::vector<LossTerm> m_terms;
};

double ratio_to_db(double ratio);
double mw_to_dbm(double mw);
double dbm_to_mw(double dbm);

}  // namespace ohmvp
