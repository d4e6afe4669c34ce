#pragma once

#include <systemc>
#include <tlm>

#include "modules/common/stats.h"
#include "modules/common/trace_signal.h"
#include "modules/interconnect/data_bus.h"
#include "modules/interconnect/data_bus_schedule.h"
#include "modules/interconnect/memory_channel.h"
#include "tlm_protocols/ddr_protocol.h"

namespace ohmvp {

class ConfigReader;

// A parallel electrical memory channel: `lanes` data wires at `rate_gbps` each.
struct ElectricalChannelConfig {
  uint32_t lanes = 64;
  double rate_gbps = 2.4;

  uint32_t bus_bytes() const { return lanes / 8; }
  // Time one burst of `bytes` occupies the data wires.
  double burst_ns(uint32_t bytes) const { return bytes * 8.0 / (lanes * rate_gbps); }
};

void parse(const ConfigReader& reader, ElectricalChannelConfig& config);

// Carries ddr commands from a memory controller to its DRAM. Commands pass through at once;
// the channel owns the data wires, accounts their busy time and checks that bursts never
// overlap. On a heterogeneous channel the same wires also carry the DDR-T data of the XPoint
// device, placed through the DataBus interface between the DRAM bursts: both devices see the
// same wires, and data is at the receiver when its burst ends.
class ElectricalChannel : public sc_core::sc_module,
                          public DdrFwTransport,
                          public DdrBwTransport,
                          public DataBus,
                          public MemoryChannel {
 public:
  tlm::tlm_target_socket<64, ddr_protocol_types> in;
  tlm::tlm_initiator_socket<64, ddr_protocol_types> out;

  ElectricalChannel(sc_core::sc_module_name name, const ElectricalChannelConfig& config,
                    StatsRegistry& stats, VcdWriter* vcd);

  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& payload, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override;
  void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) override;
  bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) override { return false; }
  unsigned int transport_dbg(tlm::tlm_generic_payload& payload) override;

  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& payload, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override;
  void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}

  // DataBus
  uint64_t earliest_free(uint64_t from_ps, uint64_t duration_ps) const override {
    return m_schedule.earliest_free(from_ps, duration_ps);
  }
  void occupy(uint64_t start_ps, uint64_t end_ps, uint32_t bytes) override {
    place(start_ps, end_ps, bytes);
  }

  // MemoryChannel
  tlm::tlm_target_socket<64, ddr_protocol_types>& ddr_in() override { return in; }
  tlm::tlm_initiator_socket<64, ddr_protocol_types>& ddr_out() override { return out; }
  DataBus& data_bus(BusDevice) override { return *this; }
  uint64_t busy_ps() const override { return m_busy_ps.value(); }
  const char* channel_name() const override { return name(); }

 private:
  void place(uint64_t start_ps, uint64_t end_ps, uint32_t bytes);

  ElectricalChannelConfig m_config;
  DataBusSchedule m_schedule;
  Counter& m_busy_ps;
  Counter& m_bytes;
  Counter& m_bursts;
  TraceSignal m_busy_trace;
};

}  // namespace ohmvp
