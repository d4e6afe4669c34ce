#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <systemc>
#include <tlm>
#include <vector>

#include "modules/memory/channel_usage.h"
#include "modules/memory/dram_access_extension.h"

namespace ohmvp {

// The heterogeneous-memory manager's way to the DRAM controller: an approximately-timed
// base-protocol initiator. Accesses (at most one 64-byte burst each) are queued and sent one
// BEGIN_REQ at a time; a read is done when its BEGIN_RESP comes (data copied out), a write when
// the controller has accepted it (it posts writes and keeps same-burst order, so a later read
// sees it). `done(token, data, crossed)` is called for each access, in a process of the port's
// own, never inside a call from the caller; `crossed` is false for a read the controller answered
// from a queued write, whose burst no other device could snarf.
class DramPort : public sc_core::sc_module,
                 public tlm::tlm_bw_transport_if<>,
                 private tlm::tlm_mm_interface {
 public:
  using Done = std::function<void(uint64_t token, const uint8_t* data, bool crossed)>;

  tlm::tlm_initiator_socket<> out;

  DramPort(sc_core::sc_module_name name, uint32_t slots, ChannelUsage& usage, Done done);
  ~DramPort() override;
  SC_HAS_PROCESS(DramPort);

  // Traffic::memory_route: the burst goes between DRAM and XPoint (DramAccessExtension).
  void read(uint64_t address, uint32_t length, Traffic traffic, uint64_t token);
  // `enable` (length bytes, 0xff = write the byte) may be null: all bytes.
  void write(uint64_t address, const uint8_t* data, const uint8_t* enable, uint32_t length,
             Traffic traffic, uint64_t token);
  // Ohm-GPU bank preset of the row holding `address`, and its release (DramAccessExtension);
  // done (no data) when the row is open, and at once for the release.
  void preset(uint64_t address, uint64_t token);
  void release(uint64_t address, uint64_t token);
  bool idle() const { return m_queue.empty() && m_in_flight == 0 && m_finished.empty(); }

  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& payload, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override;
  void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}

 private:
  struct Slot;

  void free(tlm::tlm_generic_payload*) override {}
  void add_slot();
  // A free slot (a new one if none is), its payload set for one command.
  Slot& take_slot(tlm::tlm_command command, uint64_t address, uint32_t length,
                  DramAccessExtension::Kind kind, Traffic traffic, uint64_t token);
  void queue(Slot& slot);
  void control(DramAccessExtension::Kind kind, uint64_t address, uint64_t token);
  void run();
  void send(Slot& slot);
  void finish(Slot& slot);

  std::vector<std::unique_ptr<Slot>> m_slots;
  std::vector<Slot*> m_free;
  std::deque<Slot*> m_queue;     // waiting to be sent, oldest first
  std::deque<Slot*> m_finished;  // done, callback not yet made
  Slot* m_waiting_end_req = nullptr;
  uint32_t m_in_flight = 0;
  ChannelUsage& m_usage;
  Done m_done;
  sc_core::sc_event m_wake;
};

}  // namespace ohmvp
