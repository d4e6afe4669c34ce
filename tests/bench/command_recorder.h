#pragma once

#include <cstdint>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "tlm_protocols/ddr_protocol.h"

namespace ohmvp::bench {

struct RecordedCommand {
  DdrCommand command;
  uint64_t cycle;
  DramAddress address;
};

// Pass-through on the ddr protocol (e.g. between an ElectricalChannel and a DramDevice) that
// records every command with the clock cycle it was on the command bus.
class CommandRecorder : public sc_core::sc_module, public DdrFwTransport, public DdrBwTransport {
 public:
  tlm::tlm_target_socket<64, ddr_protocol_types> in;
  tlm::tlm_initiator_socket<64, ddr_protocol_types> out;

  CommandRecorder(sc_core::sc_module_name name, uint64_t tCK_ps)
      : sc_module(name), in("in"), out("out"), m_tCK_ps(tCK_ps) {
    in.bind(*this);
    out.bind(*this);
  }

  const std::vector<RecordedCommand>& commands() const { return m_commands; }

  // The commands in cycles [from, to), as "ACT b5@0 RD b5@16 PREA@7800" with cycles relative
  // to `from` and b the flat bank index; PREA and REF name no bank.
  std::string log(uint64_t from, uint64_t to = UINT64_MAX) const {
    std::string text;
    for (const RecordedCommand& c : m_commands) {
      if (c.cycle < from || c.cycle >= to) continue;
      if (!text.empty()) text += ' ';
      text += to_string(c.command);
      if (c.command != DdrCommand::PREA && c.command != DdrCommand::REF) {
        text += " b" + std::to_string(index(c.address.bank));
      }
      text += '@' + std::to_string(c.cycle - from);
    }
    return text;
  }

  // Cycles of every recorded `command`, in order.
  std::vector<uint64_t> cycles_of(DdrCommand command) const {
    std::vector<uint64_t> cycles;
    for (const RecordedCommand& c : m_commands) {
      if (c.command == command) cycles.push_back(c.cycle);
    }
    return cycles;
  }

  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& payload, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override {
    DdrCommand command;
    if (from_phase(phase, command)) {
      const auto* extension = payload.get_extension<DdrExtension>();
      m_commands.push_back(RecordedCommand{command, sc_core::sc_time_stamp().value() / m_tCK_ps,
                                           extension ? extension->address : DramAddress{}});
    }
    return out->nb_transport_fw(payload, phase, delay);
  }
  void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time& delay) override {
    out->b_transport(payload, delay);
  }
  bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) override { return false; }
  unsigned int transport_dbg(tlm::tlm_generic_payload& payload) override {
    return out->transport_dbg(payload);
  }

  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& payload, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override {
    return in->nb_transport_bw(payload, phase, delay);
  }
  void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}

 private:
  uint64_t m_tCK_ps;
  std::vector<RecordedCommand> m_commands;
};

}  // namespace ohmvp::bench
