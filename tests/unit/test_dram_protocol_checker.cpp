#include <catch2/catch.hpp>

#include "tests/ddr4_cycles.h"

#include "modules/common/errors.h"
#include "modules/memory/dram_protocol_checker.h"

using namespace ohmvp;
using Catch::Matchers::Contains;
using Catch::Matchers::EndsWith;

namespace {

DramGeometry geometry(uint32_t ranks = 1) {
  return ddr4_geometry(ranks);
}

DramAddress at(uint32_t group, uint32_t bank_in_group, uint32_t row = 5, uint32_t rank = 0) {
  return ddr4_address(group, bank_in_group, row, rank);
}

// One cycle early must fail naming the rule and the earliest cycle; exactly on time passes.
void require_earliest(DramProtocolChecker& checker, DdrCommand command, const DramAddress& address,
                      uint64_t earliest, const std::string& rule) {
  REQUIRE_THROWS_WITH(
      checker.check_and_apply(command, address, earliest - 1),
      Contains(": " + rule + " ") && EndsWith("(earliest cycle " + std::to_string(earliest) + ")"));
  REQUIRE_NOTHROW(checker.check_and_apply(command, address, earliest));
}

using C = DdrCommand;

}  // namespace

TEST_CASE("dram checker: tRCD before read and write") {
  DramProtocolChecker checker(geometry(), ddr4_2400_cycles());
  checker.check_and_apply(C::ACT, at(0, 0), 0);
  SECTION("read") {
    REQUIRE_THROWS_WITH(checker.check_and_apply(C::RD, at(0, 0), 15),
                        "DRAM protocol violation at cycle 15: RD rank 0 bank group 0 bank 0 "
                        "row 5: tRCD (earliest cycle 16)");
    REQUIRE_NOTHROW(checker.check_and_apply(C::RD, at(0, 0), 16));
  }
  SECTION("write") {
    require_earliest(checker, C::WR, at(0, 0), 16, "tRCD");
  }
}

TEST_CASE("dram checker: tRP from PRE to ACT") {
  DramProtocolChecker checker(geometry(), ddr4_2400_cycles());
  checker.check_and_apply(C::ACT, at(0, 0), 0);
  checker.check_and_apply(C::PRE, at(0, 0), 50);
  require_earliest(checker, C::ACT, at(0, 0, 6), 66, "tRP");
}

TEST_CASE("dram checker: tRC between ACTs to a bank") {
  DramTiming timing = ddr4_2400_cycles();
  timing.RC = 60;  // DDR4 has RC = RAS + RP exactly; widen it so tRC alone decides
  DramProtocolChecker checker(geometry(), timing);
  checker.check_and_apply(C::ACT, at(0, 0), 0);
  checker.check_and_apply(C::PRE, at(0, 0), 39);
  require_earliest(checker, C::ACT, at(0, 0), 60, "tRC");
}

TEST_CASE("dram checker: tRRD_L and tRRD_S") {
  DramProtocolChecker checker(geometry(2), ddr4_2400_cycles());
  checker.check_and_apply(C::ACT, at(0, 0), 0);
  SECTION("same bank group") {
    require_earliest(checker, C::ACT, at(0, 1), 6, "tRRD_L");
  }
  SECTION("other bank group") {
    require_earliest(checker, C::ACT, at(1, 0), 4, "tRRD_S");
  }
  SECTION("other rank is not constrained") {
    REQUIRE_NOTHROW(checker.check_and_apply(C::ACT, at(0, 0, 5, 1), 1));
  }
}

TEST_CASE("dram checker: tFAW allows four ACTs per window") {
  DramProtocolChecker checker(geometry(), ddr4_2400_cycles());
  checker.check_and_apply(C::ACT, at(0, 0), 0);
  checker.check_and_apply(C::ACT, at(1, 0), 4);
  checker.check_and_apply(C::ACT, at(2, 0), 8);
  checker.check_and_apply(C::ACT, at(3, 0), 12);
  require_earliest(checker, C::ACT, at(0, 1), 26, "tFAW");
}

