#include "platforms/memory_system.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ohmvp {

MemorySystem::MemorySystem(sc_core::sc_module_name name, const MemorySystemConfig& config,
                           StatsRegistry& stats, VcdWriter* vcd, Front front)
    : sc_module(name), m_front(front), m_map{config.channels, config.interleave_bytes} {
  const DramTiming timing = config.timing_cycles();
  const uint32_t bus_bytes = config.channel.bus_bytes();
  if (front == Front::single_initiator && config.channels > 1) {
    m_interleaver = std::make_unique<ChannelInterleaver>("interleaver", config.channels,
                                                         config.interleave_bytes);
  }
  for (uint32_t c = 0; c < config.channels; ++c) {
    const std::string suffix = std::to_string(c);
    m_controllers.push_back(std::make_unique<MemoryController>(("mc" + suffix).c_str(),
                                                               config.controller, config.geometry,
                                                               timing, bus_bytes, stats, vcd));
    m_channels.push_back(std::make_unique<ElectricalChannel>(("channel" + suffix).c_str(),
                                                             config.channel, stats, vcd));
    m_devices.push_back(std::make_unique<DramDevice>(("dram" + suffix).c_str(), config.geometry,
                                                     timing, bus_bytes, stats));
    m_controllers.back()->on_idle([this] { check_idle(); });
    m_controllers.back()->out.bind(m_channels.back()->in);
    m_channels.back()->out.bind(m_devices.back()->in);
    if (m_interleaver) m_interleaver->out[c]->bind(m_controllers.back()->in);
  }
}

void MemorySystem::bind(tlm::tlm_initiator_socket<>& initiator) {
  if (m_front != Front::single_initiator) {
    throw std::logic_error(std::string(name()) + ": bind() on a per-channel memory system");
  }
  if (m_interleaver) {
    initiator.bind(m_interleaver->in);
  } else {
    initiator.bind(m_controllers.front()->in);
  }
}

tlm::tlm_target_socket<>& MemorySystem::channel_socket(uint32_t channel) {
  if (m_front != Front::per_channel || channel >= m_controllers.size()) {
    throw std::logic_error(std::string(name()) + ": no per-channel socket " +
                           std::to_string(channel));
  }
  return m_controllers[channel]->in;
}

uint64_t MemorySystem::capacity_bytes() const {
  return m_controllers.front()->capacity_bytes() * m_controllers.size();
}

}  // namespace ohmvp

namespace ohmvp {

bool MemorySystem::idle() const {
  return std::all_of(m_controllers.begin(), m_controllers.end(),
                     [](const auto& controller) { return controller->idle(); });
}

void MemorySystem::when_idle(std::function<void()> done) {
  m_when_idle = std::move(done);
  check_idle();
}

void MemorySystem::check_idle() {
  if (!m_when_idle || !idle()) return;
  auto done = std::move(m_when_idle);
  m_when_idle = nullptr;
  done();
}

uint64_t MemorySystem::column_commands() const {
  uint64_t sum = 0;
  for (const auto& controller : m_controllers) sum += controller->column_commands();
  return sum;
}

}  // namespace ohmvp
