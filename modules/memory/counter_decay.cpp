#include "modules/memory/counter_decay.h"

namespace ohmvp {

std::unique_ptr<CounterDecay> make_counter_decay(const CounterDecayConfig& config) {
  switch (config.kind) {
    case CounterDecayKind::halve:
      return std::make_unique<HalvingDecay>(config.interval);
    case CounterDecayKind::reset:
      return std::make_unique<ResetDecay>(config.interval);
    case CounterDecayKind::none:
      break;
  }
  return std::make_unique<NoDecay>();
}

}  // namespace ohmvp
