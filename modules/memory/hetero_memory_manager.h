#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <systemc>
#include <tlm>
#include <vector>

#include "modules/common/stats.h"
#include "modules/common/trace_signal.h"
#include "modules/memory/channel_usage.h"
#include "modules/memory/ddr_t_port.h"
#include "modules/memory/dram_port.h"
#include "modules/memory/hetero_config.h"
#include "modules/memory/hetero_request.h"
#include "modules/memory/host_port.h"
#include "modules/memory/paged_mode.h"
#include "modules/memory/planar_mode.h"
#include "modules/memory/two_level_mode.h"

namespace ohmvp {

// The heterogeneous-memory manager: the memory controller's layer in front of two back ends,
// the DRAM controller (base protocol, `dram`) and an XPoint controller (DDR-T, `xpoint`), or in
// paged mode the DRAM controller and host memory over the host's PCIe link. On the front (`in`,
// approximately-timed base protocol) it takes requests of at most one 64-byte burst in one
// address space and serves them in planar, two-level or paged mode. Requests to one burst
// are served in arrival order (a later one waits until the earlier is done); others run in
// parallel. Both reads and writes are answered with BEGIN_RESP when done.
class HeteroMemoryManager : public sc_core::sc_module,
                            public tlm::tlm_fw_transport_if<>,
                            private HeteroBackEnds {
 public:
  tlm::tlm_target_socket<> in;

  // What lies behind DRAM: an XPoint controller (planar, two-level) or host memory (paged).
  struct FarMemory {
    uint64_t bytes = 0;
    uint32_t write_credits = 0;     // XPoint: its DDR-T write credits
    PcieLink* host_link = nullptr;  // paged: the host's PCIe link, shared by the channels
  };

  // `dram_bytes`: the DRAM controller's capacity; `bus`: the channel's data wires, which the
  // DDR-T data shares with the DRAM bursts. Throws ConfigError when the capacities do not fit
  // the mode.
  HeteroMemoryManager(sc_core::sc_module_name name, const HeteroConfig& config, uint64_t dram_bytes,
                      const FarMemory& far, DataBus& bus, StatsRegistry& stats, VcdWriter* vcd);
  ~HeteroMemoryManager() override;
  SC_HAS_PROCESS(HeteroMemoryManager);

  tlm::tlm_initiator_socket<>& dram() { return m_dram->out; }
  // Planar and two-level only.
  DdrTInitiatorSocket<>& xpoint();

  uint64_t capacity_bytes() const { return m_layout.capacity_bytes; }
  const HeteroLayout& layout() const { return m_layout; }
  HeteroMode mode() const { return m_config.mode; }
  const PlanarMode* planar() const { return m_planar.get(); }
  const TwoLevelMode* two_level() const { return m_two_level.get(); }
  const PagedMode* paged() const { return m_paged.get(); }
  // No request inside, no migration, both back ends quiet.
  bool idle() const;
  // A transfer over the host link (paged mode) is in flight: the manager waits on a scheduled
  // arrival, which is progress to come, not a stall.
  bool waiting_on_host() const { return m_host && !m_host->idle(); }
  void finish_stats();

  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& payload, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override;
  void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) override;
  bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) override { return false; }
  // Reads or writes where the data lives now (two-level: DRAM when the line is cached, and
  // XPoint), any length, burst by burst; no timing. Requests in flight are not looked at.
  unsigned int transport_dbg(tlm::tlm_generic_payload& payload) override;

 private:
  struct Stats;
  struct Response {
    tlm::tlm_generic_payload* payload;
    uint64_t arrival_ps;
  };

  // HeteroBackEnds
  void dram_read(uint64_t address, uint32_t length, Traffic traffic, uint64_t token) override;
  void dram_write(uint64_t address, const uint8_t* data, const uint8_t* enable, uint32_t length,
                  Traffic traffic, uint64_t token) override;
  void xpoint_read(uint64_t address, uint32_t length, Traffic traffic, uint64_t token) override;
  void xpoint_write(uint64_t address, const uint8_t* data, uint32_t length, Traffic traffic,
                    uint64_t token) override;
  void xpoint_snarfed_write(uint64_t address, const uint8_t* data, uint32_t length,
                            uint64_t token) override;
  void dram_preset(uint64_t address, uint64_t token) override;
  void dram_release(uint64_t address, uint64_t token) override;
  void control_message(const uint8_t* data, uint32_t bytes, uint64_t token) override;
  void host_transfer(bool to_device, uint32_t bytes, uint64_t not_before_ps,
                     uint64_t token) override;
  void answer(HeteroRequest& request) override;
  void retire(HeteroRequest& request) override;
  void migration_in_flight(uint32_t count) override;

  bool validate(tlm::tlm_generic_payload& payload) const;
  void accept(tlm::tlm_generic_payload& payload, uint64_t arrival_ps);
  void submit(HeteroRequest& request);
  // `crossed` false: a DRAM read the controller answered from its write queue (DramPort).
  void back_end_done(uint64_t token, const uint8_t* data, bool crossed = true);
  void respond();
  // Control messages whose last bit has arrived.
  void deliver_control_messages();
  void end_of_simulation() override { finish_stats(); }
  // transport_dbg of at most one 64-byte burst.
  unsigned int debug_burst(tlm::tlm_command command, uint64_t address, uint8_t* data,
                           uint32_t length);

  HeteroConfig m_config;
  HeteroLayout m_layout;
  std::unique_ptr<Stats> m_stats;
  ChannelUsage m_usage;
  std::unique_ptr<DramPort> m_dram;
  std::unique_ptr<DdrTPort> m_xpoint;
  std::unique_ptr<PlanarMode> m_planar;
  std::unique_ptr<TwoLevelMode> m_two_level;
  std::unique_ptr<HostPort> m_host;
  std::unique_ptr<PagedMode> m_paged;

  std::vector<HeteroRequest> m_requests;
  std::vector<uint32_t> m_free;
  std::vector<HeteroRequest*> m_active;           // accepted, not retired, oldest first
  std::vector<HeteroRequest*> m_burst_waiting;    // behind an older request to their burst
  tlm::tlm_generic_payload* m_pending = nullptr;  // refused for want of a request slot
  uint64_t m_pending_ps = 0;

  std::deque<Response> m_responses;
  bool m_waiting_end_resp = false;
  sc_core::sc_event m_respond;
  DataBus& m_bus;
  struct ControlMessage {
    uint64_t token;
    std::vector<uint8_t> bytes;  // empty: a message timed, not read
  };
  std::multimap<uint64_t, ControlMessage> m_control_arrivals;  // by arrival instant
  sc_core::sc_event m_control_arrived;
  TraceSignal m_trace_migrations;
};

}  // namespace ohmvp