TEST_CASE("dram checker: tRFC after REF") {
  DramProtocolChecker checker(geometry(2), ddr4_2400_cycles());
  checker.check_and_apply(C::REF, at(0, 0), 0);
  SECTION("ACT") {
    require_earliest(checker, C::ACT, at(0, 0), 420, "tRFC");
  }
  SECTION("REF") {
    require_earliest(checker, C::REF, at(0, 0), 420, "tRFC");
    REQUIRE(checker.refreshes(Rank{0}) == 2);
    REQUIRE(checker.last_refresh(Rank{0}) == 420u);
    REQUIRE(checker.refreshes(Rank{1}) == 0);
    REQUIRE_FALSE(checker.last_refresh(Rank{1}));
  }
  SECTION("other rank is not constrained") {
    REQUIRE_NOTHROW(checker.check_and_apply(C::ACT, at(0, 0, 5, 1), 1));
  }
}

TEST_CASE("dram checker: tCCD_L and tCCD_S") {
  DramProtocolChecker checker(geometry(), ddr4_2400_cycles());
  checker.check_and_apply(C::ACT, at(0, 0), 0);
  checker.check_and_apply(C::ACT, at(0, 1), 6);
  checker.check_and_apply(C::ACT, at(1, 0), 12);
  SECTION("reads") {
    checker.check_and_apply(C::RD, at(0, 0), 30);
    require_earliest(checker, C::RD, at(0, 1), 36, "tCCD_L");
    require_earliest(checker, C::RD, at(1, 0), 40, "tCCD_S");
  }
  SECTION("writes") {
    checker.check_and_apply(C::WR, at(0, 0), 30);
    require_earliest(checker, C::WR, at(0, 1), 36, "tCCD_L");
    require_earliest(checker, C::WR, at(1, 0), 40, "tCCD_S");
  }
}

TEST_CASE("dram checker: tWTR_L and tWTR_S count from the end of the write burst") {
  DramProtocolChecker checker(geometry(), ddr4_2400_cycles());
  checker.check_and_apply(C::ACT, at(0, 0), 0);
  checker.check_and_apply(C::ACT, at(0, 1), 6);
  checker.check_and_apply(C::ACT, at(1, 0), 12);
  checker.check_and_apply(C::WR, at(0, 0), 28);  // burst ends at 28 + 12 + 4 = 44
  SECTION("same bank group") {
    require_earliest(checker, C::RD, at(0, 1), 53, "tWTR_L");
  }
  SECTION("other bank group") {
    require_earliest(checker, C::RD, at(1, 0), 47, "tWTR_S");
  }
}

TEST_CASE("dram checker: tRTW from read to write") {
  DramProtocolChecker checker(geometry(), ddr4_2400_cycles());
  checker.check_and_apply(C::ACT, at(0, 0), 0);
  checker.check_and_apply(C::ACT, at(1, 0), 4);
  checker.check_and_apply(C::RD, at(0, 0), 20);
  SECTION("same bank") {
    require_earliest(checker, C::WR, at(0, 0), 30, "tRTW");
  }
  SECTION("other bank group") {
    require_earliest(checker, C::WR, at(1, 0), 30, "tRTW");
  }
}

TEST_CASE("dram checker: tRAS, tRTP and tWR before PRE") {
  DramProtocolChecker checker(geometry(), ddr4_2400_cycles());
  checker.check_and_apply(C::ACT, at(0, 0), 0);
  SECTION("tRAS") {
    require_earliest(checker, C::PRE, at(0, 0), 39, "tRAS");
  }
  SECTION("tRTP") {
    checker.check_and_apply(C::RD, at(0, 0), 35);
    require_earliest(checker, C::PRE, at(0, 0), 44, "tRTP");
  }
  SECTION("tWR") {
    checker.check_and_apply(C::WR, at(0, 0), 16);
    require_earliest(checker, C::PRE, at(0, 0), 50, "tWR");
  }
  REQUIRE_FALSE(checker.is_open(Rank{0}, Bank{0}));
}

