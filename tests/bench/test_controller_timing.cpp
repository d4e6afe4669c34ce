// Exact command and response instants of the memory controller, through the real chain:
// stimulus -> MemoryController -> ElectricalChannel -> CommandRecorder -> DramDevice. The
// device checks every command, so an illegal schedule fails with SimulationError; these tests
// pin down that the schedule is also as early as the timing allows.
#include <catch2/catch.hpp>

#include "tests/ddr4_cycles.h"

#include <cstdint>
#include <memory>
#include <systemc>
#include <vector>

#include "modules/common/stats.h"
#include "modules/interconnect/electrical_channel.h"
#include "modules/memory/dram_device.h"
#include "modules/memory/memory_controller.h"
#include "tests/bench/bench_clock.h"
#include "tests/bench/command_recorder.h"
#include "tests/bench/stimulus_initiator.h"
#include "tlm_protocols/payload_pool.h"

namespace {

using namespace ohmvp;
using bench::CommandRecorder;
using bench::StimulusInitiator;

constexpr uint64_t tck_ps = 1000;  // 1 ns cycles: a cycle count reads as nanoseconds
constexpr uint32_t bus_bytes = 8;  // 64 lanes; with burst length 8, 64-byte bursts

// DDR4-2400 cycle counts on a 1 ns clock, with round refresh figures, so times read easily.
DramTiming ddr4_like() {
  DramTiming t = ddr4_2400_cycles();
  t.tCK_ps = tck_ps;
  t.REFI = 7800, t.RFC = 350;
  return t;
}
const DramTiming T = ddr4_like();

DramGeometry one_rank() {
  return ddr4_geometry(1);
}

ControllerConfig controller_config(SchedulerKind scheduler = SchedulerKind::fr_fcfs,
                                   PagePolicyKind page_policy = PagePolicyKind::open,
                                   bool refresh = false) {
  ControllerConfig c;
  c.scheduler = scheduler;
  c.page_policy = page_policy;
  c.refresh = refresh;
  c.address_mapping.scheme = "row:bank:column";
  return c;
}

// One independent controller chain per scenario, so each starts from an idle, closed DRAM.
class Chain : public sc_core::sc_module {
 public:
  Chain(sc_core::sc_module_name name, const ControllerConfig& config, StatsRegistry& stats)
      : sc_module(name),
        stimulus("stimulus"),
        controller("mc", config, one_rank(), T, bus_bytes, stats, nullptr),
        channel("channel", ElectricalChannelConfig{}, T.ps(T.RTRS), stats, nullptr),
        recorder("recorder", tck_ps),
        device("dram", one_rank(), T, bus_bytes, stats) {
    stimulus.out.bind(controller.in);
    controller.out.bind(channel.in);
    channel.out.bind(recorder.in);
    recorder.out.bind(device.in);
  }

  // Byte address of burst `burst` (64 bytes each) of `row` in flat bank `bank` (group * 4 +
  // bank in group).
  uint64_t address(uint32_t bank, uint32_t row, uint32_t burst = 0) const {
    DramAddress a;
    a.bank_group = BankGroup{bank / one_rank().banks_per_group};
    a.bank = Bank{bank};
    a.row = Row{row};
    a.column = Column{burst * one_rank().burst_length};
    return controller.mapper().encode(a);
  }

  // Response instant minus send instant, in cycles.
  uint64_t latency(size_t id) const {
    const auto& r = stimulus.request(id);
    REQUIRE(r.response_ps.has_value());
    REQUIRE(r.status == tlm::TLM_OK_RESPONSE);
    return (*r.response_ps - *r.sent_ps) / tck_ps;
  }
  // Response instant, in cycles after `origin`.
  uint64_t response_cycle(size_t id, uint64_t origin) const {
    const auto& r = stimulus.request(id);
    REQUIRE(r.response_ps.has_value());
    return *r.response_ps / tck_ps - origin;
  }

