#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "modules/memory/dram_config.h"
#include "tlm_protocols/ddr_protocol.h"

namespace ohmvp {

// The DRAM device's own check of every command it receives, independent of the controller's
// scheduler: it remembers when the relevant earlier commands happened and tests each JEDEC
// constraint against them. A violation throws SimulationError and leaves the state unchanged.
//
// Time is in controller clock cycles and must not decrease between calls. Messages read
// "DRAM protocol violation at cycle <t>: <CMD> rank <r> bank group <g> bank <b> row <x>:
// <rule> (earliest cycle <e>)", with <b> the flat bank index within the rank; PREA and REF name
// only the rank, PRE omits the row.
class DramProtocolChecker {
 public:
  DramProtocolChecker(const DramGeometry& geometry, const DramTiming& timing);

  void check_and_apply(DdrCommand command, const DramAddress& address, uint64_t cycle);

  bool is_open(Rank rank, Bank bank) const;
  // Precondition: is_open(rank, bank).
  Row open_row(Rank rank, Bank bank) const;
  // Commands accepted so far.
  uint64_t commands_checked() const { return m_commands_checked; }
  uint64_t refreshes(Rank rank) const;
  std::optional<uint64_t> last_refresh(Rank rank) const;

 private:
  // A cycle, or never: so far below 0 that never plus any gap lies before every cycle, and a
  // rule needs no separate test of whether its event happened.
  using Time = int64_t;
  static constexpr Time never = INT64_MIN / 4;

  struct BankState {
    bool open = false;
    Row row{};
    Time activated = never;
    // Explicit PRE/PREA, or the implicit precharge of RDA/WRA (may lie ahead).
    Time precharged = never;
    Time last_read = never;
    Time last_write = never;
  };
  struct GroupState {
    Time activated = never;
    Time last_read = never;
    Time last_write = never;
  };
  struct RankState {
    std::vector<BankState> banks;
    std::vector<GroupState> groups;
    Time last_read = never;  // the latest read to any of its banks
    Time last_write = never;
    Time refreshed = never;
    uint64_t refresh_count = 0;
    // Ring of the last four ACT cycles, for tFAW: ACT number n is at n % 4.
    std::array<uint64_t, 4> recent_activates{};
    uint64_t activates = 0;
  };
  struct Burst {
    uint64_t start;
    uint64_t end;
    uint32_t rank;
    DdrCommand command;
  };
  class Check;

  void check_address(const Check& check) const;
  void check_activate(const Check& check) const;
  void check_precharge(const Check& check, uint32_t bank) const;
  void check_column(const Check& check) const;
  void check_refresh(const Check& check) const;
  void check_data_bus(const Check& check) const;
  // The search of check_data_bus(), for a burst that starts before the end of an earlier one.
  void check_data_bus_overlap(const Check& check, uint64_t latency) const;
  void apply(const Check& check);

  const RankState& rank_state(Rank rank) const;

  DramGeometry m_geometry;
  DramTiming m_timing;
  std::vector<RankState> m_ranks;
  std::vector<Burst> m_bursts;  // every burst that may still collide with a later one
  // Per rank, the first cycle at which a burst of it meets none of the bursts so far (tRTRS
  // included; 0 before the first burst).
  std::vector<uint64_t> m_bursts_end;
  Time m_last_cycle = never;
  uint64_t m_commands_checked = 0;
};

}  // namespace ohmvp