TEST_CASE("dram checker: PREA checks every open bank of the rank") {
  DramProtocolChecker checker(geometry(), ddr4_2400_cycles());
  checker.check_and_apply(C::ACT, at(0, 0), 0);
  SECTION("tWR of one bank") {
    checker.check_and_apply(C::ACT, at(1, 0), 4);
    checker.check_and_apply(C::WR, at(1, 0), 20);
    require_earliest(checker, C::PREA, at(0, 0), 54, "tWR of bank 4");
  }
  SECTION("tRAS of one bank") {
    checker.check_and_apply(C::ACT, at(1, 0), 10);
    require_earliest(checker, C::PREA, at(0, 0), 49, "tRAS of bank 4");
  }
  REQUIRE_FALSE(checker.is_open(Rank{0}, Bank{0}));
  REQUIRE_FALSE(checker.is_open(Rank{0}, Bank{4}));
}

TEST_CASE("dram checker: PRE to a closed bank is a no-op") {
  DramProtocolChecker checker(geometry(), ddr4_2400_cycles());
  REQUIRE_NOTHROW(checker.check_and_apply(C::PRE, at(0, 0), 0));
  checker.check_and_apply(C::ACT, at(0, 0), 1);
  checker.check_and_apply(C::PRE, at(0, 0), 50);
  checker.check_and_apply(C::PRE, at(0, 0), 60);  // does not restart tRP
  require_earliest(checker, C::ACT, at(0, 0), 66, "tRP");
  REQUIRE(checker.commands_checked() == 5);
}

TEST_CASE("dram checker: REF waits tRP after the last precharge") {
  DramProtocolChecker checker(geometry(), ddr4_2400_cycles());
  checker.check_and_apply(C::ACT, at(0, 0), 0);
  checker.check_and_apply(C::PRE, at(0, 0), 39);
  require_earliest(checker, C::REF, at(0, 0), 55, "tRP of bank 0");
  REQUIRE(checker.refreshes(Rank{0}) == 1);
}

TEST_CASE("dram checker: state errors") {
  DramProtocolChecker checker(geometry(), ddr4_2400_cycles());
  checker.check_and_apply(C::ACT, at(1, 1), 0);
  REQUIRE(checker.is_open(Rank{0}, Bank{5}));
  REQUIRE(checker.open_row(Rank{0}, Bank{5}) == Row{5});

  SECTION("ACT to an open bank") {
    REQUIRE_THROWS_WITH(checker.check_and_apply(C::ACT, at(1, 1, 6), 100),
                        EndsWith(": row 5 is already open"));
  }
  SECTION("RD to a closed bank") {
    REQUIRE_THROWS_WITH(checker.check_and_apply(C::RD, at(0, 0), 100),
                        EndsWith("RD rank 0 bank group 0 bank 0 row 5: bank is closed"));
  }
  SECTION("WR to a closed bank") {
    REQUIRE_THROWS_WITH(checker.check_and_apply(C::WR, at(0, 0), 100),
                        EndsWith(": bank is closed"));
  }
  SECTION("RD to the wrong row") {
    REQUIRE_THROWS_WITH(checker.check_and_apply(C::RD, at(1, 1, 6), 20),
                        "DRAM protocol violation at cycle 20: RD rank 0 bank group 1 bank 5 "
                        "row 6: row 5 is open, not 6");
  }
  SECTION("REF with an open bank") {
    REQUIRE_THROWS_WITH(checker.check_and_apply(C::REF, at(0, 0), 100),
                        "DRAM protocol violation at cycle 100: REF rank 0: bank 5 is open "
                        "(row 5)");
  }
  SECTION("two commands in one clock cycle") {
    REQUIRE_THROWS_WITH(checker.check_and_apply(C::ACT, at(2, 0), 0),
                        "DRAM protocol violation at cycle 0: ACT rank 0 bank group 2 bank 8 row 5: "
                        "a second command in one clock cycle");
  }
  SECTION("time going backwards") {
    checker.check_and_apply(C::ACT, at(2, 0), 10);
    REQUIRE_THROWS_WITH(checker.check_and_apply(C::ACT, at(3, 0), 9),
                        EndsWith(": time went backwards (previous command at cycle 10)"));
  }
  // A rejected command leaves the state as it was.
  REQUIRE(checker.is_open(Rank{0}, Bank{5}));
  REQUIRE(checker.open_row(Rank{0}, Bank{5}) == Row{5});
}