  StimulusInitiator stimulus;
  MemoryController controller;
  ElectricalChannel channel;
  CommandRecorder recorder;
  DramDevice device;
};

// A memory route (device to device) nothing else uses: a burst fits wherever it is asked for.
struct IdleMemoryRoute : DataBus {
  uint64_t earliest_free(uint64_t from_ps, uint64_t) const override { return from_ps; }
  void occupy(uint64_t, uint64_t, uint32_t) override {}
};

// SystemC elaborates once per process: every chain is built before the first sc_start.
struct Bench {
  Bench() { memory_route.controller.share_memory_route(idle_route); }
  StatsRegistry stats;
  IdleMemoryRoute idle_route;
  Chain latency{"latency", controller_config(), stats};
  Chain faw{"faw", controller_config(), stats};
  Chain turnaround{"turnaround", controller_config(), stats};
  Chain fr_fcfs{"fr_fcfs", controller_config(SchedulerKind::fr_fcfs), stats};
  Chain fcfs{"fcfs", controller_config(SchedulerKind::fcfs), stats};
  Chain closed{"closed", controller_config(SchedulerKind::fr_fcfs, PagePolicyKind::closed), stats};
  Chain refresh{"refresh", controller_config(SchedulerKind::fr_fcfs, PagePolicyKind::open, true),
                stats};
  Chain intake{"intake", controller_config(), stats};
  Chain intake_full{"intake_full", controller_config(), stats};
  Chain protocol{"protocol", controller_config(), stats};
  Chain awaited{"awaited", controller_config(), stats};
  Chain write_cap{"write_cap", controller_config(), stats};
  Chain row_cap{"row_cap", controller_config(), stats};
  Chain enables{"enables", controller_config(), stats};
  Chain memory_route{"memory_route", controller_config(), stats};
  Chain preset_refresh{"preset_refresh",
                       controller_config(SchedulerKind::fr_fcfs, PagePolicyKind::open, true),
                       stats};
};

Bench& the_bench() {
  return bench::instance<Bench>();
}

uint64_t now_cycle() {
  return sc_core::sc_time_stamp().value() / tck_ps;
}
uint64_t at(uint64_t cycle) {
  return cycle * tck_ps;
}

// A fresh origin for a scenario: a clock edge a little after the present. The chains without
// refresh sleep between scenarios, so their timing state is long settled by then.
uint64_t origin() {
  the_bench();
  return now_cycle() + 10;
}

void run_to(uint64_t cycle) {
  REQUIRE(cycle > now_cycle());
  sc_core::sc_start(sc_core::sc_time::from_value(at(cycle) - sc_core::sc_time_stamp().value()));
}

std::vector<uint8_t> pattern(uint8_t seed, size_t length = 64) {
  std::vector<uint8_t> data(length);
  for (size_t i = 0; i < length; ++i) data[i] = static_cast<uint8_t>(seed + 7 * i);
  return data;
}

}  // namespace

TEST_CASE("controller timing: row hit, row miss and row conflict read latency") {
  Chain& c = the_bench().latency;
  const uint64_t t0 = origin();
  const size_t miss = c.stimulus.read(at(t0), c.address(5, 10, 0));
  const size_t hit = c.stimulus.read(at(t0 + 100), c.address(5, 10, 1));
  const size_t conflict = c.stimulus.read(at(t0 + 200), c.address(5, 20, 0));
  run_to(t0 + 400);

  // Closed bank: ACT, RD after tRCD. Open row: RD at once. Other row open (tRAS long met):
  // PRE, ACT after tRP, RD after tRCD.
  CHECK(c.recorder.log(t0) == "ACT b5@0 RD b5@16 RD b5@100 PRE b5@200 ACT b5@216 RD b5@232");
  CHECK(c.latency(miss) == T.RCD + T.CL + T.BURST);
  CHECK(c.latency(hit) == T.CL + T.BURST);
  CHECK(c.latency(conflict) == T.RP + T.RCD + T.CL + T.BURST);
}

