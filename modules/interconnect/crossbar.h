#pragma once

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <deque>
#include <memory>
#include <systemc>
#include <tlm>
#include <vector>

#include "modules/common/sim_time.h"
#include "modules/common/stats.h"
#include "modules/interconnect/crossbar_config.h"
#include "modules/interconnect/interleave_map.h"
#include "tlm_protocols/gpu_memory_protocol.h"

namespace ohmvp {

// The GPU's SM <-> L2 crossbar: `in[i]` takes SM i's requests, `out[j]` leads to L2 slice j,
// chosen by the memory channel interleave (slice j = channel j), and responses return to the
// port their request came in on. In each direction a packet occupies its input port for
// ceil(bytes / bytes_per_cycle) cycles (at least one), reaches its output port `latency` cycles
// after it began, waits there in a FIFO of `queue_depth` packets, and occupies the output port
// for as many cycles as it took at the input before it is offered to the receiver. A packet
// holds a place of its output from its start: one of the `latency` places of the pipeline on the
// way (one a cycle), then one of the FIFO's. The sender gets END_REQ (END_RESP) when its input
// port is free again; an output with no free place or a receiver that holds END_REQ (END_RESP)
// back stalls the inputs behind it. Sleeps when nothing moves.
class Crossbar : public sc_core::sc_module {
 public:
  using SmSocket = tlm_utils::simple_target_socket_tagged<Crossbar, 32, gpu_memory_protocol_types>;
  using SliceSocket =
      tlm_utils::simple_initiator_socket_tagged<Crossbar, 32, gpu_memory_protocol_types>;

  std::vector<std::unique_ptr<SmSocket>> in;
  std::vector<std::unique_ptr<SliceSocket>> out;

  // `map.channels` slices; `sector_bytes`: the L2 sector (packet sizes count whole sectors).
  Crossbar(sc_core::sc_module_name name, const CrossbarConfig& config,
           sc_core::sc_time clock_period, uint32_t sm_ports, const InterleaveMap& map,
           uint32_t sector_bytes, StatsRegistry& stats);
  ~Crossbar() override;
  SC_HAS_PROCESS(Crossbar);

  uint32_t slice_of(uint64_t address) const { return m_map.channel_of(address); }
  bool idle() const;
  // Requests and responses started across so far: progress a run monitor can see.
  uint64_t packets() const;

 private:
  struct Packet {
    tlm::tlm_generic_payload* payload;
    uint32_t input;
    uint64_t ready_ps;  // earliest start on the output port
    uint32_t cycles;    // serialisation
  };
  struct Input {
    tlm::tlm_generic_payload* held = nullptr;  // waiting for space at its output
    uint32_t held_output = 0;
    tlm::tlm_generic_payload* serialising = nullptr;  // admitted; acknowledged at ack_ps
    uint64_t ack_ps = 0;
  };
  // Packets an output holds between their start and their turn on it: the pipeline's places
  // and the FIFO's.
  uint32_t output_places() const { return m_config.latency + m_config.queue_depth; }
  struct Output {
    std::deque<Packet> queue;
    tlm::tlm_generic_payload* sending = nullptr;
    uint64_t send_end_ps = 0;
    bool blocked = false;     // offered, the receiver has not released it yet
    uint32_t next_input = 0;  // round-robin among stalled inputs
    uint32_t held_inputs = 0;  // inputs stalled on this output
  };
  // One direction: requests (SMs -> slices) or responses (slices -> SMs).
  struct Path {
    bool requests;
    std::vector<Input> inputs;
    std::vector<Output> outputs;
    Counter* packets;
    Counter* bytes;
    Counter* stalls;
  };
  struct Stats;

  tlm::tlm_sync_enum sm_fw(int port, tlm::tlm_generic_payload& payload, tlm::tlm_phase& phase,
                           sc_core::sc_time& delay);
  tlm::tlm_sync_enum slice_bw(int port, tlm::tlm_generic_payload& payload, tlm::tlm_phase& phase,
                              sc_core::sc_time& delay);
  void sm_b_transport(int port, tlm::tlm_generic_payload& payload, sc_core::sc_time& delay);
  unsigned int sm_transport_dbg(int port, tlm::tlm_generic_payload& payload);
  void slice_invalidate(int, sc_dt::uint64, sc_dt::uint64) {}

  void arrive(Path& path, uint32_t input, uint32_t output, tlm::tlm_generic_payload& payload);
  bool admit(Path& path, uint32_t input, uint32_t output, tlm::tlm_generic_payload& payload,
             uint64_t now);
  void admit_held(Path& path, uint32_t output, uint64_t now);
  void release_output(Path& path, uint32_t output);
  void run();
  void step(Path& path, uint64_t now);
  void acknowledge(Path& path, uint32_t input, tlm::tlm_generic_payload& payload);
  bool offer(Path& path, uint32_t output, tlm::tlm_generic_payload& payload);
  uint32_t packet_bytes(const Path& path, const tlm::tlm_generic_payload& payload) const;
  void wake_at(uint64_t time_ps);
  uint64_t now_ps() const { return kernel_now_ps(); }
  uint64_t edge_at_or_after(uint64_t t) const {
    return (t + m_period_ps - 1) / m_period_ps * m_period_ps;
  }

  CrossbarConfig m_config;
  uint64_t m_period_ps;
  InterleaveMap m_map;
  uint32_t m_sector_bytes;
  Path m_requests;
  Path m_responses;
  sc_core::sc_event m_wake;
  uint64_t m_wake_ps = UINT64_MAX;
  std::unique_ptr<Stats> m_stats;
};

}  // namespace ohmvp