TEST_CASE("dram checker: address errors") {
  DramProtocolChecker checker(geometry(), ddr4_2400_cycles());
  DramAddress address = at(0, 0);
  SECTION("rank") {
    address.rank = Rank{1};
    REQUIRE_THROWS_WITH(checker.check_and_apply(C::REF, address, 0),
                        EndsWith(": rank 1 does not exist (1 ranks)"));
  }
  SECTION("bank") {
    address.bank = Bank{16};
    address.bank_group = BankGroup{4};
    REQUIRE_THROWS_WITH(checker.check_and_apply(C::ACT, address, 0),
                        EndsWith(": bank 16 does not exist (16 banks per rank)"));
  }
  SECTION("bank group that does not hold the bank") {
    address.bank = Bank{5};
    REQUIRE_THROWS_WITH(checker.check_and_apply(C::ACT, address, 0),
                        EndsWith(": bank 5 is in bank group 1, not 0"));
  }
  SECTION("row") {
    address.row = Row{65536};
    REQUIRE_THROWS_WITH(checker.check_and_apply(C::ACT, address, 0),
                        EndsWith(": row 65536 does not exist (65536 rows)"));
  }
  SECTION("column") {
    checker.check_and_apply(C::ACT, address, 0);
    address.column = Column{1024};
    REQUIRE_THROWS_WITH(checker.check_and_apply(C::RD, address, 16),
                        EndsWith(": column 1024 does not exist (1024 columns)"));
  }
  REQUIRE(checker.commands_checked() <= 1);
}

TEST_CASE("dram checker: read auto-precharge") {
  DramProtocolChecker checker(geometry(), ddr4_2400_cycles());
  checker.check_and_apply(C::ACT, at(0, 0), 0);
  SECTION("implicit precharge at RDA + tRTP") {
    checker.check_and_apply(C::RDA, at(0, 0), 40);  // precharges at 49
    REQUIRE_FALSE(checker.is_open(Rank{0}, Bank{0}));
    REQUIRE_THROWS_WITH(checker.check_and_apply(C::RD, at(0, 0), 44), EndsWith("bank is closed"));
    require_earliest(checker, C::ACT, at(0, 0), 65, "tRP");
  }
  SECTION("implicit precharge waits for tRAS") {
    checker.check_and_apply(C::RDA, at(0, 0), 16);  // precharges at max(25, 39)
    require_earliest(checker, C::REF, at(0, 0), 55, "tRP of bank 0");
  }
}

TEST_CASE("dram checker: RDA after a write waits until its precharge keeps tWR") {
  DramTiming timing = ddr4_2400_cycles();
  timing.WR = 24;
  DramProtocolChecker checker(geometry(), timing);
  checker.check_and_apply(C::ACT, at(0, 0), 0);
  checker.check_and_apply(C::WR, at(0, 0), 16);  // burst ends at 32, tWR until 56
  // A plain read may come at tWTR_L (41); RDA's precharge at RDA + tRTP may not start before 56.
  DramProtocolChecker plain_read = checker;
  REQUIRE_NOTHROW(plain_read.check_and_apply(C::RD, at(0, 0), 41));
  require_earliest(checker, C::RDA, at(0, 0), 47, "tWR before the precharge of RDA");
}

