#pragma once

#include <memory>
#include <vector>

#include "modules/memory/controller_request.h"

namespace ohmvp {

enum class PagePolicyKind { open, closed, adaptive };

// Decides whether a column command closes its row (RDA/WRA) or leaves it open.
class PagePolicy {
 public:
  virtual ~PagePolicy() = default;
  // `others` are the bank's other queued requests (reads and writes).
  virtual bool auto_precharge(const ControllerRequest& served,
                              const std::vector<ControllerRequest*>& reads,
                              const std::vector<ControllerRequest*>& writes) const = 0;
};

// Keep the row open for later hits.
class OpenPagePolicy : public PagePolicy {
 public:
  bool auto_precharge(const ControllerRequest&, const std::vector<ControllerRequest*>&,
                      const std::vector<ControllerRequest*>&) const override {
    return false;
  }
};

// Close the row after every access, but not under an older queued request to it: the row was
// opened for that one (FR-FCFS lets a younger hit, e.g. of the queue the controller is serving,
// go first), and closing it would make it activate the row again.
class ClosedPagePolicy : public PagePolicy {
 public:
  bool auto_precharge(const ControllerRequest& served, const std::vector<ControllerRequest*>& reads,
                      const std::vector<ControllerRequest*>& writes) const override;
};

// Close the row unless another queued request to the bank hits it.
class AdaptivePagePolicy : public PagePolicy {
 public:
  bool auto_precharge(const ControllerRequest& served, const std::vector<ControllerRequest*>& reads,
                      const std::vector<ControllerRequest*>& writes) const override;
};

std::unique_ptr<PagePolicy> make_page_policy(PagePolicyKind kind);

}  // namespace ohmvp
