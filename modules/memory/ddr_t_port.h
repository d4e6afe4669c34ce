#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <systemc>
#include <tlm>
#include <vector>

#include "modules/common/trace_signal.h"
#include "modules/interconnect/data_bus.h"
#include "modules/memory/channel_usage.h"
#include "tlm_protocols/ddr_t_protocol.h"

namespace ohmvp {

// The memory controller's DDR-T initiator side, towards an XPoint controller. Each access (up
// to one 64-byte burst) gets a free tag; REQs go out in order, one at a time (a REQ the target
// cannot take yet is held until its END_REQ), a write only with a write credit, which WR_DONE
// returns. After a REQ the port goes on with other accesses. Data crosses the channel's data
// wires (`bus`, shared with the DRAM bursts): an RSP_READY queues a SEND, and a write's data
// crosses with its REQ; each such transfer takes the earliest free burst slot on the bus and the
// SEND or write REQ goes out when its slot begins (SENDs first). The read is done when its
// burst has crossed. A REQ to a line with an earlier access still in flight waits for it to
// finish (a read for the WR_DONE of a write, a write for the data of a read), so that every
// access sees exactly the accesses sent before it. `done(token, data)` is called in the port's
// own process.
class DdrTPort : public sc_core::sc_module, public DdrTBwTransport {
 public:
  using Done = std::function<void(uint64_t token, const uint8_t* data)>;

  DdrTInitiatorSocket<> out;

  DdrTPort(sc_core::sc_module_name name, uint32_t tags, uint32_t write_credits, DataBus& bus,
           ChannelUsage& usage, StatsRegistry& stats, VcdWriter* vcd, Done done);
  ~DdrTPort() override;
  SC_HAS_PROCESS(DdrTPort);

  // `local`: the data stays at the XPoint end (it goes on to DRAM over the memory route): the
  // SEND takes no data slot and the read is done when the XPoint controller hands the data over.
  void read(uint64_t address, uint32_t length, Traffic traffic, uint64_t token, bool local = false);
  // `snarfed`: the XPoint controller already has the data (auto-read/write): the REQ goes out
  // like a read's, taking no data slot on the bus.
  void write(uint64_t address, const uint8_t* data, uint32_t length, Traffic traffic,
             uint64_t token, bool snarfed = false);
  bool idle() const { return m_outstanding == 0 && m_queue.empty() && m_waiting.empty(); }
  uint32_t outstanding() const { return m_outstanding; }

  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& payload, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override;
  void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}

 private:
  struct Slot;
  struct Access {
    bool is_write;
    bool local;  // a snarfed write, or a local read
    uint64_t address;
    uint32_t length;
    Traffic traffic;
    uint64_t token;
    uint8_t data[64];
  };
  struct Stats;

  void enqueue(const Access& access);
  void assign_tags();
  void run();
  // The next data transfer that may take a bus slot: the oldest pull, else a write REQ at the
  // head of the queue that may go.
  Slot* next_transfer();
  bool may_send(Slot& slot);
  // Moves data for every transfer whose slot has begun, taking slots as transfers become ready;
  // returns when the next slot begins (UINT64_MAX: none taken).
  uint64_t transfer(uint64_t now);
  // The SEND that takes a read's data from the XPoint controller.
  void send(Slot& slot);
  void send_pull(Slot& slot, uint64_t arrival_ps);
  // SENDs of local reads, done at once.
  void send_local_pulls();
  void send_request(Slot& slot, uint64_t now);
  // REQs that carry no data on the bus, in queue order: reads and snarfed writes.
  void send_dataless_requests(uint64_t now);
  bool access_in_flight_to(uint64_t line) const;
  void release(Slot& slot);
  void trace(uint64_t now);

  std::vector<std::unique_ptr<Slot>> m_slots;  // indexed by tag
  std::vector<uint16_t> m_free_tags;
  std::deque<Access> m_waiting;                       // no free tag yet
  std::deque<Slot*> m_queue;                          // tagged, REQ not yet sent, oldest first
  std::deque<Slot*> m_pulls;                          // RSP_READY seen, SEND not yet sent
  std::deque<Slot*> m_local_pulls;                    // the same, for local reads
  std::deque<std::pair<uint64_t, Slot*>> m_arrivals;  // read data crossing, by time
  std::deque<Slot*> m_written;                        // WR_DONE seen, callback not yet made
  Slot* m_waiting_end_req = nullptr;
  uint32_t m_credits;
  uint32_t m_outstanding = 0;
  Slot* m_slotted = nullptr;  // the transfer holding the next bus slot
  uint64_t m_slot_ps = 0;     // where that slot begins
  DataBus& m_bus;
  ChannelUsage& m_usage;
  Done m_done;
  std::unique_ptr<Stats> m_stats;
  TraceSignal m_trace_outstanding;
  sc_core::sc_event m_wake;
};

}  // namespace ohmvp