TEST_CASE("dram checker: write auto-precharge") {
  DramProtocolChecker checker(geometry(), ddr4_2400_cycles());
  checker.check_and_apply(C::ACT, at(0, 0), 0);
  checker.check_and_apply(C::WRA, at(0, 0), 16);  // precharges at 16 + 12 + 4 + 18 = 50
  REQUIRE_FALSE(checker.is_open(Rank{0}, Bank{0}));
  require_earliest(checker, C::ACT, at(0, 0), 66, "tRP");
}

TEST_CASE("dram checker: data bus overlap across ranks") {
  DramProtocolChecker checker(geometry(2), ddr4_2400_cycles());
  checker.check_and_apply(C::ACT, at(0, 0, 5, 0), 0);
  checker.check_and_apply(C::ACT, at(0, 0, 5, 1), 1);
  checker.check_and_apply(C::ACT, at(1, 0, 5, 0), 4);
  checker.check_and_apply(C::RD, at(0, 0, 5, 0), 16);  // burst [32, 36)

  SECTION("read in the other rank needs tRTRS after the burst") {
    REQUIRE_THROWS_WITH(
        checker.check_and_apply(C::RD, at(0, 0, 5, 1), 20),
        "DRAM protocol violation at cycle 20: RD rank 1 bank group 0 bank 0 row 5: data bus "
        "overlap with the RD burst of rank 0 at cycles [32, 36) (earliest cycle 21)");
    REQUIRE_NOTHROW(checker.check_and_apply(C::RD, at(0, 0, 5, 1), 21));
  }
  SECTION("write in the other rank") {
    REQUIRE_THROWS_WITH(checker.check_and_apply(C::WR, at(0, 0, 5, 1), 17),
                        EndsWith("(earliest cycle 25)"));
    require_earliest(checker, C::WR, at(0, 0, 5, 1), 25, "data bus overlap");
  }
  SECTION("back-to-back bursts in the same rank need no gap") {
    REQUIRE_NOTHROW(checker.check_and_apply(C::RD, at(1, 0, 5, 0), 20));
  }
}

TEST_CASE("dram checker: a legal long sequence passes") {
  const DramTiming timing = ddr4_2400_cycles();
  DramProtocolChecker checker(geometry(), timing);
  uint64_t base = 0;
  const uint32_t rounds = 8;
  for (uint32_t round = 0; round < rounds; ++round) {
    const auto address = [&](uint32_t i) { return at(i % 4, i / 4, round * 100 + i); };
    // ACTs spaced 7 cycles: meets tRRD_S/tRRD_L, and every fifth ACT is 28 >= tFAW apart.
    for (uint32_t i = 0; i < 16; ++i) checker.check_and_apply(C::ACT, address(i), base + 7 * i);
    const uint64_t first_read = base + 7 * 15 + timing.RCD;
    for (uint32_t i = 0; i < 16; ++i)
      checker.check_and_apply(C::RD, address(i), first_read + 8 * i);
    const uint64_t first_write = first_read + 8 * 15 + timing.RTW();
    for (uint32_t i = 0; i < 16; ++i) {
      checker.check_and_apply(C::WR, address(i), first_write + 8 * i);
    }
    const uint64_t last_write = first_write + 8 * 15;
    const uint64_t second_read = last_write + timing.CWL + timing.BURST + timing.WTR_L;
    const bool auto_precharge = round % 2 == 0;
    for (uint32_t i = 0; i < 16; ++i) {
      checker.check_and_apply(auto_precharge ? C::RDA : C::RD, address(i), second_read + 8 * i);
    }
    const uint64_t precharge = second_read + 8 * 15 + timing.RTP;
    if (!auto_precharge) checker.check_and_apply(C::PREA, at(0, 0), precharge);
    checker.check_and_apply(C::REF, at(0, 0), precharge + timing.RP);
    base = precharge + timing.RP + timing.RFC;
  }
  REQUIRE(checker.commands_checked() == rounds * (4 * 16 + 1) + rounds / 2);
  REQUIRE(checker.refreshes(Rank{0}) == rounds);
  for (uint32_t bank = 0; bank < 16; ++bank) REQUIRE_FALSE(checker.is_open(Rank{0}, Bank{bank}));
}
