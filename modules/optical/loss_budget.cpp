#include "modules/optical/loss_budget.h"

#include <cmath>

namespace ohmvp {

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