TEST_CASE("controller timing: a fifth ACT waits for tFAW, the first four are tRRD_S apart") {
  Chain& c = the_bench().faw;
  const uint64_t t0 = origin();
  // Banks 0, 4, 8, 12 are in groups 0..3; bank 1 is a second bank of group 0.
  const uint32_t banks[] = {0, 4, 8, 12, 1};
  std::vector<size_t> reads;
  for (uint32_t bank : banks) reads.push_back(c.stimulus.read(at(t0), c.address(bank, 1)));
  run_to(t0 + 200);

  std::vector<uint64_t> acts;
  for (uint64_t cycle : c.recorder.cycles_of(DdrCommand::ACT)) acts.push_back(cycle - t0);
  CHECK(acts == std::vector<uint64_t>{0, T.RRD_S, 2 * T.RRD_S, 3 * T.RRD_S, T.FAW});
  // The reads fill the gap before the fifth ACT, tCCD_S apart.
  CHECK(c.recorder.log(t0) ==
        "ACT b0@0 ACT b4@4 ACT b8@8 ACT b12@12 RD b0@16 RD b4@20 RD b8@24 ACT b1@26 RD b12@28 "
        "RD b1@42");
  CHECK(c.response_cycle(reads[4], t0) == T.FAW + T.RCD + T.CL + T.BURST);
}

TEST_CASE("controller timing: write-to-read turnaround is tWTR_L in a bank group, tWTR_S across") {
  Chain& c = the_bench().turnaround;
  const uint64_t t0 = origin();
  // Open row 1 in bank 0 and bank 1 (group 0) and in bank 4 (group 1).
  for (uint32_t bank : {0u, 1u, 4u}) c.stimulus.read(at(t0), c.address(bank, 1));
  // Each write goes alone into an idle controller (write drain with no read waiting), the read
  // a cycle later; all rows are open, so only the turnaround holds the read back.
  const uint64_t same = t0 + 200, other = t0 + 400;
  c.stimulus.write(at(same), c.address(0, 1, 1), pattern(1));
  const size_t read_same = c.stimulus.read(at(same + 1), c.address(1, 1, 1));
  c.stimulus.write(at(other), c.address(0, 1, 2), pattern(2));
  const size_t read_other = c.stimulus.read(at(other + 1), c.address(4, 1, 1));
  const size_t back1 = c.stimulus.read(at(t0 + 600), c.address(0, 1, 1));
  const size_t back2 = c.stimulus.read(at(t0 + 600), c.address(0, 1, 2));
  run_to(t0 + 800);

  // 25 = CWL 12 + BURST 4 + WTR_L 9; 219 = 200 + 12 + 4 + WTR_S 3; the read-backs are tCCD_L
  // apart.
  CHECK(c.recorder.log(same) == "WR b0@0 RD b1@25 WR b0@200 RD b4@219 RD b0@400 RD b0@406");
  const uint64_t write_end = T.CWL + T.BURST;
  CHECK(c.response_cycle(read_same, same) == write_end + T.WTR_L + T.CL + T.BURST);
  CHECK(c.response_cycle(read_other, other) == write_end + T.WTR_S + T.CL + T.BURST);
  CHECK(c.stimulus.request(back1).data == pattern(1));
  CHECK(c.stimulus.request(back2).data == pattern(2));
}

