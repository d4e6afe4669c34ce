#include "modules/memory/dram_device.h"

#include <algorithm>

#include "modules/common/errors.h"
#include "modules/common/sim_time.h"

namespace ohmvp {

DramDevice::DramDevice(sc_core::sc_module_name name, const DramGeometry& geometry,
                       const DramTiming& timing, uint32_t bus_bytes, StatsRegistry& stats)
    : sc_module(name),
      in("in"),
      m_geometry(geometry),
      m_timing(timing),
      m_bus_bytes(bus_bytes),
      m_checker(geometry, timing),
      // The store's blocks only group bytes for the host; a burst narrower than the smallest
      // block the store takes shares a block with its neighbours.
      m_store(std::max(bus_bytes * geometry.burst_length, SparseStore::min_block_bytes)),
      m_commands(stats.counter(this->name(), "commands", "commands", "DDR commands checked")),
      m_bytes_read(stats.counter(this->name(), "bytes_read", "bytes", "bytes read out")),
      m_bytes_written(stats.counter(this->name(), "bytes_written", "bytes", "bytes stored")) {
  in.bind(*this);
}

uint64_t DramDevice::storage_address(const DramAddress& a) const {
  uint64_t bank = uint64_t(index(a.rank)) * m_geometry.banks() + index(a.bank);
  uint64_t row = bank * m_geometry.rows + index(a.row);
  return (row * m_geometry.columns + index(a.column)) * m_bus_bytes;
}

void DramDevice::missing_extension() const {
  throw SimulationError(std::string(name()) + ": ddr command without a DdrExtension");
}

tlm::tlm_sync_enum DramDevice::nb_transport_fw(tlm::tlm_generic_payload& payload,
                                               tlm::tlm_phase& phase, sc_core::sc_time&) {
  DdrCommand command;
  if (!from_phase(phase, command)) {
    throw SimulationError(std::string(name()) + ": unknown ddr phase " + phase.get_name());
  }
  const DdrExtension& extension = extension_of(payload);
  const uint64_t now = kernel_now_ps();
  if (now % m_timing.tCK_ps != 0) {
    throw SimulationError(std::string(name()) + ": " + to_string(command) + " at " +
                          std::to_string(now) + " ps is not on a clock edge");
  }
  m_checker.check_and_apply(command, extension.address, now / m_timing.tCK_ps);
  m_commands.inc();
  if (is_column(command)) {
    const uint64_t address = storage_address(extension.address);
    const uint32_t length = payload.get_data_length();
    if (is_read(command)) {
      m_store.read(address, payload.get_data_ptr(), length);
      m_bytes_read.inc(length);
    } else {
      m_store.write(address, payload.get_data_ptr(), length, payload.get_byte_enable_ptr(),
                    payload.get_byte_enable_length());
      m_bytes_written.inc(length);
    }
  }
  payload.set_response_status(tlm::TLM_OK_RESPONSE);
  return tlm::TLM_COMPLETED;
}

void DramDevice::b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time&) {
  // The ddr protocol is command by command; bulk access goes through transport_dbg.
  payload.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
}

unsigned int DramDevice::transport_dbg(tlm::tlm_generic_payload& payload) {
  const DdrExtension& extension = extension_of(payload);
  const uint64_t burst_bytes = uint64_t(m_bus_bytes) * m_geometry.burst_length;
  const uint64_t address =
      storage_address(extension.address) + (payload.get_address() & (burst_bytes - 1));
  const uint32_t length = payload.get_data_length();
  if (payload.is_read()) {
    m_store.read(address, payload.get_data_ptr(), length);
  } else if (payload.is_write()) {
    m_store.write(address, payload.get_data_ptr(), length, payload.get_byte_enable_ptr(),
                  payload.get_byte_enable_length());
  } else {
    return 0;
  }
  return length;
}

}  // namespace ohmvp
