#include "modules/memory/dram_protocol_checker.h"

#include <algorithm>
#include <stdexcept>

#include "modules/common/errors.h"

namespace ohmvp {

namespace {

bool is_rank_command(DdrCommand command) {
  return command == DdrCommand::PREA || command == DdrCommand::REF;
}

bool names_row(DdrCommand command) {
  return command == DdrCommand::ACT || is_column(command);
}

}  // namespace

// One command under test: its decoded coordinates and the formatting of its violations.
class DramProtocolChecker::Check {
 public:
  Check(DdrCommand command, const DramAddress& address, uint64_t cycle,
        const DramGeometry& geometry)
      : command(command),
        address(address),
        cycle(cycle),
        rank(index(address.rank)),
        bank(index(address.bank)),
        group(index(address.bank) / geometry.banks_per_group) {}

  [[noreturn]] void fail(const std::string& reason) const {
    std::string text = "DRAM protocol violation at cycle " + std::to_string(cycle) + ": " +
                       to_string(command) + " rank " + std::to_string(rank);
    if (!is_rank_command(command)) {
      text += " bank group " + std::to_string(index(address.bank_group)) + " bank " +
              std::to_string(bank);
    }
    if (names_row(command)) text += " row " + std::to_string(index(address.row));
    throw SimulationError(text + ": " + reason);
  }

  // This runs several times for every command, so the message is built only on failure, out of
  // line. `of_bank` names the bank a rank-wide command (PREA) violates the rule for; -1 for none.
  void require_after(Time event, uint64_t gap, const char* rule, int of_bank = -1) const {
    const Time earliest = event + Time(gap);
    if (Time(cycle) < earliest) fail_rule(rule, uint64_t(earliest), of_bank);
  }

  [[noreturn]] __attribute__((noinline)) void fail_rule(const char* rule, uint64_t earliest,
                                                        int of_bank) const {
    const std::string bank_text = of_bank < 0 ? "" : " of bank " + std::to_string(of_bank);
    fail(rule + bank_text + " (earliest cycle " + std::to_string(earliest) + ")");
  }

