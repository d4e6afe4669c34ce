#pragma once

#include <functional>
#include <memory>
#include <systemc>
#include <tlm>
#include <vector>

#include "modules/host/settling_memory.h"
#include "modules/interconnect/channel_interleaver.h"
#include "modules/interconnect/electrical_channel.h"
#include "modules/interconnect/interleave_map.h"
#include "modules/interconnect/memory_channel.h"
#include "modules/memory/dram_device.h"
#include "modules/memory/hetero_memory_manager.h"
#include "modules/memory/memory_controller.h"
#include "modules/xpoint/xpoint_controller.h"
#include "platforms/platform_config.h"

namespace ohmvp {

// Builds the channels of a MemorySystemConfig: per channel a controller, a memory channel
// (electrical wires, or the controller's virtual channel of the optical channel: built through
// the MemoryChannel interface, nothing else depends on which) and the DRAM; in a hetero mode also
// an XPoint controller and, in front of both, a heterogeneous-memory manager that takes the
// channel's requests (paged mode: a manager paging between the DRAM and host memory over the host
// PCIe link, one link for all channels). The front is either one socket for a single initiator (an
// interleaver spreads its requests over the channels when there are several) or one socket per
// channel (the GPU's L2 slices, each bound to its own channel and sending channel-local addresses,
// see `map()`).
class MemorySystem : public sc_core::sc_module, public SettlingMemory {
 public:
  enum class Front { single_initiator, per_channel };

  MemorySystem(sc_core::sc_module_name name, const MemorySystemConfig& config, StatsRegistry& stats,
               VcdWriter* vcd, Front front = Front::single_initiator);

  // Front::single_initiator only.
  void bind(tlm::tlm_initiator_socket<>& initiator);
  // Front::per_channel only: the target socket of channel `channel` (its controller, or its
  // manager in a hetero mode).
  tlm::tlm_target_socket<>& channel_socket(uint32_t channel);
  uint32_t channel_count() const { return static_cast<uint32_t>(m_controllers.size()); }
  // Global address <-> (channel, channel-local address).
  const InterleaveMap& map() const { return m_map; }
  bool idle() const override;
  // Calls `done` once every channel is idle: at once if they are, else when the last one gets
  // there (posted writes still queued when the initiator finishes must reach DRAM first).
  void when_idle(std::function<void()> done) override;
  // DRAM column commands and XPoint media accesses so far: the memory getting work done.
  uint64_t device_operations() const;
  // Some manager waits on a transfer over the host link (paged mode).
  bool waiting_on_host() const;
  uint64_t capacity_bytes() const;
  uint32_t burst_bytes() const { return m_controllers.front()->mapper().burst_bytes(); }
  const std::vector<std::unique_ptr<MemoryChannel>>& channels() const { return m_channels; }
  // Registers each channel's `utilisation`: the share of `simulated_ns` its data path carried.
  void record_utilisation(double simulated_ns, StatsRegistry& stats) const;
  // Hetero modes only; empty otherwise.
  const std::vector<std::unique_ptr<HeteroMemoryManager>>& managers() const { return m_managers; }
  const std::vector<std::unique_ptr<XPointController>>& xpoints() const { return m_xpoints; }

 private:
  SC_HAS_PROCESS(MemorySystem);
  void add_manager(const MemorySystemConfig& config, const std::string& suffix,
                   StatsRegistry& stats, VcdWriter* vcd);
  void check_idle();
  tlm::tlm_target_socket<>& front_socket(uint32_t channel);
  // While someone waits for idle: look again when the controllers' last bursts are across, and
  // (the manager has no idle callback) every `m_idle_poll` in a hetero mode. Nothing ticks
  // otherwise.
  void poll_idle();

  Front m_front;
  InterleaveMap m_map;
  std::function<void()> m_when_idle;
  std::unique_ptr<ChannelInterleaver> m_interleaver;
  std::vector<std::unique_ptr<MemoryController>> m_controllers;
  std::vector<std::unique_ptr<MemoryChannel>> m_channels;
  std::vector<std::unique_ptr<DramDevice>> m_devices;
  std::vector<std::unique_ptr<XPointController>> m_xpoints;
  std::vector<std::unique_ptr<HeteroMemoryManager>> m_managers;
  std::unique_ptr<PcieLink> m_host_link;  // paged mode
  sc_core::sc_event m_idle_poll_event;
  sc_core::sc_time m_idle_poll;
};

}  // namespace ohmvp
