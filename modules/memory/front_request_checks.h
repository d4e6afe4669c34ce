#pragma once

#include <systemc>
#include <tlm>

namespace ohmvp {

// What a memory front that keeps its requests past the call (the memory controller, the
// heterogeneous manager) asks of a BEGIN_REQ before it looks at the request, each breach an
// SC_REPORT_ERROR of `module`: no annotated delay (it takes a request when it is sent), a memory
// manager (it acquires the payload, TLM-2.0 14.5), and no other request still waiting for its
// END_REQ (`another_waiting`).
void check_front_request(const sc_core::sc_module& module, const tlm::tlm_generic_payload& payload,
                         const sc_core::sc_time& delay, bool another_waiting);

}  // namespace ohmvp
