#pragma once

#include <cstdint>
#include <systemc>
#include <tlm>
#include <vector>

namespace ohmvp {

// Typed DRAM coordinates, so a row can never be passed where a bank is meant.
enum class Rank : uint32_t {};
enum class BankGroup : uint32_t {};
enum class Bank : uint32_t {};  // flat bank index inside a rank: group * banks_per_group + bank
enum class Row : uint32_t {};
enum class Column : uint32_t {};

template <class Id>
constexpr uint32_t index(Id id) {
  return static_cast<uint32_t>(id);
}

struct DramAddress {
  Rank rank{};
  BankGroup bank_group{};
  Bank bank{};
  Row row{};
  Column column{};
};

namespace ddr {
// Each DRAM command is an extended TLM phase of the `ddr` protocol, sent by the memory
// controller on the forward path at the instant the command is on the command bus.
TLM_DECLARE_EXTENDED_PHASE(ACT);
TLM_DECLARE_EXTENDED_PHASE(PRE);
TLM_DECLARE_EXTENDED_PHASE(PREA);
TLM_DECLARE_EXTENDED_PHASE(RD);
TLM_DECLARE_EXTENDED_PHASE(WR);
TLM_DECLARE_EXTENDED_PHASE(RDA);
TLM_DECLARE_EXTENDED_PHASE(WRA);
TLM_DECLARE_EXTENDED_PHASE(REF);
}  // namespace ddr

enum class DdrCommand : uint8_t { ACT, PRE, PREA, RD, WR, RDA, WRA, REF };
constexpr unsigned ddr_command_count = 8;

const char* to_string(DdrCommand command);
const tlm::tlm_phase& to_phase(DdrCommand command);
namespace detail {
// The command of each phase id (-1 for other phases).
extern const std::vector<int8_t> command_of_phase;
}  // namespace detail

// Returns false if the phase is not a ddr command phase. Every channel and device asks this for
// every command: inline, a table lookup.
inline bool from_phase(const tlm::tlm_phase& phase, DdrCommand& command) {
  const unsigned id = phase;
  if (id >= detail::command_of_phase.size() || detail::command_of_phase[id] < 0) return false;
  command = static_cast<DdrCommand>(detail::command_of_phase[id]);
  return true;
}

constexpr bool is_read(DdrCommand c) {
  return c == DdrCommand::RD || c == DdrCommand::RDA;
}
constexpr bool is_write(DdrCommand c) {
  return c == DdrCommand::WR || c == DdrCommand::WRA;
}
constexpr bool is_column(DdrCommand c) {
  return is_read(c) || is_write(c);
}
constexpr bool has_auto_precharge(DdrCommand c) {
  return c == DdrCommand::RDA || c == DdrCommand::WRA;
}

// Payload extension of the ddr protocol. Written by the memory controller only; read by the
// channel and the DRAM device. For column commands the payload's data pointer and length hold
// the burst's bytes (the device fills them for reads and stores them for writes).
class DdrExtension : public tlm::tlm_extension<DdrExtension> {
 public:
  DramAddress address;  // target rank, bank group, bank, row (ACT) and column (RD/WR); default 0
  uint32_t burst = 0;   // beats in the data burst (column commands); default 0
  uint64_t data_start_ps = 0;  // when the burst starts on the data bus (column commands)
  uint64_t data_end_ps = 0;    // when it ends; the channel checks bursts never overlap
  // The burst goes between the DRAM and the XPoint device on the optical channel's memory route
  // (an Ohm-GPU swap or reverse write), not to the controller; default false.
  bool memory_route = false;

  tlm::tlm_extension_base* clone() const override;
  void copy_from(const tlm::tlm_extension_base& other) override;
};

// The ddr protocol's socket types: a ddr socket cannot be bound to a base-protocol socket.
struct ddr_protocol_types {
  using tlm_payload_type = tlm::tlm_generic_payload;
  using tlm_phase_type = tlm::tlm_phase;
};

using DdrFwTransport = tlm::tlm_fw_transport_if<ddr_protocol_types>;
using DdrBwTransport = tlm::tlm_bw_transport_if<ddr_protocol_types>;

}  // namespace ohmvp
