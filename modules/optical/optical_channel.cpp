#include "modules/optical/optical_channel.h"

#include <memory>
#include <string>

#include "modules/common/errors.h"
#include "modules/common/sim_time.h"
#include "modules/optical/mrr_state.h"
#include "modules/optical/receiver_model.h"

namespace ohmvp {

namespace {

// Brings `counter` up to `total`, the running count a plain-C++ model keeps (LinkEcc,
// SharedLight).
void count_to(Counter& counter, uint64_t total) {
  counter.inc(total - counter.value());
}

uint64_t fixed_latency_ps(const OpticalChannelConfig& config, VirtualChannelId vc) {
  TransferShape shape;
  shape.vc = vc;
  const TransferTiming t = transfer_timing(config, shape);
  return t.propagation_ps + t.serdes_ps;
}

}  // namespace

struct OpticalChannel::FaultStats {
  Counter& bits_flipped;
  Counter& corrected;
  Counter& uncorrectable;
  FaultStats(StatsRegistry& r, const std::string& g)
      : bits_flipped(r.counter(g, "fault_bits_flipped", "bits",
                               "bits flipped by fault injection (data and ECC words)")),
        corrected(r.counter(g, "ecc_corrected", "bursts",
                            "64-byte chunks whose one flipped bit the link's SEC-DED corrected")),
        uncorrectable(r.counter(g, "ecc_uncorrectable", "bursts",
                                "64-byte chunks with two or more flips: detected (or, beyond "
                                "two, perhaps not), delivered as they arrived")) {}
};

// Counted on the channel's statistics from SharedLight's totals.
struct OpticalChannel::SharedLightStats {
  DualRouteMode mode;
  Counter* wom_kept = nullptr;
  Counter* wom_rewritten = nullptr;
  Counter* bit_errors = nullptr;
  Counter* snarf_errors = nullptr;

