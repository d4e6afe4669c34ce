#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "modules/memory/dram_config.h"
#include "tlm_protocols/ddr_protocol.h"

namespace ohmvp {

// The controller's view of DRAM timing: for every command, the earliest cycle at which it may
// issue given all commands issued so far. Push style: issuing a command raises the "next
// allowed" cycle of the commands it constrains, so earliest() is a handful of max()es.
class TimingChecker {
 public:
  TimingChecker(const DramGeometry& geometry, const DramTiming& timing);

  // Inline: the scheduler asks this for every busy bank before each command.
  uint64_t earliest(DdrCommand command, const DramAddress& a) const {
    const RankNext& rank = m_ranks[index(a.rank)];
    switch (command) {
      case DdrCommand::ACT: {
        uint64_t t = std::max({bank(a).act, m_groups[group_slot(a)].act, rank.act});
        if (rank.act_count >= 4) {
          t = std::max(t, rank.recent_acts[rank.act_count % 4] + m_timing.FAW);
        }
        return t;
      }
      case DdrCommand::PRE:
        return bank(a).pre;
      case DdrCommand::RD:
      case DdrCommand::RDA:
        return std::max({bank_earliest(command, a), m_groups[group_slot(a)].rd, rank.rd,
                         data_bus_ready(a.rank, m_timing.CL)});
      case DdrCommand::WR:
      case DdrCommand::WRA:
        return std::max({bank(a).wr, m_groups[group_slot(a)].wr, rank.wr,
                         data_bus_ready(a.rank, m_timing.CWL)});
      case DdrCommand::PREA:
      case DdrCommand::REF:
        break;
    }
    return rank_wide_earliest(command, a.rank);
  }
  void record(DdrCommand command, const DramAddress& address, uint64_t cycle);

  // The part of earliest() that only commands to this bank (or to its whole rank) change: a
  // lower bound that stays valid until the bank's next command.
  uint64_t bank_earliest(DdrCommand command, const DramAddress& a) const {
    const BankNext& b = bank(a);
    switch (command) {
      case DdrCommand::ACT:
        return b.act;
      case DdrCommand::PRE:
        return b.pre;
      case DdrCommand::RD:
        return b.rd;
      case DdrCommand::RDA:
        return std::max(b.rd, b.rda);
      case DdrCommand::WR:
      case DdrCommand::WRA:
        return b.wr;
      case DdrCommand::PREA:
      case DdrCommand::REF:
        break;
    }
    return 0;
  }

  // The rest of earliest() for a command to one bank (ACT, PRE, RD, WR and their auto-precharge
  // forms): the bounds that commands to other banks set through the bank group, the rank and the
  // data bus, so that earliest() == max(bank_earliest(), shared_earliest()). A scheduler asking
  // for every busy bank fetches shared_table() once and reads entry shared_index() of each.
  uint64_t shared_earliest(DdrCommand command, const DramAddress& a) const {
    if (command == DdrCommand::PREA || command == DdrCommand::REF) return earliest(command, a);
    return shared_table()[shared_index(command, a)];
  }
  size_t shared_index(DdrCommand command, const DramAddress& a) const {
    size_t kind = 3;  // PRE: nothing outside its bank bounds it
    if (command == DdrCommand::ACT) {
      kind = 0;
    } else if (is_column(command)) {
      kind = is_read(command) ? 1 : 2;
    }
    return group_slot(a) * 4 + kind;
  }
  // Kept up to date by record(), for the entries each command changes.
  const uint64_t* shared_table() const { return m_shared.data(); }

  const DramTiming& timing() const { return m_timing; }

 private:
  struct BankNext {
    uint64_t act = 0, pre = 0, rd = 0, wr = 0;
    // RDA also waits for write recovery: its precharge follows it by tRTP and would cut tWR short.
    uint64_t rda = 0;
  };
  struct GroupNext {
    uint64_t act = 0, rd = 0, wr = 0;
  };
  struct RankNext {
    uint64_t act = 0, rd = 0, wr = 0, ref = 0;
    std::array<uint64_t, 4> recent_acts{};  // ring of the last four ACT cycles, for tFAW
    uint32_t act_count = 0;
  };

  BankNext& bank(const DramAddress& a) { return m_banks[bank_slot(a)]; }
  const BankNext& bank(const DramAddress& a) const { return m_banks[bank_slot(a)]; }
  size_t bank_slot(const DramAddress& a) const {
    return size_t(index(a.rank)) * m_geometry.banks() + index(a.bank);
  }
  size_t group_slot(const DramAddress& a) const {
    return size_t(index(a.rank)) * m_geometry.bank_groups + index(a.bank_group);
  }
  uint64_t data_bus_ready(Rank rank, uint32_t data_delay) const {
    const uint64_t free = m_bus_free + (index(rank) != m_bus_rank ? m_timing.RTRS : 0);
    return free > data_delay ? free - data_delay : 0;
  }
  uint64_t rank_wide_earliest(DdrCommand command, Rank rank) const;  // PREA and REF
  void update_shared_act(uint32_t rank);
  void update_shared_columns();
  void occupy_data_bus(Rank rank, uint64_t burst_start);
  void precharge_at(BankNext& bank, uint64_t cycle);

  DramGeometry m_geometry;
  DramTiming m_timing;
  std::vector<BankNext> m_banks;
  std::vector<GroupNext> m_groups;
  std::vector<RankNext> m_ranks;
  // shared_earliest() per bank group (as m_groups): ACT, RD, WR, and 0 for PRE.
  std::vector<uint64_t> m_shared;
  uint64_t m_bus_free = 0;  // first cycle after the last data burst
  uint32_t m_bus_rank = 0;
};

}  // namespace ohmvp
