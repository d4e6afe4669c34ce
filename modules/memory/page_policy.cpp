#include "modules/memory/page_policy.h"

namespace ohmvp {

static bool other_hit(const ControllerRequest& served, const std::vector<ControllerRequest*>& q) {
  for (const ControllerRequest* r : q) {
    if (r != &served && r->address.row == served.address.row) return true;
  }
  return false;
}

static bool older_hit(const ControllerRequest& served, const std::vector<ControllerRequest*>& q) {
  for (const ControllerRequest* r : q) {
    if (r->sequence < served.sequence && r->address.row == served.address.row) return true;
  }
  return false;
}

bool ClosedPagePolicy::auto_precharge(const ControllerRequest& served,
                                      const std::vector<ControllerRequest*>& reads,
                                      const std::vector<ControllerRequest*>& writes) const {
  return !older_hit(served, reads) && !older_hit(served, writes);
}

bool AdaptivePagePolicy::auto_precharge(const ControllerRequest& served,
                                        const std::vector<ControllerRequest*>& reads,
                                        const std::vector<ControllerRequest*>& writes) const {
  return !other_hit(served, reads) && !other_hit(served, writes);
}

std::unique_ptr<PagePolicy> make_page_policy(PagePolicyKind kind) {
  switch (kind) {
    case PagePolicyKind::closed:
      return std::make_unique<ClosedPagePolicy>();
    case PagePolicyKind::adaptive:
      return std::make_unique<AdaptivePagePolicy>();
    case PagePolicyKind::open:
      break;
  }
  return std::make_unique<OpenPagePolicy>();
}

}  // namespace ohmvp
