#pragma once

#include <cstdint>
#include <functional>
#include <queue>
#include <systemc>
#include <vector>

#include "modules/interconnect/pcie_link.h"

namespace ohmvp {

// Paged mode's way to host memory: page transfers over the host's PCIe link, which every
// channel's manager shares (copies in one direction queue behind each other, PcieLink). A
// transfer may be held back until `not_before_ps` (the fault's service time); `done(token)` is
// called in the port's own process when its last byte has arrived.
class HostPort : public sc_core::sc_module {
 public:
  using Done = std::function<void(uint64_t token)>;

  HostPort(sc_core::sc_module_name name, PcieLink& link, Done done);
  SC_HAS_PROCESS(HostPort);

  void transfer(PcieLink::Direction direction, uint64_t bytes, uint64_t not_before_ps,
                uint64_t token);
  bool idle() const { return m_arrivals.empty(); }

 private:
  struct Arrival {
    uint64_t time_ps;
    uint64_t sequence;
    uint64_t token;
    bool operator>(const Arrival& o) const {
      return time_ps != o.time_ps ? time_ps > o.time_ps : sequence > o.sequence;
    }
  };

  void run();

  PcieLink& m_link;
  Done m_done;
  std::priority_queue<Arrival, std::vector<Arrival>, std::greater<Arrival>> m_arrivals;
  uint64_t m_sequence = 0;
  sc_core::sc_event m_wake;
};

}  // namespace ohmvp