TEST_CASE("controller timing: FR-FCFS serves a queued row hit before an older miss, FCFS not") {
  const uint64_t t0 = origin();
  struct Ids {
    size_t conflict, hit;
  };
  auto drive = [&](Chain& c) {
    c.stimulus.read(at(t0), c.address(2, 7, 0));  // opens row 7
    // While row 7 opens, in this order: an older request to row 9, then a hit on row 7.
    const size_t conflict = c.stimulus.read(at(t0 + 1), c.address(2, 9, 0));
    const size_t hit = c.stimulus.read(at(t0 + 2), c.address(2, 7, 1));
    return Ids{conflict, hit};
  };
  Chain& fr = the_bench().fr_fcfs;
  Chain& fcfs = the_bench().fcfs;
  const Ids fr_ids = drive(fr);
  const Ids fcfs_ids = drive(fcfs);
  run_to(t0 + 500);

  // FR-FCFS: RD for the hit tCCD_L after the first; the PRE for the conflict then waits for
  // tRAS (which outlasts tRTP after the hit's RD).
  CHECK(fr.recorder.log(t0) == "ACT b2@0 RD b2@16 RD b2@22 PRE b2@39 ACT b2@55 RD b2@71");
  CHECK(fr.stimulus.response_order() == std::vector<size_t>{0, fr_ids.hit, fr_ids.conflict});
  CHECK(fr.response_cycle(fr_ids.hit, t0) == T.RCD + T.CCD_L + T.CL + T.BURST);
  CHECK(fr.response_cycle(fr_ids.conflict, t0) == T.RAS + T.RP + T.RCD + T.CL + T.BURST);
  // FCFS: the conflict first, its PRE held by tRAS; the hit is then a conflict itself.
  CHECK(fcfs.recorder.log(t0) ==
        "ACT b2@0 RD b2@16 PRE b2@39 ACT b2@55 RD b2@71 PRE b2@94 ACT b2@110 RD b2@126");
  CHECK(fcfs.stimulus.response_order() == std::vector<size_t>{0, fcfs_ids.conflict, fcfs_ids.hit});
  CHECK(fcfs.response_cycle(fcfs_ids.conflict, t0) == T.RAS + T.RP + T.RCD + T.CL + T.BURST);
  CHECK(fcfs.response_cycle(fcfs_ids.hit, t0) == 2 * (T.RAS + T.RP) + T.RCD + T.CL + T.BURST);
}

TEST_CASE("controller timing: closed page policy closes every row with RDA and WRA") {
  Chain& c = the_bench().closed;
  const uint64_t t0 = origin();
  const size_t first = c.stimulus.read(at(t0), c.address(6, 3, 0));
  const size_t second = c.stimulus.read(at(t0), c.address(6, 3, 1));  // same row, still closed
  c.stimulus.write(at(t0 + 200), c.address(6, 3, 2), pattern(3));
  const size_t back = c.stimulus.read(at(t0 + 300), c.address(6, 3, 2));
  run_to(t0 + 500);

  // The RDA's own precharge starts once tRAS is met (39), so the next ACT is at tRAS + tRP,
  // which here equals tRC.
  CHECK(c.recorder.log(t0) ==
        "ACT b6@0 RDA b6@16 ACT b6@55 RDA b6@71 ACT b6@200 WRA b6@216 ACT b6@300 RDA b6@316");
  CHECK(c.recorder.cycles_of(DdrCommand::PRE).empty());
  CHECK(c.response_cycle(first, t0) == T.RCD + T.CL + T.BURST);
  CHECK(c.response_cycle(second, t0) == T.RAS + T.RP + T.RCD + T.CL + T.BURST);
  CHECK(c.stimulus.request(back).data == pattern(3));
}

TEST_CASE("controller timing: refresh every tREFI, and a read during refresh waits tRFC") {
  Chain& c = the_bench().refresh;
  const uint64_t first = (now_cycle() / T.REFI + 1) * T.REFI;  // next refresh still to come
  run_to(first + 1000);
  // Idle: only REF, at every multiple of tREFI (no bank open, so no PREA).
  std::vector<uint64_t> expected;
  for (uint64_t cycle = T.REFI; cycle <= first; cycle += T.REFI) expected.push_back(cycle);
  CHECK(c.recorder.cycles_of(DdrCommand::REF) == expected);
  CHECK(c.recorder.commands().size() == expected.size());

  // Leave a row open, then read while the next refresh runs.
  const uint64_t open = first + 1000;
  c.stimulus.read(at(open), c.address(3, 4));
  const uint64_t second = first + T.REFI;
  const size_t during = c.stimulus.read(at(second + 100), c.address(3, 4, 1));
  run_to(second + T.REFI + 1000);

  CHECK(c.recorder.log(open, second) == "ACT b3@0 RD b3@16");
  CHECK(c.recorder.log(second) == "PREA@0 REF@16 ACT b3@366 RD b3@382 PREA@7800 REF@7816");
  // Relative to the refresh instant: PREA, REF after tRP, the read's ACT after tRFC.
  CHECK(c.response_cycle(during, second) == T.RP + T.RFC + T.RCD + T.CL + T.BURST);
}

