#include "platforms/memory_system.h"

#include "modules/common/sim_time.h"
#include "modules/optical/optical_channel.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ohmvp {

namespace {

// How often a hetero memory system looks whether it has gone idle while a run waits for that
// (a modelling choice: the run's end is known to 1 ns).
constexpr double idle_poll_ns = 1.0;

std::unique_ptr<MemoryChannel> make_channel(const MemorySystemConfig& config, uint32_t index,
                                            StatsRegistry& stats, VcdWriter* vcd) {
  const std::string name = "channel" + std::to_string(index);
  if (config.is_optical()) {
    return std::make_unique<OpticalChannel>(name.c_str(), config.optical, VirtualChannelId{index},
                                            config.memory_route(), stats, vcd);
  }
  // The XPoint device shares the wires as another rank: the DRAM timing's rank switch.
  const DramTiming timing = config.timing_cycles();
  return std::make_unique<ElectricalChannel>(name.c_str(), config.channel, timing.ps(timing.RTRS),
                                             stats, vcd);
}

}  // namespace

MemorySystem::MemorySystem(sc_core::sc_module_name name, const MemorySystemConfig& config,
                           StatsRegistry& stats, VcdWriter* vcd, Front front)
    : sc_module(name),
      m_front(front),
      m_map{config.channels, config.interleave_bytes},
      m_idle_poll(idle_poll_ns, sc_core::SC_NS) {
  const DramTiming timing = config.timing_cycles();
  const uint32_t bus_bytes = config.bus_bytes();
  if (front == Front::single_initiator && config.channels > 1) {
    m_interleaver = std::make_unique<ChannelInterleaver>("interleaver", config.channels,
                                                         config.interleave_bytes);
  }
  for (uint32_t c = 0; c < config.channels; ++c) {
    const std::string suffix = std::to_string(c);
    m_controllers.push_back(std::make_unique<MemoryController>(("mc" + suffix).c_str(),
                                                               config.controller, config.geometry,
                                                               timing, bus_bytes, stats, vcd));
    m_channels.push_back(make_channel(config, c, stats, vcd));
    m_devices.push_back(std::make_unique<DramDevice>(("dram" + suffix).c_str(), config.geometry,
                                                     timing, bus_bytes, stats));
    m_controllers.back()->on_idle([this] { check_idle(); });
    MemoryChannel& channel = *m_channels.back();
    m_controllers.back()->set_data_arrival_latency(
        channel.data_bus(BusDevice::dram).arrival_latency_ps());
    m_controllers.back()->out.bind(channel.ddr_in());
    channel.ddr_out().bind(m_devices.back()->in);
    if (config.is_hetero()) add_manager(config, suffix, stats, vcd);
    if (m_interleaver) m_interleaver->out[c]->bind(front_socket(c));
  }
  SC_METHOD(poll_idle);
  sensitive << m_idle_poll_event;
  dont_initialize();
}

void MemorySystem::add_manager(const MemorySystemConfig& config, const std::string& suffix,
                               StatsRegistry& stats, VcdWriter* vcd) {
  HeteroMemoryManager::FarMemory far;
  if (config.is_paged()) {
    if (!m_host_link) m_host_link = std::make_unique<PcieLink>(config.host_link);
    far.bytes = config.far_bytes_per_channel();
    far.host_link = m_host_link.get();
  } else {
    m_xpoints.push_back(
        std::make_unique<XPointController>(("xpc" + suffix).c_str(), config.xpoint, stats, vcd));
    far.bytes = m_xpoints.back()->capacity_bytes();
    far.write_credits = m_xpoints.back()->write_credits();
  }
  m_managers.push_back(std::make_unique<HeteroMemoryManager>(
      ("hmm" + suffix).c_str(), config.hetero, m_controllers.back()->capacity_bytes(), far,
      m_channels.back()->data_bus(BusDevice::xpoint), stats, vcd));
  m_managers.back()->dram().bind(m_controllers.back()->in);
  if (!config.is_paged()) {
    m_controllers.back()->share_data_bus(m_channels.back()->data_bus(BusDevice::dram));
    if (const DataBus* route = m_channels.back()->memory_route()) {
      m_controllers.back()->share_memory_route(*route);
    }
    m_managers.back()->xpoint().bind(m_xpoints.back()->in);
  }
}

tlm::tlm_target_socket<>& MemorySystem::front_socket(uint32_t channel) {
  if (!m_managers.empty()) return m_managers[channel]->in;
  return m_controllers[channel]->in;
}

void MemorySystem::bind(tlm::tlm_initiator_socket<>& initiator) {
  if (m_front != Front::single_initiator) {
    throw std::logic_error(std::string(name()) + ": bind() on a per-channel memory system");
  }
  if (m_interleaver) {
    initiator.bind(m_interleaver->in);
  } else {
    initiator.bind(front_socket(0));
  }
}

tlm::tlm_target_socket<>& MemorySystem::channel_socket(uint32_t channel) {
  if (m_front != Front::per_channel || channel >= m_controllers.size()) {
    throw std::logic_error(std::string(name()) + ": no per-channel socket " +
                           std::to_string(channel));
  }
  return front_socket(channel);
}

uint64_t MemorySystem::capacity_bytes() const {
  const uint64_t per_channel = m_managers.empty() ? m_controllers.front()->capacity_bytes()
                                                  : m_managers.front()->capacity_bytes();
  return per_channel * m_controllers.size();
}

}  // namespace ohmvp

namespace ohmvp {

bool MemorySystem::idle() const {
  return std::all_of(m_controllers.begin(), m_controllers.end(),
                     [](const auto& controller) { return controller->idle(); }) &&
         std::all_of(m_managers.begin(), m_managers.end(),
                     [](const auto& manager) { return manager->idle(); }) &&
         std::all_of(m_xpoints.begin(), m_xpoints.end(),
                     [](const auto& xpoint) { return xpoint->idle(); });
}

void MemorySystem::when_idle(std::function<void()> done) {
  m_when_idle = std::move(done);
  check_idle();
}

void MemorySystem::check_idle() {
  if (!m_when_idle) return;
  if (!idle()) {
    // A controller's last bursts may still be crossing: look again when they are across.
    const uint64_t now = kernel_now_ps();
    uint64_t across = now;
    for (const auto& controller : m_controllers)
      across = std::max(across, controller->data_end_ps());
    if (across > now) m_idle_poll_event.notify(kernel_delay_of_ps(across - now));
    if (!m_managers.empty()) m_idle_poll_event.notify(m_idle_poll);
    return;
  }
  auto done = std::move(m_when_idle);
  m_when_idle = nullptr;
  done();
}

void MemorySystem::poll_idle() {
  check_idle();
}

bool MemorySystem::waiting_on_host() const {
  return std::any_of(m_managers.begin(), m_managers.end(),
                     [](const auto& manager) { return manager->waiting_on_host(); });
}

uint64_t MemorySystem::device_operations() const {
  uint64_t sum = 0;
  for (const auto& controller : m_controllers) sum += controller->column_commands();
  for (const auto& xpoint : m_xpoints) sum += xpoint->media_operations();
  return sum;
}

void MemorySystem::record_utilisation(double simulated_ns, StatsRegistry& stats) const {
  for (const auto& channel : m_channels) {
    const double busy_ns = double(channel->busy_ps()) / 1000.0;
    stats
        .scalar(channel->channel_name(), "utilisation", "fraction",
                "share of time the data wires carry")
        .set(simulated_ns > 0 ? busy_ns / simulated_ns : 0.0);
  }
}

}  // namespace ohmvp
