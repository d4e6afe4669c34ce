#include "modules/memory/timing_checker.h"

#include <algorithm>

namespace ohmvp {

TimingChecker::TimingChecker(const DramGeometry& geometry, const DramTiming& timing)
    : m_geometry(geometry),
      m_timing(timing),
      m_banks(geometry.total_banks()),
      m_groups(size_t(geometry.ranks) * geometry.bank_groups),
      m_ranks(geometry.ranks),
      m_shared(m_groups.size() * 4) {
  // Not all 0 before the first command: the data bus bounds other ranks by tRTRS from the start.
  for (uint32_t r = 0; r < geometry.ranks; ++r) update_shared_act(r);
  update_shared_columns();
}

void TimingChecker::update_shared_act(uint32_t r) {
  const RankNext& rank = m_ranks[r];
  uint64_t act = rank.act;
  if (rank.act_count >= 4) act = std::max(act, rank.recent_acts[rank.act_count % 4] + m_timing.FAW);
  const size_t first = size_t(r) * m_geometry.bank_groups;
  for (size_t g = first; g < first + m_geometry.bank_groups; ++g) {
    m_shared[g * 4] = std::max(m_groups[g].act, act);
  }
}

void TimingChecker::update_shared_columns() {
  // Every rank's: the data bus bounds them all (with tRTRS between ranks). Through local
  // pointers and counts, which the stores into the table would otherwise make reload.
  const uint32_t ranks = m_geometry.ranks;
  const uint32_t groups = m_geometry.bank_groups;
  const GroupNext* group = m_groups.data();
  uint64_t* shared = m_shared.data();
  for (uint32_t r = 0; r < ranks; ++r) {
    const RankNext& rank = m_ranks[r];
    const uint64_t rd = std::max(rank.rd, data_bus_ready(Rank{r}, m_timing.CL));
    const uint64_t wr = std::max(rank.wr, data_bus_ready(Rank{r}, m_timing.CWL));
    for (uint32_t g = 0; g < groups; ++g, ++group, shared += 4) {
      shared[1] = std::max(group->rd, rd);
      shared[2] = std::max(group->wr, wr);
    }
  }
}

uint64_t TimingChecker::rank_wide_earliest(DdrCommand command, Rank rank_id) const {
  const RankNext& rank = m_ranks[index(rank_id)];
  uint64_t t = command == DdrCommand::REF ? rank.ref : 0;
  const size_t first = size_t(index(rank_id)) * m_geometry.banks();
  for (size_t b = first; b < first + m_geometry.banks(); ++b) {
    t = std::max(t, command == DdrCommand::REF ? m_banks[b].act : m_banks[b].pre);
  }
  return t;
}

void TimingChecker::occupy_data_bus(Rank rank, uint64_t burst_start) {
  m_bus_free = burst_start + m_timing.BURST;
  m_bus_rank = index(rank);
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
      update_shared_act(index(a.rank));
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
      update_shared_columns();
      break;
    }
    case DdrCommand::WR:
    case DdrCommand::WRA: {
      BankNext& b = bank(a);
      const uint64_t burst_end = t + T.CWL + T.BURST;
      b.pre = std::max(b.pre, burst_end + T.WR);
      b.rda = std::max(b.rda, burst_end + T.WR > T.RTP ? burst_end + T.WR - T.RTP : 0);
      GroupNext& g = m_groups[group_slot(a)];
      g.wr = std::max(g.wr, t + T.CCD_L);
      g.rd = std::max(g.rd, burst_end + T.WTR_L);
      rank.wr = std::max(rank.wr, t + T.CCD_S);
      rank.rd = std::max(rank.rd, burst_end + T.WTR_S);
      occupy_data_bus(a.rank, t + T.CWL);
      if (command == DdrCommand::WRA) precharge_at(b, b.pre);
      update_shared_columns();
      break;
    }
    case DdrCommand::REF: {
      rank.ref = t + T.RFC;
      rank.act = std::max(rank.act, t + T.RFC);
      const size_t first = size_t(index(a.rank)) * m_geometry.banks();
      for (size_t b = first; b < first + m_geometry.banks(); ++b) {
        m_banks[b].act = std::max(m_banks[b].act, t + T.RFC);
      }
      update_shared_act(index(a.rank));
      break;
    }
  }
}

}  // namespace ohmvp