TEST_CASE("controller timing: the front end takes one request a clock, forwarded reads included") {
  Chain& c = the_bench().intake;
  const uint64_t t0 = origin();
  c.stimulus.write(at(t0), c.address(3, 2, 0), pattern(4));
  std::vector<size_t> reads;
  for (int i = 0; i < 4; ++i) reads.push_back(c.stimulus.read(at(t0), c.address(3, 2, 0)));
  const size_t last_write = c.stimulus.write(at(t0), c.address(3, 2, 1), pattern(5));
  run_to(t0 + 200);

  // The write takes clock 0. All sent at once, each read waits for the next clock's intake and
  // is answered from the queued write (its WR goes at tRCD) at the edge after it is taken.
  CHECK(c.recorder.log(t0) == "ACT b3@0 WR b3@16 WR b3@22");
  for (size_t i = 0; i < reads.size(); ++i) {
    CHECK(c.response_cycle(reads[i], t0) == i + 2);
    CHECK(c.stimulus.request(reads[i]).data == pattern(4));
  }
  // The posted write behind them is taken, and so answered, at clock 5.
  CHECK(c.response_cycle(last_write, t0) == 5);
  const StatsRegistry& stats = the_bench().stats;
  CHECK(stats.find_counter("intake.mc", "intake_waits")->value() == 5);
  CHECK(stats.find_counter("intake.mc", "forwarded_reads")->value() == 4);
  CHECK(stats.find_counter("intake.mc", "backpressure")->value() == 0);
}

TEST_CASE("controller timing: a write finding its clock taken and its queue full counts in both") {
  Chain& c = the_bench().intake_full;
  const uint64_t t0 = origin();
  // 40 posted writes to rows of one bank, sent at once: each WR needs its own PRE and ACT.
  constexpr uint32_t writes = 40;
  std::vector<size_t> ids;
  for (uint32_t i = 0; i < writes; ++i)
    ids.push_back(c.stimulus.write(at(t0), c.address(0, i), pattern(uint8_t(i))));
  run_to(t0 + 1000);

  // Taken, and so answered, one a clock until the 32-entry queue is full at clock 32 (write 0
  // left it with its WR at tRCD). Each later write arrives in a taken clock to a full queue, and
  // is taken when a WR frees an entry: every CWL + tBURST + tWR + tRP + tRCD.
  const uint64_t row_cycle = T.CWL + T.BURST + T.WR + T.RP + T.RCD;
  for (uint32_t i = 0; i <= 32; ++i) CHECK(c.response_cycle(ids[i], t0) == i);
  for (uint32_t i = 33; i < writes; ++i)
    CHECK(c.response_cycle(ids[i], t0) == T.RCD + (i - 32) * row_cycle);
  const StatsRegistry& stats = the_bench().stats;
  const auto counter = [&](const char* name) {
    return stats.find_counter("intake_full.mc", name)->value();
  };
  CHECK(counter("writes") == writes);
  CHECK(counter("intake_waits") == writes - 1);  // all but the first arrived in a taken clock
  CHECK(counter("backpressure") == writes - 33);
}

