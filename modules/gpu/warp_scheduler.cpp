#include "modules/gpu/warp_scheduler.h"

#include "modules/gpu/gto_scheduler.h"
#include "modules/gpu/lrr_scheduler.h"
#include "modules/gpu/two_level_scheduler.h"

namespace ohmvp::gpu {

std::unique_ptr<WarpScheduler> make_warp_scheduler(const WarpSchedulerConfig& config,
                                                   uint32_t capacity) {
  switch (config.policy) {
    case WarpSchedulerPolicy::lrr:
      return std::make_unique<LrrScheduler>(capacity);
    case WarpSchedulerPolicy::gto:
      return std::make_unique<GtoScheduler>(capacity);
    case WarpSchedulerPolicy::two_level:
      return std::make_unique<TwoLevelScheduler>(capacity, config.active_set_size);
  }
  return nullptr;
}

}  // namespace ohmvp::gpu
