#pragma once

#include <deque>
#include <functional>
#include <memory>
#include <systemc>
#include <tlm>
#include <vector>

#include "modules/common/sim_time.h"
#include "modules/common/stats.h"
#include "modules/common/trace_signal.h"
#include "modules/interconnect/data_bus.h"
#include "modules/memory/address_mapper.h"
#include "modules/memory/bank_machine.h"
#include "modules/memory/controller_config.h"
#include "modules/memory/timing_checker.h"
#include "tlm_protocols/ddr_protocol.h"

namespace ohmvp {

class DramAccessExtension;

// DRAM memory controller: approximately-timed base-protocol target on the front (`in`), ddr
// protocol initiator on the back (`out`). Reads wait in a read queue, writes are posted into a
// write queue; per bank a scheduler picks the next request, the timing checker says when its
// next command may issue, and the controller issues the earliest one (one command per cycle).
// It sleeps until that instant: nothing runs while there is nothing to do but refresh.
class MemoryController : public sc_core::sc_module,
                         public tlm::tlm_fw_transport_if<>,
                         public DdrBwTransport {
 public:
  tlm::tlm_target_socket<> in;
  tlm::tlm_initiator_socket<64, ddr_protocol_types> out;

  MemoryController(sc_core::sc_module_name name, const ControllerConfig& config,
                   const DramGeometry& geometry, const DramTiming& timing, uint32_t bus_bytes,
                   StatsRegistry& stats, VcdWriter* vcd);
  ~MemoryController() override;
  SC_HAS_PROCESS(MemoryController);

  const AddressMapper& mapper() const { return m_mapper; }
  // No request queued, waiting or unanswered.
  bool has_no_requests() const {
    return m_reads_queued == 0 && m_writes_queued == 0 && m_responses.empty() &&
           m_pending == nullptr && !m_waiting_end_resp;
  }
  // No requests, and no burst still crossing (a posted write is done for its initiator before
  // its data is in the DRAM).
  bool idle() const { return has_no_requests() && kernel_now_ps() >= m_data_end_ps; }
  // When the last burst issued is across: its data in the DRAM, or back at the controller.
  uint64_t data_end_ps() const { return m_data_end_ps; }
  // Called whenever the controller is left with no requests (e.g. its last posted write went to
  // the DRAM); its burst may still be crossing (data_end_ps). No wake-up of its own waits for
  // that: the controller's choices would then depend on who runs first at an instant.
  void on_idle(std::function<void()> callback) { m_on_idle = std::move(callback); }
  uint64_t column_commands() const { return m_column_commands; }
  uint64_t capacity_bytes() const { return m_mapper.capacity_bytes(); }
  // The channel's data wires carry other transfers too (DDR-T data of an XPoint device): a
  // column command then also waits until its burst's slot on `bus` is free.
  void share_data_bus(const DataBus& bus) { m_shared_bus = &bus; }
  // The optical channel's memory route (DRAM <-> XPoint): column commands of memory-route
  // requests (DramAccessExtension) wait for their burst's slot there instead.
  void share_memory_route(const DataBus& route) { m_memory_route = &route; }
  // Read data reaches the controller `latency_ps` after its burst leaves the channel (the
  // optical channel's time of flight and SerDes; 0 on electrical wires): responses wait for it.
  void set_data_arrival_latency(uint64_t latency_ps) { m_data_latency_ps = latency_ps; }

  // Front side (base protocol).
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& payload, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override;
  void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) override;
  bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) override { return false; }
  unsigned int transport_dbg(tlm::tlm_generic_payload& payload) override;

  // Back side (ddr protocol): the device answers every command synchronously.
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& payload, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override;
  void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}

 private:
  struct Candidate {
    bool valid = false;
    DdrCommand command = DdrCommand::ACT;
    DramAddress address;
    size_t bank = 0;
    size_t position = 0;  // in the bank's queue
    ControllerRequest* request = nullptr;
    uint64_t earliest = 0;
    bool bypasses = false;  // a row hit ahead of an older request (Scheduler::Pick)
  };
  struct Response {
    uint64_t time_ps;
    tlm::tlm_generic_payload* payload;
    uint64_t arrival_ps;
  };
  struct Stats;
  struct Trace;

  void run();
  void schedule_commands(uint64_t now);
  Candidate find_candidate();
  Candidate find_request_candidate(bool writes);
  const BankMachine::Choice& choose(BankMachine& bank, bool writes) {
    const BankMachine::Choice& choice = bank.choice(writes);
    return choice.known ? choice : rechoose(bank, writes);
  }
  const BankMachine::Choice& rechoose(BankMachine& bank, bool writes);
  // The cycle from which refresh is due: its time, later while a bank preset is in force.
  uint64_t refresh_due_cycle() const;
  Candidate find_refresh_candidate() const;
  // The first cycle >= `cycle` at which column command `command` finds its burst's slot on the
  // shared data bus free.
  uint64_t first_free_data_slot(const DataBus& bus, DdrCommand command, uint64_t cycle) const;
  // Sends c's command; false when it needs none (a bank preset of a row already open).
  bool issue(const Candidate& c, uint64_t now);
  static bool is_commandless(const Candidate& c);
  void send_command(DdrCommand command, const DramAddress& address, ControllerRequest* request);
  void retire(const Candidate& c, uint64_t now);
  // Takes the candidate's request out of its bank's queue.
  void dequeue(const Candidate& c);
  // A bank preset whose row is open (`opened_at` the instant it is): pins the bank, answers.
  void retire_preset(const Candidate& c, uint64_t ready_ps);
  // The data path a request's burst takes.
  const DataBus* bus_of(const ControllerRequest& request) const {
    return request.memory_route ? m_memory_route : m_shared_bus;
  }

  void finish_refresh_of_rank(Rank rank);
  bool update_write_mode();  // true when the mode changed
  // A write, free to issue, that a read to its burst waits for.
  static bool awaits_write(const ControllerRequest& r) {
    return r.is_write && !r.blocked && r.next_same_burst != nullptr && !r.next_same_burst->is_write;
  }
  // Where a request's burst lies, decoded once even if the request must wait for queue space.
  struct Location {
    uint64_t burst;   // channel address of its burst
    uint32_t offset;  // inside the burst
    DramAddress address;
  };
  Location locate(uint64_t address) const;
  // Ends a bank preset; the payload is answered at the next clock edge.
  void release_preset(tlm::tlm_generic_payload& payload, const Location& where);
  // A request as it arrives, decoded once.
  struct Arrival {
    tlm::tlm_generic_payload& payload;
    DramAccessExtension* ohm;  // its Ohm-GPU extension, if any (the controller sets from_queue)
    uint64_t burst;            // channel address of its burst
    uint32_t offset;           // inside the burst
    DramAddress address;
    BankMachine& bank;
    ControllerRequest* newest;  // the newest queued request to the same burst, if any
    uint64_t arrival_ps;        // its BEGIN_REQ, even if it then waited to be taken
  };
  Arrival arrival_of(tlm::tlm_generic_payload& payload, DramAccessExtension* ohm,
                     uint64_t arrival_ps, const Location& where);
  // Takes the request into its queue, or answers or merges it from a queued write: false when
  // it needs a queue entry and there is none.
  bool accept(const Arrival& arrival);
  // Whether it needs a queue entry: not a read a queued write can answer, nor a write to merge.
  bool takes_entry(const Arrival& a) const;
  // No room for another read (write) request: requests held back by a bank preset not counted.
  bool queue_full(bool writes) const;
  bool accept_read(const Arrival& a);
  bool accept_write(const Arrival& a);
  ControllerRequest* enqueue(const Arrival& a, bool is_write);
  void retry_pending();
  void respond_at(uint64_t time_ps, tlm::tlm_generic_payload& payload, uint64_t arrival_ps);
  void send_due_responses(uint64_t now_ps);
  void wake_at(uint64_t time_ps);
  void notify_wake();
  void trace_queues();
  void update_now() { m_now_ps = kernel_now_ps(); }
  // The clock the current time falls in (an edge starts its clock).
  uint64_t intake_cycle() const { return m_now_ps / m_timing.tCK_ps; }
  uint64_t next_edge_ps() const { return ps(intake_cycle() + 1); }
  BankMachine& bank_of(const DramAddress& a) {
    return m_banks[size_t(index(a.rank)) * m_geometry.banks() + index(a.bank)];
  }
  ControllerRequest* newest_to_burst(const BankMachine& bank, uint64_t burst) const;
  uint64_t ps(uint64_t cycles) const { return m_timing.ps(cycles); }
  bool validate(tlm::tlm_generic_payload& payload, const DramAccessExtension* ohm) const;
  // Writes are posted (answered once queued) except on the memory route.
  static bool posted(const tlm::tlm_generic_payload& payload, const DramAccessExtension* ohm);
  void debug_access(tlm::tlm_generic_payload& payload);

  ControllerConfig m_config;
  DramGeometry m_geometry;
  DramTiming m_timing;
  AddressMapper m_mapper;
  TimingChecker m_checker;
  std::unique_ptr<Scheduler> m_scheduler;
  std::unique_ptr<PagePolicy> m_page_policy;
  std::vector<BankMachine> m_banks;
  ControllerRequestPool m_pool;
  std::vector<BankMachine*> m_busy_banks;  // banks with queued requests, in no particular order
  uint32_t m_reads_queued = 0;
  uint32_t m_writes_queued = 0;
  uint32_t m_memory_route_writes = 0;  // queued writes on the memory route
  uint32_t m_pins = 0;                 // bank presets in force
  // Queued writes, free to issue, that a queued read to their burst waits for: the controller
  // turns to writes while there are any, or the read could wait for the whole read stream.
  uint32_t m_writes_awaited = 0;
  // Column commands of the current mode's direction since it was entered.
  uint32_t m_served_in_mode = 0;
  uint64_t m_sequence = 0;
  bool m_write_mode = false;
  bool m_queue_counts_changed = true;             // since update_write_mode() last looked at them
  tlm::tlm_generic_payload* m_pending = nullptr;  // a request waiting for queue space
  uint64_t m_pending_arrival_ps = 0;              // when m_pending arrived
  Location m_pending_location{};                  // where m_pending goes
  DramAccessExtension* m_pending_ohm = nullptr;   // m_pending's Ohm extension, if any
  bool m_pending_for_space = false;               // found its queue full, not only its clock taken
  // The front end takes one request a clock (a modelling choice): the clock it last took one in.
  uint64_t m_intake_cycle = UINT64_MAX;

  std::deque<Response> m_responses;  // by time; equal times in the order they were added
  bool m_waiting_end_resp = false;

  tlm::tlm_generic_payload m_command;
  DdrExtension m_command_extension;
  std::vector<uint8_t> m_burst_buffer;

  bool m_refresh_due = false;
  uint64_t m_next_refresh = 0;  // cycle
  std::vector<bool> m_rank_refreshed;
  uint64_t m_next_command_cycle = 0;
  // The next command as last chosen; valid until a command issues or a request arrives.
  Candidate m_plan;
  bool m_plan_valid = false;

  sc_core::sc_event m_wake;
  uint64_t m_wake_ps = UINT64_MAX;
  // Inside run(), wake-ups are gathered and notified once when it returns: an event notified
  // again earlier leaves its superseded notification in the kernel's queue.
  bool m_running = false;
  uint64_t m_now_ps = 0;  // the current time, read once per entry from the kernel

  const DataBus* m_shared_bus = nullptr;
  const DataBus* m_memory_route = nullptr;
  uint64_t m_data_latency_ps = 0;
  uint64_t m_data_end_ps = 0;
  std::function<void()> m_on_idle;
  uint64_t m_column_commands = 0;
  std::unique_ptr<Stats> m_stats;
  std::unique_ptr<Trace> m_trace;
};

}  // namespace ohmvp