TEST_CASE("controller timing: a BEGIN_REQ while another waits to be taken is a protocol error") {
  Chain& c = the_bench().protocol;
  const uint64_t t0 = origin();
  // Half a clock in: the first write is taken, the second waits for the next edge.
  c.stimulus.write(at(t0) + tck_ps / 2, c.address(1, 1, 0), pattern(1));
  const size_t waiting = c.stimulus.write(at(t0) + tck_ps / 2, c.address(1, 1, 1), pattern(2));
  sc_core::sc_start(
      sc_core::sc_time::from_value(at(t0) + tck_ps * 3 / 4 - sc_core::sc_time_stamp().value()));
  REQUIRE_FALSE(c.stimulus.request(waiting).response_ps.has_value());

  std::vector<uint8_t> data = pattern(3);
  tlm::tlm_generic_payload third;
  third.set_command(tlm::TLM_WRITE_COMMAND);
  third.set_address(c.address(1, 1, 2));
  third.set_data_ptr(data.data());
  third.set_data_length(uint32_t(data.size()));
  third.set_streaming_width(uint32_t(data.size()));
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  // The controller keeps a request past the call: a payload it cannot acquire is refused.
  CHECK_THROWS_WITH(c.controller.nb_transport_fw(third, phase, delay),
                    Catch::Contains("without a memory manager"));
  PayloadPool pool;
  tlm::tlm_generic_payload& pooled = *pool.acquire();
  pooled.set_data_ptr(data.data());
  pooled.deep_copy_from(third);
  CHECK_THROWS_WITH(c.controller.nb_transport_fw(pooled, phase, delay),
                    Catch::Contains("BEGIN_REQ before END_REQ"));

  // The waiting write is taken at the next edge as if nothing had happened.
  run_to(t0 + 100);
  CHECK(c.response_cycle(waiting, t0) == 1);
}

TEST_CASE("controller timing: a write a queued read waits for goes ahead of the read stream") {
  Chain& c = the_bench().awaited;
  const uint64_t t0 = origin();
  // A stream of reads to rows of banks 0 and 4 (two bank groups), one every tCCD_S. In its
  // middle, half a burst written to bank 8, then the whole burst read: the read must see the
  // write, so it waits for it in the queue.
  const uint64_t w = t0 + 30;
  std::vector<size_t> stream;
  size_t read = 0;
  for (uint32_t i = 0; i < 60; ++i) {
    if (i == 8) {
      c.stimulus.write(at(w) + tck_ps / 2, c.address(8, 3, 0), pattern(6, 32));
      read = c.stimulus.read(at(w + 1) + tck_ps / 2, c.address(8, 3, 0));
    }
    stream.push_back(c.stimulus.read(at(t0 + 4 * i), c.address(4 * (i % 2), 1, i / 2)));
  }
  run_to(t0 + 600);

  // The read turns the controller to writes at once: the write's ACT and WR go in the middle of
  // the stream. The reads then resume after tWTR_S, the four older than the awaited read first
  // (bank 8 shares no group with the stream, and its own tWTR_L ends at 43).
  CHECK(c.recorder.log(w, w + 60) ==
        "ACT b8@2 WR b8@18 RD b0@37 RD b4@41 RD b0@45 RD b4@49 RD b8@53 RD b0@57");
  CHECK(c.response_cycle(read, w) == 53 + T.CL + T.BURST);
  std::vector<uint8_t> expected = pattern(6, 32);
  expected.resize(64, 0);
  CHECK(c.stimulus.request(read).data == expected);
  CHECK(c.response_cycle(stream.back(), t0) > c.response_cycle(read, t0));
}

TEST_CASE("controller timing: a write drain turns to a waiting read after min_writes_per_switch") {
  Chain& c = the_bench().write_cap;
  const uint64_t t0 = origin();
  // 24 writes at once, then one every tCCD_S: the drain never gets down to the low watermark.
  uint32_t sent = 0;
  for (; sent < 24; ++sent) {
    c.stimulus.write(at(t0), c.address(4 + 4 * (sent % 2), 1, sent / 2), pattern(uint8_t(sent)));
  }
  const size_t read = c.stimulus.read(at(t0 + 30), c.address(0, 2, 0));
  for (uint64_t t = t0 + 31; sent < 110; ++sent, t += 4) {
    c.stimulus.write(at(t), c.address(4 + 4 * (sent % 2), 1, sent / 2), pattern(uint8_t(sent)));
  }
  run_to(t0 + 1000);

  const std::vector<uint64_t> writes = c.recorder.cycles_of(DdrCommand::WR);
  REQUIRE(writes.size() == 110);
  // Sixteen WRs tCCD_S apart, then the read: its ACT at once, its RD when tWTR_S after the last
  // write's burst has passed (76 + CWL + tBURST + tWTR_S = 95). The drain then goes on.
  CHECK(c.recorder.log(t0, t0 + 106) ==
        "ACT b4@0 ACT b8@4 WR b4@16 WR b8@20 WR b4@24 WR b8@28 WR b4@32 WR b8@36 WR b4@40 "
        "WR b8@44 WR b4@48 WR b8@52 WR b4@56 WR b8@60 WR b4@64 WR b8@68 WR b4@72 WR b8@76 "
        "ACT b0@77 RD b0@95 WR b4@105");
  CHECK(c.response_cycle(read, t0) == 95 + T.CL + T.BURST);
}

