#pragma once

#include <systemc>
#include <tlm>

#include "modules/common/sparse_store.h"
#include "modules/common/stats.h"
#include "modules/memory/dram_protocol_checker.h"
#include "tlm_protocols/ddr_protocol.h"

namespace ohmvp {

// One rank set of DRAM behind a channel. It stores the bytes written to it and checks that
// every command it receives is legal for its bank state and timing: the controller must never
// send an illegal one, so a violation is a simulation error.
class DramDevice : public sc_core::sc_module, public DdrFwTransport {
 public:
  tlm::tlm_target_socket<64, ddr_protocol_types> in;

  DramDevice(sc_core::sc_module_name name, const DramGeometry& geometry, const DramTiming& timing,
             uint32_t bus_bytes, StatsRegistry& stats);

  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& payload, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override;
  void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) override;
  bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) override { return false; }
  unsigned int transport_dbg(tlm::tlm_generic_payload& payload) override;

  const DramProtocolChecker& checker() const { return m_checker; }
  const SparseStore& store() const { return m_store; }

 private:
  // Where a column's bytes live in the backing store.
  uint64_t storage_address(const DramAddress& a) const;
  const DdrExtension& extension_of(tlm::tlm_generic_payload& payload) const {
    const auto* extension = payload.get_extension<DdrExtension>();
    if (extension == nullptr) missing_extension();
    return *extension;
  }
  [[noreturn]] void missing_extension() const;

  DramGeometry m_geometry;
  DramTiming m_timing;
  uint32_t m_bus_bytes;
  DramProtocolChecker m_checker;
  SparseStore m_store;
  Counter& m_commands;
  Counter& m_bytes_read;
  Counter& m_bytes_written;
};

}  // namespace ohmvp
