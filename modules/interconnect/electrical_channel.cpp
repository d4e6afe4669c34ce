#include "modules/interconnect/electrical_channel.h"

#include "modules/common/config_reader.h"
#include "modules/common/sim_time.h"

namespace ohmvp {

void parse(const ConfigReader& reader, ElectricalChannelConfig& c) {
  reader.get("lanes", c.lanes, 8u, 4096u);
  if (c.lanes % 8 != 0) reader.fail("lanes", "expected a multiple of 8");
  reader.get("rate_gbps", c.rate_gbps, 0.01, 1000.0);
  reader.finish();
}

ElectricalChannel::ElectricalChannel(sc_core::sc_module_name name,
                                     const ElectricalChannelConfig& config,
                                     uint64_t device_switch_ps, StatsRegistry& stats,
                                     VcdWriter* vcd)
    : sc_module(name),
      in("in"),
      out("out"),
      m_config(config),
      m_schedule(device_switch_ps),
      m_dram_view(*this, BusDevice::dram),
      m_xpoint_view(*this, BusDevice::xpoint),
      m_busy_ps(stats.counter(this->name(), "data_busy_ps", "ps", "time the data wires carry")),
      m_bytes(stats.counter(this->name(), "data_bytes", "bytes", "bytes carried")),
      m_bursts(stats.counter(this->name(), "bursts", "bursts", "data bursts carried")),
      m_switches(stats.counter(this->name(), "device_switches", "switches",
                               "neighbouring transfers of different devices (wires idle for "
                               "tRTRS between)")) {
  in.bind(*this);
  out.bind(*this);
  m_busy_trace.attach(vcd, this->name(), "data_bus_busy", 1);
}

tlm::tlm_sync_enum ElectricalChannel::nb_transport_fw(tlm::tlm_generic_payload& payload,
                                                      tlm::tlm_phase& phase,
                                                      sc_core::sc_time& delay) {
  DdrCommand command;
  if (from_phase(phase, command) && is_column(command)) {
    const auto* burst = payload.get_extension<DdrExtension>();
    place(burst->data_start_ps, burst->data_end_ps, payload.get_data_length(), BusUse::dram);
  }
  return out->nb_transport_fw(payload, phase, delay);
}

void ElectricalChannel::place(uint64_t start_ps, uint64_t end_ps, uint32_t bytes, BusUse use) {
  m_switches.inc(m_schedule.place(start_ps, end_ps, use, kernel_now_ps(), name(),
                                  use == BusUse::dram ? "DRAM" : "XPoint"));
  m_busy_ps.inc(end_ps - start_ps);
  m_bytes.inc(bytes);
  m_bursts.inc();
  if (!m_busy_trace.enabled()) return;
  // Transfers may be placed before ones already traced, so changes come out of order; a
  // transfer that ends where the next begins leaves the wires busy.
  m_busy_trace.record(1, start_ps);
  if (!m_schedule.starts_at(end_ps)) m_busy_trace.record(0, end_ps);
}

void ElectricalChannel::b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) {
  out->b_transport(payload, delay);
}

unsigned int ElectricalChannel::transport_dbg(tlm::tlm_generic_payload& payload) {
  return out->transport_dbg(payload);
}

tlm::tlm_sync_enum ElectricalChannel::nb_transport_bw(tlm::tlm_generic_payload& payload,
                                                      tlm::tlm_phase& phase,
                                                      sc_core::sc_time& delay) {
  return in->nb_transport_bw(payload, phase, delay);
}

}  // namespace ohmvp
