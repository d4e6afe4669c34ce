#pragma once

#include <functional>
#include <systemc>
#include <tlm>
#include <vector>

#include "modules/common/sparse_store.h"
#include "modules/common/stats.h"
#include "modules/host/memory_request.h"
#include "tlm_protocols/payload_pool.h"

namespace ohmvp {

// Drives a memory system with the requests of a RequestSource over the approximately-timed
// base protocol, keeping up to `max_outstanding` in flight. Writes carry a deterministic data
// pattern; every read is checked against a shadow copy of what was written before it was
// issued, and a mismatch stops the simulation with an error.
class TrafficInitiator : public sc_core::sc_module, public tlm::tlm_bw_transport_if<> {
 public:
  tlm::tlm_initiator_socket<> out;

  TrafficInitiator(sc_core::sc_module_name name, RequestSource& source, uint32_t max_outstanding,
                   uint64_t data_seed, StatsRegistry& stats, std::function<void()> on_done);
  SC_HAS_PROCESS(TrafficInitiator);

  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& payload, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override;
  void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}

  uint64_t completed() const { return m_completed; }
  uint32_t outstanding() const { return m_outstanding; }
  uint64_t total() const { return m_source.total(); }
  bool done() const { return m_completed == m_source.total(); }

 private:
  void issue();
  bool issue_one(const MemoryRequest& request, uint64_t now);
  void complete(tlm::tlm_generic_payload& payload);
  void check_read(const tlm::tlm_generic_payload& payload, size_t slot) const;
  void fill_write_data(uint8_t* data, uint32_t length, uint64_t address);
  size_t slot_of(const tlm::tlm_generic_payload& payload) const;

  RequestSource& m_source;
  uint32_t m_max_outstanding;
  uint32_t m_slot_bytes = 0;
  uint64_t m_data_seed;
  std::function<void()> m_on_done;

  PayloadPool m_pool;
  std::vector<uint8_t> m_data;      // one slot of m_slot_bytes per request in flight
  std::vector<uint8_t> m_expected;  // what each in-flight read must return
  std::vector<uint64_t> m_issue_ps;
  std::vector<size_t> m_free_slots;
  SparseStore m_shadow;

  MemoryRequest m_next;
  bool m_have_next = false;
  tlm::tlm_generic_payload* m_waiting_end_req = nullptr;  // sent, not yet accepted
  bool m_in_issue = false;
  uint32_t m_outstanding = 0;
  uint64_t m_completed = 0;
  uint64_t m_writes_issued = 0;
  sc_core::sc_event m_issue_event;

  Counter& m_reads;
  Counter& m_writes;
  Counter& m_bytes;
  Histogram& m_read_latency;
};

}  // namespace ohmvp
