#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <systemc>

#include <catch2/catch.hpp>

#include "modules/common/stats.h"
#include "modules/memory/dram_device.h"
#include "modules/memory/hetero_memory_manager.h"
#include "modules/memory/memory_controller.h"
#include "modules/optical/optical_channel.h"
#include "modules/xpoint/xpoint_controller.h"
#include "tests/bench/hetero_chain.h"
#include "tests/bench/stimulus_initiator.h"

namespace ohmvp::bench {

// Flight over the default 5 cm waveguide at group index 4.2, plus the SerDes.
constexpr uint64_t optical_latency_ps = 701 + 1000;

// The virtual channel of the optical benches: 16 wavelengths at 8 Gb/s, so a 64-byte burst takes
// the 4 ns of hetero_chain.h's DRAM burst, with the default 5 cm waveguide (701 ps of flight),
// 1 ns SerDes and 100 ps on/off tuning.
inline OpticalChannelConfig bench_optical() {
  OpticalChannelConfig c;
  c.rate_gbps = 8.0;
  return c;
}

// Planar mode as the optical benches use it: 4 KiB pages, 4 ns bursts, hot at `threshold`
// accesses.
inline HeteroConfig optical_planar(uint32_t threshold) {
  HeteroConfig c;
  c.mode = HeteroMode::planar;
  c.page_bytes = 4096;
  c.page_groups = PageGrouping::contiguous;  // the benches address group 0's pages 0..8
  c.burst_ns = 4.0;
  c.hot_page.kind = HotPageKind::threshold;
  c.hot_page.threshold = threshold;
  return c;
}

// HeteroChain's path with the controller's virtual channel in place of the electrical wires,
// wired as MemorySystem wires it: the controller and the DDR-T port each see the channel as
// their own device's DataBus, and the controller the memory route where there is one. The
// manager's front socket is for the bench to bind.
struct OpticalPath : sc_core::sc_module {
  OpticalPath(sc_core::sc_module_name name, const HeteroConfig& config, uint32_t vc,
              std::optional<DualRouteMode> memory_route, StatsRegistry& stats, VcdWriter* vcd,
              bool refresh = false)
      : sc_module(name),
        controller("mc", hetero_controller_config(refresh), hetero_dram_geometry(4),
                   hetero_dram_timing(), 8, stats, nullptr),
        channel("channel", bench_optical(), VirtualChannelId{vc}, memory_route, stats, vcd),
        dram("dram", hetero_dram_geometry(4), hetero_dram_timing(), 8, stats),
        xpoint("xpc", hetero_xpoint_config(4, false), stats, nullptr),
        manager("hmm", config, controller.capacity_bytes(),
                {xpoint.capacity_bytes(), xpoint.write_credits(), nullptr},
                channel.data_bus(BusDevice::xpoint), stats, vcd),
        m_stats(stats) {
    MemoryChannel& c = channel;
    controller.share_data_bus(c.data_bus(BusDevice::dram));
    if (const DataBus* route = c.memory_route()) controller.share_memory_route(*route);
    controller.set_data_arrival_latency(c.data_bus(BusDevice::dram).arrival_latency_ps());
    manager.dram().bind(controller.in);
    manager.xpoint().bind(xpoint.in);
    controller.out.bind(c.ddr_in());
    c.ddr_out().bind(dram.in);
  }
  // A counter of the chain's module `module` ("mc", "hmm.ddr_t_port", ...).
  uint64_t counter(const std::string& module, const char* stat) const {
    const std::string group = std::string(name()) + "." + module;
    const Counter* c = m_stats.find_counter(group, stat);
    if (c == nullptr) throw std::logic_error("no counter " + group + "." + stat);
    return c->value();
  }
  // A counter of the channel.
  uint64_t counter(const char* stat) const { return counter("channel", stat); }
  double scalar(const std::string& module, const char* stat) const {
    const std::string group = std::string(name()) + "." + module;
    const Scalar* s = m_stats.find_scalar(group, stat);
    if (s == nullptr) throw std::logic_error("no scalar " + group + "." + stat);
    return s->value();
  }

  MemoryController controller;
  OpticalChannel channel;
  DramDevice dram;
  XPointController xpoint;
  HeteroMemoryManager manager;

 private:
  StatsRegistry& m_stats;
};

// The path driven by a StimulusInitiator.
struct OpticalChain : OpticalPath {
  OpticalChain(sc_core::sc_module_name name, const HeteroConfig& config, uint32_t vc,
               std::optional<DualRouteMode> memory_route, StatsRegistry& stats, VcdWriter* vcd)
      : OpticalPath(name, config, vc, memory_route, stats, vcd), stimulus("stimulus") {
    stimulus.out.bind(manager.in);
  }
  StimulusInitiator stimulus;

  // When request `id` was answered, in ps after `t0`; it must have been, successfully.
  uint64_t response_ps(size_t id, uint64_t t0) const {
    const auto& r = stimulus.request(id);
    REQUIRE(r.response_ps.has_value());
    REQUIRE(r.status == tlm::TLM_OK_RESPONSE);
    return *r.response_ps - t0;
  }
};

}  // namespace ohmvp::bench