TEST_CASE("controller timing: FR-FCFS lets row_hit_cap hits go ahead of an older conflict") {
  Chain& c = the_bench().row_cap;
  const uint64_t t0 = origin();
  c.stimulus.read(at(t0), c.address(2, 7, 0));  // opens row 7
  const size_t conflict = c.stimulus.read(at(t0 + 1), c.address(2, 9, 0));
  std::vector<size_t> hits;
  for (uint32_t i = 1; i <= 40; ++i)
    hits.push_back(c.stimulus.read(at(t0 + 2), c.address(2, 7, i)));
  run_to(t0 + 1000);

  // Sixteen hits tCCD_L apart after the first read, then the conflict: PRE when tRTP after the
  // last hit has passed, ACT, RD. Row 7 is opened again for the remaining hits.
  CHECK(c.recorder.log(t0, t0 + 210) ==
        "ACT b2@0 RD b2@16 RD b2@22 RD b2@28 RD b2@34 RD b2@40 RD b2@46 RD b2@52 RD b2@58 "
        "RD b2@64 RD b2@70 RD b2@76 RD b2@82 RD b2@88 RD b2@94 RD b2@100 RD b2@106 RD b2@112 "
        "PRE b2@121 ACT b2@137 RD b2@153 PRE b2@176 ACT b2@192 RD b2@208");
  CHECK(c.response_cycle(conflict, t0) == 153 + T.CL + T.BURST);
  CHECK(c.stimulus.response_order()[17] == conflict);
  CHECK(c.response_cycle(hits.back(), t0) > c.response_cycle(conflict, t0));
}

TEST_CASE("controller timing: write_bytes counts the bytes a write enables") {
  Chain& c = the_bench().enables;
  const uint64_t t0 = origin();
  std::vector<uint8_t> every_other(64);
  for (size_t i = 0; i < every_other.size(); ++i) {
    every_other[i] = i % 2 == 0 ? TLM_BYTE_ENABLED : TLM_BYTE_DISABLED;
  }
  c.stimulus.write(at(t0), c.address(3, 1, 0), pattern(9), every_other);
  c.stimulus.write(at(t0 + 1), c.address(3, 1, 1), pattern(10));
  const size_t back = c.stimulus.read(at(t0 + 100), c.address(3, 1, 0));
  run_to(t0 + 300);

  const StatsRegistry& stats = the_bench().stats;
  CHECK(stats.find_counter("enables.mc", "write_bytes")->value() == 32 + 64);
  const std::vector<uint8_t> written = pattern(9);
  const std::vector<uint8_t>& read = c.stimulus.request(back).data;
  for (size_t i = 0; i < 64; i += 2) CHECK(read[i] == written[i]);
}

