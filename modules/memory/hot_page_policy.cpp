#include "modules/memory/hot_page_policy.h"

namespace ohmvp {

std::unique_ptr<HotPagePolicy> make_hot_page_policy(const HotPageConfig& config) {
  if (config.kind == HotPageKind::beats_resident) {
    return std::make_unique<BeatsResidentHotPolicy>(config.threshold, config.margin);
  }
  return std::make_unique<ThresholdHotPolicy>(config.threshold);
}

}  // namespace ohmvp
