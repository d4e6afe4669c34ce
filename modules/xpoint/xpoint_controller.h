#pragma once

#include <functional>
#include <memory>
#include <queue>
#include <systemc>
#include <tlm>
#include <vector>

#include "modules/common/stats.h"
#include "modules/common/trace_signal.h"
#include "modules/xpoint/wear_leveller.h"
#include "modules/xpoint/xpoint_config.h"
#include "modules/xpoint/xpoint_media.h"
#include "tlm_protocols/ddr_t_protocol.h"

namespace ohmvp {

// The XPoint controller (the logic layer of the XPoint stack): a DDR-T target in its own clock
// domain. Requests cross into the controller's clock (crossing_cycles), reads wait in the read
// buffer until their data is pulled by SEND, writes are acknowledged (WR_DONE, one credit back)
// as soon as they are in the persistent write buffer, whose lines drain to the media in the
// background. A protocol engine runs media operations on the partitions in parallel, reads
// first, then gap-move copies, then buffer drains; completion is out of order, by tag. Logical
// media lines are translated by the wear leveller (randomiser + Start-Gap) and the media checks
// every 64 bytes with SEC-DED. It sleeps while there is nothing to do.
//
// Data is applied at atomic instants: a read takes its data (media plus newer buffered writes)
// when its media operation starts, a drained line is merged and stored when its media write
// ends, a gap-move copy is made when the write that triggers it is stored (its partitions are
// then busy for a read and a write).
class XPointController : public sc_core::sc_module, public DdrTFwTransport {
 public:
  DdrTTargetSocket<> in;

