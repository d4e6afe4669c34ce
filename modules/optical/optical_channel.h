#pragma once

#include <memory>
#include <optional>
#include <systemc>
#include <tlm>

#include "modules/common/stats.h"
#include "modules/common/trace_signal.h"
#include "modules/interconnect/data_bus_schedule.h"
#include "modules/interconnect/memory_channel.h"
#include "modules/optical/dual_route_mode.h"
#include "modules/optical/link_ecc.h"
#include "modules/optical/optical_config.h"
#include "modules/optical/shared_light.h"
#include "modules/optical/transfer_timing.h"
#include "tlm_protocols/ddr_protocol.h"

namespace ohmvp {

// One memory controller's virtual channel of the optical memory channel (Ohm-GPU: static
// division of the waveguides' wavelengths, one virtual channel per controller, so virtual
// channels never conflict and each module keeps only its own state). It sits where an
// ElectricalChannel sits: ddr commands pass from the controller to the DRAM device at once, and
// each column command's burst holds the virtual channel for the controller's data window
// (data_start_ps..data_end_ps: the burst's serialisation over the channel's wavelengths in DRAM
// clocks). XPoint data is placed through data_bus(BusDevice::xpoint). Between neighbouring
// transfers of different devices the light stays dark for the MRR on/off tuning (the
// demultiplexer switches detectors). Data reaches its receiver arrival_latency_ps() after its
// transfer ends: time of flight over the waveguide plus the device SerDes (transfer_timing).
//
// The memory route (DRAM <-> XPoint, Ohm-WOM and Ohm-BW; `memory_route` null: none) shares the
// light according to the platform's DualRouteMode: `none`, it takes turns with the data route (a
// reverse write: the controller stops issuing meanwhile); `half_coupled` (Ohm-BW), it runs beside
// the data route at the full rate; `wom` (Ohm-WOM), it is WOM-coded (3 cells per 2 bits, 3/2 of the
// light time) and the data route, coded too while they overlap, loses a third of that time: a
// modelling choice that keeps the DRAM's burst instants, booking the data route's loss as a
// coding-loss block of 1/3 of the coded time in its first gap from the memory-route transfer's
// start (no detector owns it: BusUse::coding_loss).
class OpticalChannel : public sc_core::sc_module,
                       public DdrFwTransport,
                       public DdrBwTransport,
                       public MemoryChannel {
 public:
  tlm::tlm_target_socket<64, ddr_protocol_types> in;
  tlm::tlm_initiator_socket<64, ddr_protocol_types> out;

  OpticalChannel(sc_core::sc_module_name name, const OpticalChannelConfig& config,
                 VirtualChannelId vc, std::optional<DualRouteMode> memory_route,
                 StatsRegistry& stats, VcdWriter* vcd);
  ~OpticalChannel() override;

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
  DataBus* memory_route() override { return m_has_memory_route ? &m_memory_view : nullptr; }
  uint64_t busy_ps() const override { return m_busy_ps.value(); }
  const char* channel_name() const override { return name(); }

  VirtualChannelId virtual_channel() const { return m_vc; }
  // Propagation over the whole waveguide plus one SerDes crossing.
  uint64_t arrival_latency_ps() const { return m_latency_ps; }
  // Serialisation of `bytes` over this virtual channel's wavelengths.
  uint64_t serialisation_ps(uint32_t bytes) const;
  uint64_t detector_switches() const { return m_schedule.switches(); }
  // Bits modulated on the light so far (for the energy model).
  uint64_t light_bits() const { return m_light_bits.value(); }
  // Fault injection (null when off): flips, corrections and detections so far.
  const LinkEcc* link_ecc() const { return m_link_ecc.get(); }

 private:
  // The virtual channel as the transfers of one device see it.
  class DeviceView : public DataBus {
   public:
    DeviceView(OpticalChannel& channel, BusDevice device) : m_channel(channel), m_device(device) {}
    uint64_t earliest_free(uint64_t from_ps, uint64_t duration_ps) const override {
      return m_channel.m_schedule.earliest_free(from_ps, duration_ps, bus_use_of(m_device));
    }
    void occupy(uint64_t start_ps, uint64_t end_ps, uint32_t bytes) override {
      m_channel.place(start_ps, end_ps, bytes, m_device);
    }
    uint64_t arrival_latency_ps() const override { return m_channel.m_latency_ps; }
    void carry(uint8_t* data, uint32_t bytes) override {
      m_channel.carry_burst(data, bytes, false);
    }

   private:
    OpticalChannel& m_channel;
    BusDevice m_device;
  };

  // The memory route as the DRAM and XPoint ends of a swap or reverse write see it.
  class MemoryRouteView : public DataBus {
   public:
    explicit MemoryRouteView(OpticalChannel& channel) : m_channel(channel) {}
    uint64_t earliest_free(uint64_t from_ps, uint64_t duration_ps) const override;
    void occupy(uint64_t start_ps, uint64_t end_ps, uint32_t bytes) override {
      m_channel.place_memory_route(start_ps, end_ps, bytes);
    }
    uint64_t arrival_latency_ps() const override { return m_channel.m_latency_ps; }
    uint64_t occupied_ps(uint64_t duration_ps) const override;

   private:
    OpticalChannel& m_channel;
  };

  void place(uint64_t start_ps, uint64_t end_ps, uint32_t bytes, BusDevice device);
  // A memory-route transfer of nominal [start, end) (the DRAM's burst window).
  void place_memory_route(uint64_t start_ps, uint64_t end_ps, uint32_t bytes);
  // A burst's bytes cross the light: with fault injection, flips and the link's SEC-DED.
  void cross(uint8_t* data, uint32_t bytes);
  // A transfer's bytes on the light (a DRAM burst, or XPoint data over DDR-T): a memory-route
  // burst coded with the data route's latest transfer where they share it (SharedLight), then
  // across (cross).
  void carry_burst(uint8_t* data, uint32_t bytes, bool memory_route);
  void reserve(DataBusSchedule& schedule, uint64_t start_ps, uint64_t end_ps, BusUse use,
               const char* what);
  // `value` over [start, end) of a transfer placed in `schedule`, kept on into a transfer (of
  // `use`, when given) that starts at its end.
  void trace(TraceSignal& signal, const DataBusSchedule& schedule, uint64_t start_ps,
             uint64_t end_ps, std::optional<BusUse> use, uint64_t value = 1);

  OpticalChannelConfig m_config;
  VirtualChannelId m_vc;
  uint64_t m_latency_ps;
  DataBusSchedule m_schedule;
  DualRouteMode m_dual_routes;
  bool m_has_memory_route;
  DataBusSchedule m_memory_schedule;  // half_coupled and wom: the memory route's own
  DeviceView m_dram_view;
  DeviceView m_xpoint_view;
  MemoryRouteView m_memory_view;
  Counter& m_busy_ps;
  Counter& m_bytes;
  Counter& m_bursts;
  Counter& m_dram_bursts;
  Counter& m_xpoint_bursts;
  Counter& m_light_bits;
  Counter& m_switches;
  Counter& m_tuning_ps;
  Counter& m_memory_route_ps;
  Counter& m_memory_route_bytes;
  Counter& m_memory_route_bursts;
  Counter& m_wom_ps;
  Counter& m_wom_data_loss_ps;
  // memory.optical.fault_injection: DRAM bursts cross with flipped bits and the link's SEC-DED.
  std::unique_ptr<LinkEcc> m_link_ecc;
  struct FaultStats;
  std::unique_ptr<FaultStats> m_fault_stats;
  // Ohm-WOM and Ohm-BW: the memory route's bits on the light the data route's share.
  std::unique_ptr<SharedLight> m_shared_light;
  struct SharedLightStats;
  std::unique_ptr<SharedLightStats> m_shared_stats;
  TraceSignal m_busy_trace;
  TraceSignal m_memory_route_trace;
  // The XPoint device's rings (values of MrrCoupling): its conventional array, fully coupled
  // while it sends or receives on the data route, and its half-coupled array on the memory route.
  TraceSignal m_xpoint_array_trace;
  TraceSignal m_xpoint_half_trace;
};

}  // namespace ohmvp
