#include "modules/optical/mrr_state.h"

#include <algorithm>

namespace ohmvp {

const char* to_string(MrrCoupling coupling) {
  switch (coupling) {
    case MrrCoupling::off_resonance:
      return "off_resonance";
    case MrrCoupling::half:
      return "half";
    case MrrCoupling::full:
      return "full";
  }
  return "?";
}

uint32_t tuning_ps(const MrrTuningConfig& tuning, MrrCoupling from, MrrCoupling to) {
  if (from == to) return 0;
  if (from == MrrCoupling::half || to == MrrCoupling::half) return tuning.half_coupling_ps;
  return tuning.on_off_ps;
}

uint32_t MrrArray::retune(const MrrTuningConfig& tuning, size_t ring, MrrCoupling target) {
  MrrCoupling& state = m_states.at(ring);
  const uint32_t time = tuning_ps(tuning, state, target);
  if (state != target) ++m_retunings;
  state = target;
  return time;
}

uint32_t MrrArray::retune_all(const MrrTuningConfig& tuning, MrrCoupling target) {
  uint32_t slowest = 0;
  for (size_t ring = 0; ring < m_states.size(); ++ring)
    slowest = std::max(slowest, retune(tuning, ring, target));
  return slowest;
}

}  // namespace ohmvp
