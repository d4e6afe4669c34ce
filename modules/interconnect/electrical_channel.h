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
// device, placed through its own DataBus view between the DRAM bursts: both devices see the same
// wires, and data is at the receiver when its burst ends. The XPoint device is another rank on
// the bus, so between a DRAM burst and XPoint data the wires stay idle for `device_switch_ps`
// (the DRAM timing's tRTRS, given by the platform).
class ElectricalChannel : public sc_core::sc_module,
                          public DdrFwTransport,
                          public DdrBwTransport,
                          public MemoryChannel {
 public:
  tlm::tlm_target_socket<64, ddr_protocol_types> in;
  tlm::tlm_initiator_socket<64, ddr_protocol_types> out;

  ElectricalChannel(sc_core::sc_module_name name, const ElectricalChannelConfig& config,
                    uint64_t device_switch_ps, StatsRegistry& stats, VcdWriter* vcd);

  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& payload, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override;
  void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) override;
  bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) override { return false; }
  unsigned int transport_dbg(tlm::tlm_generic_payload& payload) override;

  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& payload, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override;
  void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}

  // MemoryChannel
  tlm::tlm_target_socket<64, ddr_protocol_types>& ddr_in() override { return in; }
  tlm::tlm_initiator_socket<64, ddr_protocol_types>& ddr_out() override { return out; }
  DataBus& data_bus(BusDevice device) override {
    return device == BusDevice::dram ? m_dram_view : m_xpoint_view;
  }
  uint64_t busy_ps() const override { return m_busy_ps.value(); }
  const char* channel_name() const override { return name(); }

 private:
  // The wires as the transfers of one device see them.
  class DeviceView : public DataBus {
   public:
    DeviceView(ElectricalChannel& channel, BusDevice device)
        : m_channel(channel), m_use(bus_use_of(device)) {}
    uint64_t earliest_free(uint64_t from_ps, uint64_t duration_ps) const override {
      return m_channel.m_schedule.earliest_free(from_ps, duration_ps, m_use);
    }
    void occupy(uint64_t start_ps, uint64_t end_ps, uint32_t bytes) override {
      m_channel.place(start_ps, end_ps, bytes, m_use);
    }

   private:
    ElectricalChannel& m_channel;
    BusUse m_use;
  };

  void place(uint64_t start_ps, uint64_t end_ps, uint32_t bytes, BusUse use);

  ElectricalChannelConfig m_config;
  DataBusSchedule m_schedule;
  DeviceView m_dram_view;
  DeviceView m_xpoint_view;
  Counter& m_busy_ps;
  Counter& m_bytes;
  Counter& m_bursts;
  Counter& m_switches;
  TraceSignal m_busy_trace;
};

}  // namespace ohmvp