  const DdrCommand command;
  const DramAddress address;
  const uint64_t cycle;
  const uint32_t rank;
  const uint32_t bank;   // flat within the rank
  const uint32_t group;  // derived from the flat bank, not taken from the address
};

DramProtocolChecker::DramProtocolChecker(const DramGeometry& geometry, const DramTiming& timing)
    : m_geometry(geometry), m_timing(timing) {
  if (geometry.ranks == 0 || geometry.bank_groups == 0 || geometry.banks_per_group == 0) {
    throw ConfigError("DRAM protocol checker: geometry needs at least one rank and bank");
  }
  RankState rank;
  rank.banks.resize(geometry.banks());
  rank.groups.resize(geometry.bank_groups);
  m_ranks.assign(geometry.ranks, rank);
  m_bursts_end.assign(geometry.ranks, 0);
}

void DramProtocolChecker::check_and_apply(DdrCommand command, const DramAddress& address,
                                          uint64_t cycle) {
  const Check check(command, address, cycle, m_geometry);
  if (Time(cycle) < m_last_cycle) {
    check.fail("time went backwards (previous command at cycle " + std::to_string(m_last_cycle) +
               ")");
  }
  if (Time(cycle) == m_last_cycle) check.fail("a second command in one clock cycle");
  check_address(check);
  switch (command) {
    case DdrCommand::ACT:
      check_activate(check);
      break;
    case DdrCommand::PRE:
      check_precharge(check, check.bank);
      break;
    case DdrCommand::PREA:
      for (uint32_t bank = 0; bank < m_geometry.banks(); ++bank) check_precharge(check, bank);
      break;
    case DdrCommand::RD:
    case DdrCommand::WR:
    case DdrCommand::RDA:
    case DdrCommand::WRA:
      check_column(check);
      break;
    case DdrCommand::REF:
      check_refresh(check);
      break;
  }
  // No command reaches a rank while it refreshes.
  check.require_after(m_ranks[check.rank].refreshed, m_timing.RFC, "tRFC");
  apply(check);
}

// The checks of one command kind and apply() are inlined into check_and_apply(): as calls, saving
// and restoring registers cost about as much as their rules.
__attribute__((always_inline)) inline void DramProtocolChecker::check_address(
    const Check& check) const {
  const DramAddress& address = check.address;
  if (check.rank >= m_geometry.ranks) {
    check.fail("rank " + std::to_string(check.rank) + " does not exist (" +
               std::to_string(m_geometry.ranks) + " ranks)");
  }
  if (is_rank_command(check.command)) return;
  if (check.bank >= m_geometry.banks()) {
    check.fail("bank " + std::to_string(check.bank) + " does not exist (" +
               std::to_string(m_geometry.banks()) + " banks per rank)");
  }
  if (index(address.bank_group) != check.group) {
    check.fail("bank " + std::to_string(check.bank) + " is in bank group " +
               std::to_string(check.group) + ", not " + std::to_string(index(address.bank_group)));
  }
  if (names_row(check.command) && index(address.row) >= m_geometry.rows) {
    check.fail("row " + std::to_string(index(address.row)) + " does not exist (" +
               std::to_string(m_geometry.rows) + " rows)");
  }
  if (is_column(check.command) && index(address.column) >= m_geometry.columns) {
    check.fail("column " + std::to_string(index(address.column)) + " does not exist (" +
               std::to_string(m_geometry.columns) + " columns)");
  }
}

__attribute__((always_inline)) inline void DramProtocolChecker::check_activate(
    const Check& check) const {
  const RankState& rank = m_ranks[check.rank];
  const BankState& bank = rank.banks[check.bank];
  if (bank.open) check.fail("row " + std::to_string(index(bank.row)) + " is already open");

  check.require_after(bank.precharged, m_timing.RP, "tRP");
  check.require_after(bank.activated, m_timing.RC, "tRC");
  // No group's ACT is later than the rank's latest: past it by both tRRDs, none can fail.
  const Time latest =
      rank.activates == 0 ? never : Time(rank.recent_activates[(rank.activates - 1) % 4]);
  if (Time(check.cycle) < latest + Time(std::max(m_timing.RRD_L, m_timing.RRD_S))) {
    for (uint32_t group = 0; group < m_geometry.bank_groups; ++group) {
      const bool same = group == check.group;
      check.require_after(rank.groups[group].activated, same ? m_timing.RRD_L : m_timing.RRD_S,
                          same ? "tRRD_L" : "tRRD_S");
    }
  }
  if (rank.activates >= 4) {
    // The oldest of the last four, about to be overwritten by this one.
    check.require_after(Time(rank.recent_activates[rank.activates % 4]), m_timing.FAW, "tFAW");
  }
}

__attribute__((always_inline)) inline void DramProtocolChecker::check_precharge(
    const Check& check, uint32_t bank_index) const {
  const BankState& bank = m_ranks[check.rank].banks[bank_index];
  if (!bank.open) return;  // precharging an idle bank is a no-op
  const int of_bank = check.command == DdrCommand::PREA ? int(bank_index) : -1;
  check.require_after(bank.activated, m_timing.RAS, "tRAS", of_bank);
  check.require_after(bank.last_read, m_timing.RTP, "tRTP", of_bank);
  check.require_after(bank.last_write, uint64_t{m_timing.CWL} + m_timing.BURST + m_timing.WR, "tWR",
                      of_bank);
}

__attribute__((always_inline)) inline void DramProtocolChecker::check_column(
    const Check& check) const {
  const RankState& rank = m_ranks[check.rank];
  const BankState& bank = rank.banks[check.bank];
  if (!bank.open) check.fail("bank is closed");
  if (bank.row != check.address.row) {
    check.fail("row " + std::to_string(index(bank.row)) + " is open, not " +
               std::to_string(index(check.address.row)));
  }
  check.require_after(bank.activated, m_timing.RCD, "tRCD");

  const GroupState& same_group = rank.groups[check.group];
  if (is_read(check.command)) {
    check.require_after(same_group.last_read, m_timing.CCD_L, "tCCD_L");
    check.require_after(rank.last_read, m_timing.CCD_S, "tCCD_S");
    // Write-to-read counts from the end of the write burst.
    const uint64_t write_end = uint64_t{m_timing.CWL} + m_timing.BURST;
    // No group's write is later than the rank's latest: past it by both tWTRs, none can fail.
    if (Time(check.cycle) <
        rank.last_write + Time(write_end + std::max(m_timing.WTR_L, m_timing.WTR_S))) {
      for (uint32_t group = 0; group < m_geometry.bank_groups; ++group) {
        const bool same = group == check.group;
        check.require_after(rank.groups[group].last_write,
                            write_end + (same ? m_timing.WTR_L : m_timing.WTR_S),
                            same ? "tWTR_L" : "tWTR_S");
      }
    }
  } else {
    check.require_after(same_group.last_write, m_timing.CCD_L, "tCCD_L");
    check.require_after(rank.last_write, m_timing.CCD_S, "tCCD_S");
    check.require_after(rank.last_read, m_timing.RTW(), "tRTW");
  }
  if (check.command == DdrCommand::RDA) {
    // Its precharge starts tRTP after it and must not cut the write recovery short.
    const uint64_t recovery = uint64_t{m_timing.CWL} + m_timing.BURST + m_timing.WR;
    check.require_after(bank.last_write, recovery > m_timing.RTP ? recovery - m_timing.RTP : 0,
                        "tWR before the precharge of RDA");
  }
  check_data_bus(check);
}

__attribute__((always_inline)) inline void DramProtocolChecker::check_data_bus(
    const Check& check) const {
  const uint64_t latency = is_read(check.command) ? m_timing.CL : m_timing.CWL;
  if (check.cycle + latency >= m_bursts_end[check.rank]) return;  // after every burst so far
  check_data_bus_overlap(check, latency);
}

void DramProtocolChecker::check_data_bus_overlap(const Check& check, uint64_t latency) const {
  const Burst* conflict = nullptr;
  // Slide the burst past every burst it meets, to report the cycle this rule first allows.
  uint64_t earliest = check.cycle;
  for (bool moved = true; moved;) {
    moved = false;
    const uint64_t start = earliest + latency;
    const uint64_t end = start + m_timing.BURST;
    for (const Burst& other : m_bursts) {
      const uint64_t gap = other.rank == check.rank ? 0 : m_timing.RTRS;
      if (start < other.end + gap && other.start < end + gap) {
        if (!conflict) conflict = &other;
        earliest = other.end + gap - latency;
        moved = true;
        break;
      }
    }
  }
  if (conflict) {
    check.fail("data bus overlap with the " + std::string(to_string(conflict->command)) +
               " burst of rank " + std::to_string(conflict->rank) + " at cycles [" +
               std::to_string(conflict->start) + ", " + std::to_string(conflict->end) +
               ") (earliest cycle " + std::to_string(earliest) + ")");
  }
}

void DramProtocolChecker::check_refresh(const Check& check) const {
  const RankState& rank = m_ranks[check.rank];
  for (uint32_t bank_index = 0; bank_index < m_geometry.banks(); ++bank_index) {
    const BankState& bank = rank.banks[bank_index];
    if (bank.open) {
      check.fail("bank " + std::to_string(bank_index) + " is open (row " +
                 std::to_string(index(bank.row)) + ")");
    }
    check.require_after(bank.precharged, m_timing.RP, "tRP", int(bank_index));
  }
}

__attribute__((always_inline)) inline void DramProtocolChecker::apply(const Check& check) {
  const uint64_t t = check.cycle;
  RankState& rank = m_ranks[check.rank];
  switch (check.command) {
    case DdrCommand::ACT: {
      BankState& bank = rank.banks[check.bank];
      bank.open = true;
      bank.row = check.address.row;
      bank.activated = t;
      rank.groups[check.group].activated = t;
      rank.recent_activates[rank.activates % 4] = t;
      ++rank.activates;
      break;
    }
    case DdrCommand::PRE:
    case DdrCommand::PREA: {
      const bool all = check.command == DdrCommand::PREA;
      for (uint32_t bank_index = all ? 0 : check.bank;
           bank_index < (all ? m_geometry.banks() : check.bank + 1); ++bank_index) {
        BankState& bank = rank.banks[bank_index];
        if (bank.open) {
          bank.open = false;
          bank.precharged = t;
        }
      }
      break;
    }
    case DdrCommand::RD:
    case DdrCommand::WR:
    case DdrCommand::RDA:
    case DdrCommand::WRA: {
      BankState& bank = rank.banks[check.bank];
      GroupState& group = rank.groups[check.group];
      const bool read = is_read(check.command);
      (read ? bank.last_read : bank.last_write) = t;
      (read ? group.last_read : group.last_write) = t;
      (read ? rank.last_read : rank.last_write) = t;

      // A burst can no longer collide once it has left the bus, RTRS included: every later
      // burst starts at or after the current cycle. Such bursts do no harm while kept, so they
      // are dropped only now and then.
      if (m_bursts.size() >= 16) {
        m_bursts.erase(std::remove_if(m_bursts.begin(), m_bursts.end(),
                                      [&](const Burst& b) { return b.end + m_timing.RTRS <= t; }),
                       m_bursts.end());
      }
      const uint64_t start = t + (read ? m_timing.CL : m_timing.CWL);
      m_bursts.push_back({start, start + m_timing.BURST, check.rank, check.command});
      for (uint32_t rank = 0; rank < m_bursts_end.size(); ++rank) {
        const uint64_t gap = rank == check.rank ? 0 : m_timing.RTRS;
        m_bursts_end[rank] = std::max(m_bursts_end[rank], start + m_timing.BURST + gap);
      }

      if (has_auto_precharge(check.command)) {
        const uint64_t ready =
            read ? t + m_timing.RTP : t + m_timing.CWL + m_timing.BURST + m_timing.WR;
        bank.open = false;
        bank.precharged = std::max(Time(ready), bank.activated + Time(m_timing.RAS));
      }
      break;
    }
    case DdrCommand::REF:
      rank.refreshed = t;
      ++rank.refresh_count;
      break;
  }
  m_last_cycle = t;
  ++m_commands_checked;
}

const DramProtocolChecker::RankState& DramProtocolChecker::rank_state(Rank rank) const {
  return m_ranks.at(index(rank));
}

bool DramProtocolChecker::is_open(Rank rank, Bank bank) const {
  return rank_state(rank).banks.at(index(bank)).open;
}

Row DramProtocolChecker::open_row(Rank rank, Bank bank) const {
  const BankState& state = rank_state(rank).banks.at(index(bank));
  if (!state.open) {
    throw std::logic_error("DRAM protocol checker: open_row of closed bank " +
                           std::to_string(index(bank)) + " in rank " + std::to_string(index(rank)));
  }
  return state.row;
}

uint64_t DramProtocolChecker::refreshes(Rank rank) const {
  return rank_state(rank).refresh_count;
}

std::optional<uint64_t> DramProtocolChecker::last_refresh(Rank rank) const {
  const Time refreshed = rank_state(rank).refreshed;
  if (refreshed == never) return std::nullopt;
  return uint64_t(refreshed);
}

}  // namespace ohmvp