  XPointController(sc_core::sc_module_name name, const XPointConfig& config, StatsRegistry& stats,
                   VcdWriter* vcd);
  ~XPointController() override;
  SC_HAS_PROCESS(XPointController);

  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& payload, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override;
  // DDR-T is split-transaction only.
  void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) override;
  bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) override { return false; }
  // Reads or writes at the payload's address (XPoint byte address) at once, seeing and updating
  // buffered writes; no timing, no wear.
  unsigned int transport_dbg(tlm::tlm_generic_payload& payload) override;

  // The credits an initiator starts with.
  uint32_t write_credits() const { return m_config.write_credits; }
  uint64_t capacity_bytes() const { return m_config.capacity_bytes(); }
  const XPointTiming& timing() const { return m_timing; }
  const XPointMedia& media() const { return m_media; }
  const WearLeveller& wear_leveller() const { return m_leveller; }
  // No request in the controller and no media operation running.
  bool idle() const;
  // How many times the controller's process has run (it runs only when there is work).
  uint64_t activations() const { return m_activations; }
  // Media line reads and writes so far.
  uint64_t media_operations() const;

  // Error injection for tests: flips bit `bit` (0..7) of the stored byte at `address`, in the
  // physical line that currently holds it, without updating its ECC.
  void inject_bit_flip(uint64_t address, unsigned bit);

  // Computes the derived statistics (write amplification, wear, lifetime); also run at the end
  // of the simulation.
  void finish_stats();

 private:
  struct ReadSlot;
  struct WriteEntry;
  struct IngressWrite;
  struct MediaOp;
  struct Message;
  struct Stats;
  struct Trace;

  void run();
  void end_of_simulation() override;
  void wake_at(uint64_t time_ps);
  uint64_t next_edge(uint64_t time_ps) const;
  uint64_t arrival_in_domain(uint64_t time_ps) const;

  tlm::tlm_sync_enum request(tlm::tlm_generic_payload& payload, tlm::tlm_phase& phase);
  tlm::tlm_sync_enum send(tlm::tlm_generic_payload& payload);
  bool validate(tlm::tlm_generic_payload& payload, const DdrTExtension& ext) const;
  void accept_read(tlm::tlm_generic_payload& payload, const DdrTExtension& ext,
                   uint64_t request_ps);
  void accept_write(tlm::tlm_generic_payload& payload, const DdrTExtension& ext);
  const DdrTExtension& extension_of(tlm::tlm_generic_payload& payload) const;
  void claim_tag(uint16_t tag);

  void complete_operations(uint64_t now);
  void admit_writes(uint64_t now);
  void serve_reads_from_buffer(uint64_t now);
  void start_operations(uint64_t now);
  // Marks the partition busy for a media operation of `cycles` from now; returns its end.
  uint64_t occupy(uint32_t partition, uint64_t now, uint64_t cycles);
  bool start_read(uint32_t partition, uint64_t now);
  void join_running_reads(uint64_t now);
  // The reads waiting for lines whose media reads start_operations just started join them.
  void join_started_reads(uint64_t now);
  void join(uint32_t index, uint32_t host_index, uint64_t done_ps);
  void stop_joins(uint64_t logical_line);
  bool start_copy(uint32_t partition, uint64_t now);
  bool start_drain(uint32_t partition, uint64_t now);
  void commit_drain(WriteEntry& entry);
  // Runs `access` to the media, counting what its ECC corrected and found uncorrectable.
  template <class Access>
  void counting_ecc(const Access& access);
  void send_due_messages(uint64_t now);
  void post(uint64_t time_ps, const tlm::tlm_phase& phase, tlm::tlm_generic_payload* payload);
  uint64_t next_wake() const;

  // Fills `out` with the line's newest contents: the media, then buffered writes oldest first.
  void snapshot(uint64_t logical_line, uint8_t* out, uint64_t& bad_chunks);
  void overlay_buffered(uint64_t logical_line, uint8_t* out) const;
  bool covered_by_buffer(uint64_t logical_line, uint32_t offset, uint32_t size);
  WriteEntry* mergeable_entry(uint64_t logical_line);
  WriteEntry* free_entry();
  // A request's partition is fixed when it enters a buffer: a later gap move may shift its line
  // by one physical line, which changes where its data is (the data path translates again) but
  // not which partition the engine charges.
  uint32_t partition_of(uint64_t physical_line) const {
    return static_cast<uint32_t>(physical_line % m_config.partitions);
  }
  void trace_state(uint64_t now);
  void release(tlm::tlm_generic_payload* payload);

  XPointConfig m_config;
  XPointTiming m_timing;
  WearLeveller m_leveller;
  XPointMedia m_media;

  std::vector<ReadSlot> m_reads;
  std::vector<uint32_t> m_free_reads;
  std::vector<uint32_t> m_waiting_reads;  // slots whose data is not yet taken, oldest first
  // Waiting reads not yet looked for in the write buffer, and among the running media reads.
  uint32_t m_reads_to_check_in_buffer = 0;
  uint32_t m_reads_to_check_for_joins = 0;
  tlm::tlm_generic_payload* m_pending_read = nullptr;  // refused for want of a read slot
  uint64_t m_pending_read_ps = 0;                      // when it was sent

  std::vector<IngressWrite> m_ingress;  // ring of write_credits entries, oldest at m_ingress_head
  uint32_t m_ingress_head = 0;
  uint32_t m_ingress_count = 0;
  uint32_t m_writes_outstanding = 0;  // credits in use

  std::vector<WriteEntry> m_buffer;
  uint32_t m_buffer_used = 0;
  uint64_t m_sequence = 0;

  std::vector<uint64_t> m_partition_free_ps;
  std::vector<uint32_t> m_undrained;     // per partition: buffered lines not yet draining
  std::vector<MediaOp> m_started_reads;  // media reads begun this cycle
  std::vector<MediaOp> m_running;        // media operations in flight
  std::vector<std::pair<uint64_t, uint64_t>> m_copies;  // gap-move copies waiting (from, to)

  std::vector<Message> m_messages;           // backward messages not yet sent, a min-heap by time
  std::vector<uint8_t> m_tag_live;           // per tag: a request with this tag is outstanding
  std::vector<int32_t> m_read_of_tag;        // per tag: its read slot, or -1
  std::vector<uint64_t> m_write_request_ps;  // per tag: when its write REQ came

  sc_core::sc_event m_wake;
  uint64_t m_wake_ps = UINT64_MAX;
  uint64_t m_activations = 0;
  std::vector<uint8_t> m_line;       // scratch line
  std::vector<uint8_t> m_line_mask;  // scratch byte mask (covered_by_buffer)

  std::unique_ptr<Stats> m_stats;
  Counter* m_fault_bits_flipped = nullptr;  // with media fault injection only
  std::unique_ptr<Trace> m_trace;
};

}  // namespace ohmvp