  SharedLightStats(StatsRegistry& r, const std::string& g, DualRouteMode mode) : mode(mode) {
    if (mode == DualRouteMode::wom) {
      wom_kept = &r.counter(g, "wom_symbols_kept", "symbols",
                            "memory-route symbols whose first-generation cells already held "
                            "their data: the second write left them");
      wom_rewritten = &r.counter(g, "wom_symbols_rewritten", "symbols",
                                 "memory-route symbols written as second-generation words");
    } else {
      bit_errors = &r.counter(g, "memory_route_bit_errors", "bits",
                              "memory-route bits the receiver read wrong off the shared light");
      snarf_errors = &r.counter(g, "data_route_tap_bit_errors", "bits",
                                "data-route bits the memory route's half-coupled tap read wrong");
    }
  }
  void count(const SharedLight& light) {
    if (mode == DualRouteMode::wom) {
      count_to(*wom_kept, light.wom_symbols_kept());
      count_to(*wom_rewritten, light.wom_symbols_rewritten());
    } else {
      count_to(*bit_errors, light.bit_errors());
      count_to(*snarf_errors, light.snarf_bit_errors());
    }
  }
};

OpticalChannel::OpticalChannel(sc_core::sc_module_name name, const OpticalChannelConfig& config,
                               VirtualChannelId vc, std::optional<DualRouteMode> memory_route,
                               StatsRegistry& stats, VcdWriter* vcd)
    : sc_module(name),
      in("in"),
      out("out"),
      m_config(config),
      m_vc(vc),
      m_latency_ps(fixed_latency_ps(config, vc)),
      m_schedule(config.mrr.on_off_ps),
      m_dual_routes(memory_route.value_or(DualRouteMode::none)),
      m_has_memory_route(memory_route.has_value()),
      m_memory_schedule(config.mrr.on_off_ps),
      m_dram_view(*this, BusDevice::dram),
      m_xpoint_view(*this, BusDevice::xpoint),
      m_memory_view(*this),
      m_busy_ps(stats.counter(this->name(), "data_busy_ps", "ps",
                              "time the virtual channel's light carries data")),
      m_bytes(stats.counter(this->name(), "data_bytes", "bytes", "bytes carried")),
      m_bursts(stats.counter(this->name(), "bursts", "bursts", "data transfers carried")),
      m_dram_bursts(stats.counter(this->name(), "dram_bursts", "bursts",
                                  "transfers between the controller and the DRAM")),
      m_xpoint_bursts(stats.counter(this->name(), "xpoint_bursts", "bursts",
                                    "transfers between the controller and the XPoint device")),
      m_light_bits(
          stats.counter(this->name(), "light_bits", "bits", "bits modulated on the light")),
      m_switches(stats.counter(this->name(), "detector_switches", "switches",
                               "neighbouring transfers of different devices (detector switched)")),
      m_tuning_ps(stats.counter(this->name(), "tuning_ps", "ps",
                                "dark light while the MRRs retune for a detector switch")),
      m_memory_route_ps(stats.counter(this->name(), "memory_route_busy_ps", "ps",
                                      "light time of DRAM <-> XPoint transfers (memory route)")),
      m_memory_route_bytes(stats.counter(this->name(), "memory_route_bytes", "bytes",
                                         "bytes carried on the memory route")),
      m_memory_route_bursts(stats.counter(this->name(), "memory_route_bursts", "bursts",
                                          "transfers on the memory route")),
      m_wom_ps(stats.counter(this->name(), "wom_busy_ps", "ps",
                             "light time of WOM-coded memory-route transfers")),
      m_wom_data_loss_ps(stats.counter(this->name(), "wom_data_loss_ps", "ps",
                                       "data-route time lost to WOM coding while the routes "
                                       "share the light")) {
  in.bind(*this);
  out.bind(*this);
  if (config.fault_injection.ber > 0.0) {
    // One stream per virtual channel, so that each channel's flips do not depend on the others'.
    m_link_ecc = std::make_unique<LinkEcc>(config.fault_injection.ber,
                                           stream_seed(config.fault_injection.seed, this->name()));
    m_fault_stats = std::make_unique<FaultStats>(stats, this->name());
  }
  if (m_has_memory_route && m_dual_routes != DualRouteMode::none) {
    m_shared_light = std::make_unique<SharedLight>(
        m_dual_routes, config.loss.half_coupling_ratio, extinction_share(config.receiver));
    m_shared_stats = std::make_unique<SharedLightStats>(stats, this->name(), m_dual_routes);
  }
  if (index_of(vc) >= config.virtual_channels) {
    throw std::logic_error(std::string(this->name()) + ": virtual channel " +
                           std::to_string(index_of(vc)) + " of " +
                           std::to_string(config.virtual_channels));
  }
  stats.scalar(this->name(), "virtual_channel", "", "index of the virtual channel")
      .set(index_of(vc));
  stats.scalar(this->name(), "lanes", "wavelengths", "wavelengths x waveguides of the channel")
      .set(config.lanes(vc));
  stats.scalar(this->name(), "arrival_latency_ps", "ps", "time of flight plus SerDes")
      .set(static_cast<double>(m_latency_ps));
  stats
      .scalar(this->name(), "dual_routes", "",
              "memory route: -1 none, 0 taking turns, 1 WOM, 2 half-coupled")
      .set(m_has_memory_route ? static_cast<double>(m_dual_routes) : -1.0);
  m_busy_trace.attach(vcd, this->name(), "vc_busy", 1);
  m_xpoint_array_trace.attach(vcd, this->name(), "xpoint_mrr", 2);
  if (m_has_memory_route) {
    m_memory_route_trace.attach(vcd, this->name(), "memory_route_busy", 1);
    m_xpoint_half_trace.attach(vcd, this->name(), "xpoint_half_mrr", 2);
  }
}

OpticalChannel::~OpticalChannel() = default;

uint64_t OpticalChannel::serialisation_ps(uint32_t bytes) const {
  TransferShape shape;
  shape.vc = m_vc;
  shape.data_bits = uint64_t{bytes} * 8;
  return transfer_timing(m_config, shape).serialisation_ps;
}

tlm::tlm_sync_enum OpticalChannel::nb_transport_fw(tlm::tlm_generic_payload& payload,
                                                   tlm::tlm_phase& phase, sc_core::sc_time& delay) {
  DdrCommand command;
  const bool column = from_phase(phase, command) && is_column(command);
  if (column) {
    const auto* burst = payload.get_extension<DdrExtension>();
    if (burst->memory_route) {
      place_memory_route(burst->data_start_ps, burst->data_end_ps, payload.get_data_length());
    } else {
      place(burst->data_start_ps, burst->data_end_ps, payload.get_data_length(), BusDevice::dram);
    }
    if (is_write(command))
      carry_burst(payload.get_data_ptr(), payload.get_data_length(), burst->memory_route);
  }
  const tlm::tlm_sync_enum status = out->nb_transport_fw(payload, phase, delay);
  // Read data crosses once the device has put it into the payload.
  if (column && is_read(command)) {
    carry_burst(payload.get_data_ptr(), payload.get_data_length(),
                payload.get_extension<DdrExtension>()->memory_route);
  }
  return status;
}

void OpticalChannel::carry_burst(uint8_t* data, uint32_t bytes, bool memory_route) {
  if (m_shared_light) {
    if (memory_route) {
      m_shared_light->carry_memory_route(data, bytes);
      m_shared_stats->count(*m_shared_light);
    } else {
      m_shared_light->data_route_burst(data, bytes);
    }
  }
  cross(data, bytes);
}

void OpticalChannel::cross(uint8_t* data, uint32_t bytes) {
  if (!m_link_ecc) return;
  m_link_ecc->cross(data, bytes);
  count_to(m_fault_stats->bits_flipped, m_link_ecc->bits_flipped());
  count_to(m_fault_stats->corrected, m_link_ecc->corrected());
  count_to(m_fault_stats->uncorrectable, m_link_ecc->uncorrectable());
}

void OpticalChannel::reserve(DataBusSchedule& schedule, uint64_t start_ps, uint64_t end_ps,
                             BusUse use, const char* what) {
  const uint64_t new_switches =
      schedule.place(start_ps, end_ps, use, kernel_now_ps(), name(), what);
  m_switches.inc(new_switches);
  m_tuning_ps.inc(new_switches * schedule.switch_ps());
}

void OpticalChannel::place(uint64_t start_ps, uint64_t end_ps, uint32_t bytes, BusDevice device) {
  const BusUse use = bus_use_of(device);
  reserve(m_schedule, start_ps, end_ps, use, device == BusDevice::dram ? "DRAM" : "XPoint");
  m_busy_ps.inc(end_ps - start_ps);
  m_bytes.inc(bytes);
  m_bursts.inc();
  (device == BusDevice::dram ? m_dram_bursts : m_xpoint_bursts).inc();
  m_light_bits.inc(ohmvp::light_bits(m_config, uint64_t{bytes} * 8, LightCoding::nrz));
  trace(m_busy_trace, m_schedule, start_ps, end_ps, std::nullopt);
  if (device == BusDevice::xpoint) {
    trace(m_xpoint_array_trace, m_schedule, start_ps, end_ps, use,
          static_cast<uint64_t>(MrrCoupling::full));
  }
}

void OpticalChannel::place_memory_route(uint64_t start_ps, uint64_t end_ps, uint32_t bytes) {
  if (!m_has_memory_route) {
    throw SimulationError(std::string(name()) +
                          ": a memory-route transfer on a channel without a memory route");
  }
  const uint64_t light_end = start_ps + m_memory_view.occupied_ps(end_ps - start_ps);
  LightCoding coding = LightCoding::nrz;
  if (m_dual_routes == DualRouteMode::none) {
    reserve(m_schedule, start_ps, light_end, BusUse::memory_route, "memory-route");
    m_busy_ps.inc(light_end - start_ps);
    trace(m_busy_trace, m_schedule, start_ps, light_end, std::nullopt);
  } else {
    reserve(m_memory_schedule, start_ps, light_end, BusUse::memory_route, "memory-route");
    if (m_dual_routes == DualRouteMode::wom) {
      coding = LightCoding::wom;
      const uint64_t loss = (light_end - start_ps + 2) / 3;
      const uint64_t at = m_schedule.earliest_free(start_ps, loss, BusUse::coding_loss);
      reserve(m_schedule, at, at + loss, BusUse::coding_loss, "WOM coding-loss");
      m_busy_ps.inc(loss);
      m_wom_ps.inc(light_end - start_ps);
      m_wom_data_loss_ps.inc(loss);
      trace(m_busy_trace, m_schedule, at, at + loss, std::nullopt);
    }
  }
  m_memory_route_ps.inc(light_end - start_ps);
  m_memory_route_bytes.inc(bytes);
  m_memory_route_bursts.inc();
  m_light_bits.inc(ohmvp::light_bits(m_config, uint64_t{bytes} * 8, coding));
  const DataBusSchedule& route =
      m_dual_routes == DualRouteMode::none ? m_schedule : m_memory_schedule;
  trace(m_memory_route_trace, route, start_ps, light_end, BusUse::memory_route);
  trace(m_xpoint_half_trace, route, start_ps, light_end, BusUse::memory_route,
        static_cast<uint64_t>(MrrCoupling::half));
}

uint64_t OpticalChannel::MemoryRouteView::earliest_free(uint64_t from_ps,
                                                        uint64_t duration_ps) const {
  const uint64_t light = occupied_ps(duration_ps);
  if (m_channel.m_dual_routes == DualRouteMode::none) {
    return m_channel.m_schedule.earliest_free(from_ps, light, BusUse::memory_route);
  }
  return m_channel.m_memory_schedule.earliest_free(from_ps, light, BusUse::memory_route);
}

uint64_t OpticalChannel::MemoryRouteView::occupied_ps(uint64_t duration_ps) const {
  if (m_channel.m_dual_routes != DualRouteMode::wom) return duration_ps;
  return (duration_ps * 3 + 1) / 2;
}

void OpticalChannel::trace(TraceSignal& signal, const DataBusSchedule& schedule, uint64_t start_ps,
                           uint64_t end_ps, std::optional<BusUse> use, uint64_t value) {
  if (!signal.enabled()) return;
  // Transfers may be placed before ones already traced, so changes come out of order; a
  // transfer that ends where the next traced one begins keeps the value.
  signal.record(value, start_ps);
  if (!schedule.starts_at(end_ps, use)) signal.record(0, end_ps);
}

void OpticalChannel::b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) {
  out->b_transport(payload, delay);
}

unsigned int OpticalChannel::transport_dbg(tlm::tlm_generic_payload& payload) {
  return out->transport_dbg(payload);
}

tlm::tlm_sync_enum OpticalChannel::nb_transport_bw(tlm::tlm_generic_payload& payload,
                                                   tlm::tlm_phase& phase, sc_core::sc_time& delay) {
  return in->nb_transport_bw(payload, phase, delay);
}

}  // namespace ohmvp
