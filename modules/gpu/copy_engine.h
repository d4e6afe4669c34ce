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
#include "tlm_protocols/gpu_memory_protocol.h"

namespace ohmvp::gpu {

// The GPU's copy engine: moves bytes between a host-side buffer and device memory through the
// crossbar and the L2s, as timed line requests on the crossbar port after the SMs' (the
// extension's `sm` is the SM count), so that it sees and leaves what the L2s and the memory
// hold exactly as the SMs do. A copy is cut into one store or load per line it covers (the
// sectors it covers; a store's bytes outside the copy disabled), of which k_lines_in_flight are
// outstanding at once; its callback runs when the last is answered. Copies queue in order. The
// same port carries the host's debug (functional) accesses. Its statistics count the bytes of
// the copies it completed (`bytes_read`, `bytes_written`); debug accesses are not among them.
class CopyEngine : public sc_core::sc_module, public GpuMemoryBwTransport {
 public:
  tlm::tlm_initiator_socket<32, gpu_memory_protocol_types> out;

  // Line requests outstanding at once: a modelling choice (the engine's depth is not published).
  static constexpr uint32_t k_lines_in_flight = 32;

  // `engine_id` is the value of the extension's `sm` field (the SM count).
  CopyEngine(sc_core::sc_module_name name, uint32_t engine_id, uint32_t line_bytes,
             uint32_t sector_bytes, StatsRegistry& stats);
  ~CopyEngine() override;
  SC_HAS_PROCESS(CopyEngine);

  // Writes `bytes` at device address `address`.
  void write(uint64_t address, std::vector<uint8_t> bytes, std::function<void()> done);
  // Reads `length` bytes at `address`; `done` receives them.
  void read(uint64_t address, uint64_t length, std::function<void(std::vector<uint8_t>&)> done);

  // Functional access through the same port (the host's copies).
  unsigned int debug(tlm::tlm_generic_payload& payload) { return out->transport_dbg(payload); }

  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& payload, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override;
  void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}

 private:
  struct Copy;
  struct Line;

  void send();    // the next line of the head copies, while the port and the window allow
  void arrive();  // responses whose time has come
  void answered(Line& line);

  // What line `index` of a copy holds of it.
  struct Span {
    uint64_t line;     // the line's address
    uint32_t in_line;  // where the copy's bytes start in the line
    uint32_t bytes;    // how many of them the line holds
    uint64_t in_copy;  // where they are in the copy
    uint32_t sectors;  // the sectors they lie in
  };

  void queue(std::unique_ptr<Copy> copy, uint64_t address);
  Span span(const Copy& copy, uint64_t index) const;

  uint32_t m_engine_id, m_line_bytes, m_sector_bytes;
  Counter& m_bytes_read;
  Counter& m_bytes_written;
  std::deque<std::unique_ptr<Copy>> m_copies;  // in order; the head sends first
  std::vector<std::unique_ptr<Line>> m_lines;  // pooled payloads
  std::vector<Line*> m_free_lines;
  uint32_t m_in_flight = 0;
  bool m_port_busy = false;
  std::multimap<uint64_t, Line*> m_arrivals;  // by arrival time, ps
  sc_core::sc_event m_send_event, m_arrival_event;
};

}  // namespace ohmvp::gpu
