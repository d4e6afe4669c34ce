#pragma once

#include <functional>
#include <memory>
#include <systemc>
#include <tlm>
#include <vector>

#include "modules/interconnect/channel_interleaver.h"
#include "modules/interconnect/electrical_channel.h"
#include "modules/memory/dram_device.h"
#include "modules/memory/memory_controller.h"
#include "platforms/platform_config.h"

namespace ohmvp {

// Builds the channels of a MemorySystemConfig: interleaver (when there is more than one
// channel), then per channel a controller, an electrical channel and the DRAM.
class MemorySystem : public sc_core::sc_module {
 public:
  MemorySystem(sc_core::sc_module_name name, const MemorySystemConfig& config, StatsRegistry& stats,
               VcdWriter* vcd);

  void bind(tlm::tlm_initiator_socket<>& initiator);
  bool idle() const;
  // Calls `done` once every channel is idle: at once if they are, else when the last one gets
  // there (posted writes still queued when the initiator finishes must reach DRAM first).
  void when_idle(std::function<void()> done);
  uint64_t column_commands() const;
  uint64_t capacity_bytes() const;
  uint32_t burst_bytes() const { return m_controllers.front()->mapper().burst_bytes(); }
  const std::vector<std::unique_ptr<ElectricalChannel>>& channels() const { return m_channels; }

 private:
  void check_idle();

  std::function<void()> m_when_idle;
  std::unique_ptr<ChannelInterleaver> m_interleaver;
  std::vector<std::unique_ptr<MemoryController>> m_controllers;
  std::vector<std::unique_ptr<ElectricalChannel>> m_channels;
  std::vector<std::unique_ptr<DramDevice>> m_devices;
};

}  // namespace ohmvp
