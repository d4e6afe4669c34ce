#include "modules/memory/timing_checker.h"

#include <algorithm>

namespace ohmvp {

TimingChecker::TimingChecker(const DramGeometry& geometry, const DramTiming& timing)
    : m_geometry(geometry),
      m_timing(timing),
      m_banks(geometry.total_banks()),
      m_groups(size_t(geometry.ranks) * geometry.bank_groups),
      m_ranks(geometry.ranks) {}

uint64_t TimingChecker::data_bus_ready(Rank rank, uint32_t data_delay) const {
  uint64_t free = m_bus_free + (index(rank) != m_bus_rank ? m_timing.RTRS : 0);
  return free > data_delay ? free - data_delay : 0;
}

void TimingChecker::occupy_data_bus(Rank rank, uint64_t burst_start) {
  m_bus_free = burst_start + m_timing.BURST;
  m_bus_rank = index(rank);
}

uint64_t TimingChecker::earliest(DdrCommand command, const DramAddress& a) const {
  const RankNext& rank = m_ranks[index(a.rank)];
  switch (command) {
    case DdrCommand::ACT: {
      uint64_t t = std::max({bank(a).act, m_groups[group_slot(a)].act, rank.act});
      if (rank.act_count >= 4) t = std::max(t, rank.recent_acts[rank.act_count % 4] + m_timing.FAW);
      return t;
    }
    case DdrCommand::PRE:
      return bank(a).pre;
    case DdrCommand::RD:
    case DdrCommand::RDA:
      return std::max({bank(a).rd, m_groups[group_slot(a)].rd, rank.rd,
                       data_bus_ready(a.rank, m_timing.CL)});
    case DdrCommand::WR:
    case DdrCommand::WRA:
      return std::max({bank(a).wr, m_groups[group_slot(a)].wr, rank.wr,
                       data_bus_ready(a.rank, m_timing.CWL)});
    case DdrCommand::PREA:
    case DdrCommand::REF: {
      uint64_t t = command == DdrCommand::REF ? rank.ref : 0;
      const size_t first = size_t(index(a.rank)) * m_geometry.banks();
      for (size_t b = first; b < first + m_geometry.banks(); ++b) {
        t = std::max(t, command == DdrCommand::REF ? m_banks[b].act : m_banks[b].pre);
      }
      return t;
    }
  }
  return 0;
}

void TimingChecker::precharge_at(BankNext& bank, uint64_t cycle) {
  bank.act = std::max(bank.act, cycle + m_timing.RP);
}

void TimingChecker::record(DdrCommand command, const DramAddress& a, uint64_t t) {
  const DramTiming& T = m_timing;
  RankNext& rank = m_ranks[index(a.rank)];
  switch (command) {
    case DdrCommand::ACT: {
      BankNext& b = bank(a);
      b.act = std::max(b.act, t + T.RC);
      b.pre = std::max(b.pre, t + T.RAS);
      b.rd = std::max(b.rd, t + T.RCD);
      b.wr = std::max(b.wr, t + T.RCD);
      GroupNext& g = m_groups[group_slot(a)];
      g.act = std::max(g.act, t + T.RRD_L);
      rank.act = std::max(rank.act, t + T.RRD_S);
      rank.recent_acts[rank.act_count % 4] = t;
      ++rank.act_count;
      break;
    }
    case DdrCommand::PRE:
      precharge_at(bank(a), t);
      break;
    case DdrCommand::PREA: {
      const size_t first = size_t(index(a.rank)) * m_geometry.banks();
      for (size_t b = first; b < first + m_geometry.banks(); ++b) precharge_at(m_banks[b], t);
      break;
    }
    case DdrCommand::RD:
    case DdrCommand::RDA: {
      BankNext& b = bank(a);
      b.pre = std::max(b.pre, t + T.RTP);
      GroupNext& g = m_groups[group_slot(a)];
      g.rd = std::max(g.rd, t + T.CCD_L);
      rank.rd = std::max(rank.rd, t + T.CCD_S);
      rank.wr = std::max(rank.wr, t + T.RTW());
      occupy_data_bus(a.rank, t + T.CL);
      if (command == DdrCommand::RDA) precharge_at(b, b.pre);
      break;
    }
    case DdrCommand::WR:
    case DdrCommand::WRA: {
      BankNext& b = bank(a);
      const uint64_t burst_end = t + T.CWL + T.BURST;
      b.pre = std::max(b.pre, burst_end + T.WR);
      GroupNext& g = m_groups[group_slot(a)];
      g.wr = std::max(g.wr, t + T.CCD_L);
      g.rd = std::max(g.rd, burst_end + T.WTR_L);
      rank.wr = std::max(rank.wr, t + T.CCD_S);
      rank.rd = std::max(rank.rd, burst_end + T.WTR_S);
      occupy_data_bus(a.rank, t + T.CWL);
      if (command == DdrCommand::WRA) precharge_at(b, b.pre);
      break;
    }
    case DdrCommand::REF: {
      rank.ref = t + T.RFC;
      rank.act = std::max(rank.act, t + T.RFC);
      const size_t first = size_t(index(a.rank)) * m_geometry.banks();
      for (size_t b = first; b < first + m_geometry.banks(); ++b) {
        m_banks[b].act = std::max(m_banks[b].act, t + T.RFC);
      }
      break;
    }
  }
}

}  // namespace ohmvp

