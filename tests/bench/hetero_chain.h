#pragma once

#include <cstdint>
#include <string>
#include <systemc>

#include "modules/common/stats.h"
#include "modules/interconnect/electrical_channel.h"
#include "modules/memory/dram_device.h"
#include "modules/memory/hetero_memory_manager.h"
#include "modules/memory/memory_controller.h"
#include "modules/xpoint/xpoint_controller.h"
#include "tests/ddr4_cycles.h"

namespace ohmvp::bench {

// The heterogeneous path of one channel: front -> HeteroMemoryManager -> (MemoryController ->
// ElectricalChannel -> DramDevice) and (DDR-T -> XPointController). Round numbers: DRAM is
// DDR4-2400 in cycles on a 1 ns clock (so a cycle count reads as nanoseconds) with 8-byte lanes
// and 64-byte bursts, the XPoint controller has a 1 ns clock, 2-cycle crossings, 1-cycle buffer
// access, 190 / 763 ns media; a DDR-T data burst holds the channel 4 ns. DRAM bursts and DDR-T
// data share the channel's data wires.
inline DramTiming hetero_dram_timing(bool refresh_figures = true) {
  DramTiming t = ddr4_2400_cycles();
  t.tCK_ps = 1000;
  if (refresh_figures) t.REFI = 7800, t.RFC = 350;
  return t;
}

inline DramGeometry hetero_dram_geometry(uint32_t rows) {
  DramGeometry g = ddr4_geometry(1);
  g.rows = rows;
  g.columns = 1024;
  return g;
}

inline XPointConfig hetero_xpoint_config(uint32_t capacity_mib, bool start_gap) {
  XPointConfig c;
  c.capacity_kib = uint64_t{capacity_mib} << 10;
  c.clock_ns = 1.0;
  c.crossing_cycles = 2;
  c.buffer_cycles = 1;
  c.partitions = 8;
  c.read_ns = 190.0;
  c.write_ns = 763.0;
  c.line_bytes = 256;
  c.start_gap.enabled = start_gap;
  return c;
}

inline ControllerConfig hetero_controller_config(bool refresh) {
  ControllerConfig c;
  c.refresh = refresh;
  c.address_mapping.scheme = "row:bank:column";
  return c;
}

class HeteroChain : public sc_core::sc_module {
 public:
  HeteroChain(sc_core::sc_module_name name, const HeteroConfig& config, uint32_t dram_rows,
              const XPointConfig& xpoint_config, bool refresh, StatsRegistry& stats,
              VcdWriter* vcd = nullptr)
      : sc_module(name),
        controller("mc", hetero_controller_config(refresh), hetero_dram_geometry(dram_rows),
                   hetero_dram_timing(), 8, stats, nullptr),
        channel("channel", ElectricalChannelConfig{},
                hetero_dram_timing().ps(hetero_dram_timing().RTRS), stats, nullptr),
        dram("dram", hetero_dram_geometry(dram_rows), hetero_dram_timing(), 8, stats),
        xpoint("xpc", xpoint_config, stats, vcd),
        manager("hmm", config, controller.capacity_bytes(),
                {xpoint.capacity_bytes(), xpoint.write_credits(), nullptr},
                channel.data_bus(BusDevice::xpoint), stats, vcd),
        m_stats(stats) {
    controller.share_data_bus(channel.data_bus(BusDevice::dram));
    manager.dram().bind(controller.in);
    manager.xpoint().bind(xpoint.in);
    controller.out.bind(channel.in);
    channel.out.bind(dram.in);
  }

  uint64_t counter(const std::string& group, const char* stat) const {
    const Counter* c = m_stats.find_counter(group, stat);
    if (c == nullptr) throw std::logic_error("no counter " + group + "." + stat);
    return c->value();
  }
  uint64_t manager_counter(const char* stat) const { return counter(manager.name(), stat); }
  uint64_t port_counter(const char* stat) const {
    return counter(std::string(manager.name()) + ".ddr_t_port", stat);
  }
  const StatsRegistry& stats() const { return m_stats; }
  double manager_scalar(const char* stat) const {
    const Scalar* s = m_stats.find_scalar(manager.name(), stat);
    if (s == nullptr) throw std::logic_error(std::string("no scalar ") + stat);
    return s->value();
  }

  MemoryController controller;
  ElectricalChannel channel;
  DramDevice dram;
  XPointController xpoint;
  HeteroMemoryManager manager;

 private:
  StatsRegistry& m_stats;
};

}  // namespace ohmvp::bench
