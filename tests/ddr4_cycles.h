#pragma once

#include "modules/memory/dram_config.h"
#include "tlm_protocols/ddr_protocol.h"

namespace ohmvp {

// DDR4-2400 (JESD79-4, 16-16-16, 8 Gb x8) in cycles of tCK = 0.833 ns, as the tests use it;
// RTW() = 16 + 4 + 2 - 12 = 10.
inline DramTiming ddr4_2400_cycles() {
  DramTiming t;
  t.tCK_ps = 833;
  t.CL = 16, t.CWL = 12, t.RCD = 16, t.RP = 16, t.RAS = 39, t.RC = 55;
  t.RRD_S = 4, t.RRD_L = 6, t.FAW = 26, t.CCD_S = 4, t.CCD_L = 6;
  t.WR = 18, t.WTR_S = 3, t.WTR_L = 9, t.RTP = 9, t.REFI = 9364, t.RFC = 420, t.RTRS = 1;
  t.BURST = 4;
  return t;
}

// Four bank groups of four banks per rank.
inline DramGeometry ddr4_geometry(uint32_t ranks) {
  DramGeometry g;
  g.ranks = ranks;
  g.bank_groups = 4;
  g.banks_per_group = 4;
  return g;
}

// A bank of ddr4_geometry: bank group, bank inside the group, row, rank.
inline DramAddress ddr4_address(uint32_t group, uint32_t bank_in_group, uint32_t row,
                                uint32_t rank) {
  DramAddress a;
  a.rank = Rank{rank};
  a.bank_group = BankGroup{group};
  a.bank = Bank{group * 4 + bank_in_group};
  a.row = Row{row};
  return a;
}

}  // namespace ohmvp
