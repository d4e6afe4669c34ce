#include "modules/optical/loss_budget.h"

#include <cmath>

namespace ohmvp {

const char* to_string(LossKind kind) {
  switch (kind) {
    case LossKind::coupler:
      return "coupler";
    case LossKind::modulator_insertion:
      return "modulator_insertion";
    case LossKind::ring_through:
      return "ring_through";
    case LossKind::waveguide:
      return "waveguide";
    case LossKind::half_tap_through:
      return "half_tap_through";
    case LossKind::half_tap_drop:
      return "half_tap_drop";
    case LossKind::splitter_excess:
      return "splitter_excess";
    case LossKind::filter_drop:
      return "filter_drop";
    case LossKind::detector:
      return "detector";
  }
  return "?";
}

void LossBudget::add(LossKind kind, double count, double each_db) {
  if (count > 0) m_terms.push_back(LossTerm{kind, count, each_db});
}

double LossBudget::total_db() const {
  double total = 0.0;
  for (const LossTerm& term : m_terms) total += term.db();
  return total;
}

double LossBudget::db_of(LossKind kind) const {
  double total = 0.0;
  for (const LossTerm& term : m_terms)
    if (term.kind == kind) total += term.db();
  return total;
}

double db_to_ratio(double db) {
  return std::pow(10.0, -db / 10.0);
}

double ratio_to_db(double ratio) {
  return -10.0 * std::log10(ratio);
}

double mw_to_dbm(double mw) {
  return 10.0 * std::log10(mw);
}

double dbm_to_mw(double dbm) {
  return std::pow(10.0, dbm / 10.0);
}

}  // namespace ohmvp
