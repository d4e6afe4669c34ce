#include "modules/memory/front_request_checks.h"

namespace ohmvp {

void check_front_request(const sc_core::sc_module& module, const tlm::tlm_generic_payload& payload,
                         const sc_core::sc_time& delay, bool another_waiting) {
  if (delay != sc_core::SC_ZERO_TIME) {
    SC_REPORT_ERROR(module.name(),
                    "BEGIN_REQ with an annotated delay is not supported; send it then");
  }
  if (!payload.has_mm()) {
    SC_REPORT_ERROR(module.name(),
                    "BEGIN_REQ of a payload without a memory manager: requests are kept past "
                    "the call, which needs acquire/release (TLM-2.0 14.5)");
  }
  if (another_waiting) {
    SC_REPORT_ERROR(module.name(),
                    "BEGIN_REQ before END_REQ of the request still waiting to be taken");
  }
}

}  // namespace ohmvp