TEST_CASE("controller timing: a burst between the devices never comes from the write queue") {
  Chain& c = the_bench().memory_route;
  const uint64_t t0 = origin();
  c.stimulus.write(at(t0), c.address(3, 2, 0), pattern(6));
  const size_t merged = c.stimulus.write(at(t0), c.address(3, 2, 0), pattern(7));
  c.stimulus.dram_access(merged);
  const size_t forwarded = c.stimulus.read(at(t0), c.address(3, 2, 0));
  c.stimulus.dram_access(forwarded);
  const size_t route = c.stimulus.read(at(t0), c.address(3, 2, 0));
  c.stimulus.on_memory_route(route);
  run_to(t0 + 200);

  // Taken one a clock: the second write merges into the first and the plain read is answered
  // from it, each told so; the memory-route read queues behind the write for the DRAM to send.
  CHECK(c.stimulus.request(merged).from_queue);
  CHECK(c.stimulus.request(forwarded).from_queue);
  CHECK(c.response_cycle(forwarded, t0) == 3);
  CHECK(c.stimulus.request(forwarded).data == pattern(7));
  CHECK_FALSE(c.stimulus.request(route).from_queue);
  CHECK(c.stimulus.request(route).data == pattern(7));
  // Write data ends at 16 + tCWL 12 + 4 = 32; the read's RD after tWTR_L 9, data tCL + 4 later.
  CHECK(c.recorder.log(t0) == "ACT b3@0 WR b3@16 RD b3@41");
  CHECK(c.response_cycle(route, t0) == 41 + T.CL + T.BURST);
}

TEST_CASE("controller timing: a due refresh waits for a bank preset's release") {
  Chain& c = the_bench().preset_refresh;
  const uint64_t due = (now_cycle() / T.REFI + 1) * T.REFI;
  const size_t preset = c.stimulus.preset(at(due - 100), c.address(3, 4));
  c.stimulus.release(at(due + 500), c.address(3, 4));
  run_to(due + T.REFI + 1000);

  // The preset's row opens 100 cycles before the refresh is due and stays open until the
  // release, 500 after it; then PREA and REF. The next refresh keeps the tREFI grid.
  CHECK(c.response_cycle(preset, due - 100) == T.RCD);
  CHECK(c.recorder.log(due - 100) == "ACT b3@0 PREA@600 REF@616 REF@7900");
}

TEST_CASE("controller timing: refreshes a preset postponed are made up once it is released") {
  Chain& c = the_bench().preset_refresh;
  const uint64_t due = (now_cycle() / T.REFI + 1) * T.REFI;
  c.stimulus.preset(at(due - 100), c.address(3, 4));
  c.stimulus.release(at(due + 2 * T.REFI + 500), c.address(3, 4));
  run_to(due + 4 * T.REFI + 1000);

  // Three refreshes fell due under the preset: after its release PREA, then the three back to
  // back, tRFC apart; the fourth and fifth on the tREFI grid.
  CHECK(c.recorder.log(due - 100) ==
        "ACT b3@0 PREA@16200 REF@16216 REF@16566 REF@16916 REF@23500 REF@31300");
}

TEST_CASE("controller timing: a preset holds a refresh back eight tREFI at the most") {
  Chain& c = the_bench().preset_refresh;
  const uint64_t due = (now_cycle() / T.REFI + 1) * T.REFI;
  c.stimulus.preset(at(due - 100), c.address(3, 4));
  c.stimulus.release(at(due + 10 * T.REFI), c.address(3, 4));
  run_to(due + 12 * T.REFI + 1000);

  // The first is due at `due`, the ninth at due + 8 tREFI: then the first can wait no longer,
  // and closes the preset's row. From there one a tREFI, each eight behind, until the release
  // (no row open) makes up the nine then owed, tRFC apart; then the tREFI grid again.
  const uint64_t forced = 8 * T.REFI + 100, released = 10 * T.REFI + 100;
  std::string expected = "ACT b3@0 PREA@" + std::to_string(forced) + " REF@" +
                         std::to_string(forced + T.RP) + " REF@" + std::to_string(forced + T.REFI);
  for (uint64_t i = 0; i < 9; ++i) expected += " REF@" + std::to_string(released + i * T.RFC);
  expected +=
      " REF@" + std::to_string(released + T.REFI) + " REF@" + std::to_string(released + 2 * T.REFI);
  CHECK(c.recorder.log(due - 100) == expected);
}
