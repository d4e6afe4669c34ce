// The Ohm-GPU functions on the optical channel's memory route, in the heterogeneous path of one
// channel (tests/bench/optical_chain.h; DDR4-2400 cycles on a 1 ns clock, 64-byte bursts of
// 4 ns on the light, 1701 ps of flight and SerDes):
//  - how the memory route shares the light: WOM coding (Ohm-WOM), half-coupled transmitters
//    (Ohm-BW), taking turns (reverse write);
//  - SWAP-CMD (planar): the bank preset, the swap over the memory route with the bytes moved,
//    and a request to another row of the preset bank waiting for the release;
//  - reverse write (two-level): the fill goes XPoint -> DRAM on the memory route and the DDR
//    monitor answers the read from it.
#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <systemc>

#include "modules/common/errors.h"
#include "tests/bench/bench_clock.h"
#include "tests/bench/checking_initiator.h"
#include "tests/bench/optical_chain.h"

namespace {

using namespace ohmvp;
using bench::CheckingInitiator;
using bench::ns;
using bench::OpticalChain;
using bench::pattern;
using bench::run_to;

constexpr uint64_t latency = bench::optical_latency_ps;

HeteroConfig swapping_planar() {
  HeteroConfig c = bench::optical_planar(2);
  c.swap_cmd = true;
  return c;
}

// Ohm-WOM and Ohm-BW planar: the swap's transfers go out alongside front writes while front
// reads are in flight.
HeteroConfig swapping_with_writes() {
  HeteroConfig c = swapping_planar();
  c.migration_issue = MigrationIssueKind::with_writes;
  return c;
}

HeteroConfig reverse_writing_two_level() {
  HeteroConfig c;
  c.mode = HeteroMode::two_level;
  c.burst_ns = 4.0;
  c.auto_rw = true;
  c.reverse_write = true;
  return c;
}

HeteroConfig swapping_hot_at(uint32_t threshold, uint32_t register_buffer_bytes = 16384) {
  HeteroConfig c = swapping_planar();
  c.hot_page.threshold = threshold;
  c.register_buffer_bytes = register_buffer_bytes;
  return c;
}

HeteroConfig concurrent(HeteroConfig c) {
  c.max_migrations = 4;
  return c;
}

HeteroConfig reverse_writing_buffered(uint32_t register_buffer_bytes) {
  HeteroConfig c = reverse_writing_two_level();
  c.register_buffer_bytes = register_buffer_bytes;
  return c;
}

// Random reads and writes (some byte-masked) over a window, checked against a shadow copy, with
// the memory-route functions (swaps, reverse writes) happening all the time.
struct RandomTraffic : bench::OpticalPath {
  RandomTraffic(sc_core::sc_module_name name, const HeteroConfig& config, DualRouteMode route,
                uint32_t vc, StatsRegistry& stats, uint64_t requests, uint64_t window_bytes)
      : OpticalPath(name, config, vc, route, stats, nullptr, true),
        traffic("traffic", traffic_config(manager.capacity_bytes(), requests, window_bytes)) {
    traffic.out.bind(manager.in);
  }
  static CheckingInitiator::Config traffic_config(uint64_t capacity, uint64_t requests,
                                                  uint64_t window_bytes) {
    CheckingInitiator::Config c;
    c.requests = requests;
    c.capacity_bytes = capacity;
    c.window_bytes = window_bytes;
    c.seed = 5;
    return c;
  }
  // Runs the traffic to its end: every request answered, every read as the shadow copy says.
  void run_and_check() {
    INFO(bench::run_traffic(traffic, [&] { return manager.idle(); }));
    CHECK(traffic.done());
    CHECK(traffic.errors() == 0);
    CHECK(traffic.mismatches() == 0);
    CHECK(manager.idle());
  }
  CheckingInitiator traffic;
};

struct Bench {
  StatsRegistry stats;
  OpticalChain bw{"bw", swapping_planar(), 0, DualRouteMode::half_coupled, stats, nullptr};
  OpticalChain wom{"wom", swapping_planar(), 1, DualRouteMode::wom, stats, nullptr};
  OpticalChain reverse{"reverse", reverse_writing_two_level(), 2, DualRouteMode::none, stats,
                       nullptr};
  OpticalChain with_writes{"with_writes", swapping_with_writes(), 3, DualRouteMode::wom, stats,
                           nullptr};
  RandomTraffic random_bw{"random_bw", swapping_hot_at(4), DualRouteMode::half_coupled, 3, stats,
                          100000,      16 * 4096};
  RandomTraffic random_wom{"random_wom", swapping_hot_at(4), DualRouteMode::wom, 4, stats,
                           100000,       16 * 4096};
  // Register buffers of two bursts (SWAP-CMD) and of one (reverse write): the senders wait.
  RandomTraffic small_buffer_swaps{"small_buffer_swaps",
                                   swapping_hot_at(4, 128),
                                   DualRouteMode::half_coupled,
                                   5,
                                   stats,
                                   20000,
                                   16 * 4096};
  RandomTraffic concurrent_swaps{"concurrent_swaps",
                                 concurrent(swapping_hot_at(4)),
                                 DualRouteMode::half_coupled,
                                 1,
                                 stats,
                                 50000,
                                 64 * 4096};
  RandomTraffic small_buffer_fills{"small_buffer_fills",
                                   reverse_writing_buffered(64),
                                   DualRouteMode::none,
                                   0,
                                   stats,
                                   20000,
                                   4 * 4096};
};

Bench& the_bench() {
  return bench::instance<Bench>();
}

uint64_t origin() {
  return bench::origin_of<Bench>();
}

}  // namespace

TEST_CASE("memory route: how each platform shares the light with the data route",
          "[ohm_functions]") {
  Bench& b = the_bench();
  const uint64_t t = origin() + 1000 * ns;
  for (OpticalChain* c : {&b.bw, &b.wom, &b.reverse}) REQUIRE(c->channel.memory_route() != nullptr);
  DataBus& wom = *b.wom.channel.memory_route();
  DataBus& bw = *b.bw.channel.memory_route();
  DataBus& turns = *b.reverse.channel.memory_route();

  // Ohm-WOM: 3 cells per 2 bits, so a 4 ns burst holds the memory route 6 ns; the data route,
  // coded too while they overlap, loses a third of that: 2 ns from the transfer's start.
  CHECK(wom.occupied_ps(4 * ns) == 6 * ns);
  const uint64_t wom_light0 = b.wom.counter("data_busy_ps");
  const uint64_t wom_switches0 = b.wom.counter("detector_switches");
  wom.occupy(t, t + 4 * ns, 64);
  CHECK(wom.earliest_free(t, 4 * ns) == t + 6 * ns);
  // No detector owns the lost time, so neither device's transfer after it waits for a switch.
  CHECK(b.wom.channel.data_bus(BusDevice::xpoint).earliest_free(t, 4 * ns) == t + 2 * ns);
  CHECK(b.wom.channel.data_bus(BusDevice::dram).earliest_free(t, 4 * ns) == t + 2 * ns);
  CHECK(b.wom.counter("detector_switches") == wom_switches0);
  CHECK(b.wom.counter("data_busy_ps") == wom_light0 + 2 * ns);
  CHECK(b.wom.counter("wom_busy_ps") == 6 * ns);
  CHECK(b.wom.counter("wom_data_loss_ps") == 2 * ns);
  CHECK(b.wom.counter("memory_route_busy_ps") == 6 * ns);

  // Ohm-BW: the memory route runs beside the data route at the full rate.
  CHECK(bw.occupied_ps(4 * ns) == 4 * ns);
  bw.occupy(t, t + 4 * ns, 64);
  CHECK(bw.earliest_free(t, 4 * ns) == t + 4 * ns);
  CHECK(b.bw.channel.data_bus(BusDevice::dram).earliest_free(t, 4 * ns) == t);
  CHECK(b.bw.counter("data_busy_ps") == 0);

  // Taking turns (a reverse write): the memory route holds the light itself.
  turns.occupy(t, t + 4 * ns, 64);
  CHECK(b.reverse.channel.data_bus(BusDevice::xpoint).earliest_free(t, 4 * ns) == t + 4 * ns);
  CHECK(b.reverse.channel.data_bus(BusDevice::dram).earliest_free(t, 4 * ns) == t + 4 * ns + 100);
  CHECK(b.reverse.counter("memory_route_bursts") == 1);
  // Overlapping transfers are the placer's error.
  CHECK_THROWS_AS(turns.occupy(t + 2 * ns, t + 6 * ns, 64), SimulationError);
  run_to(t + 100 * ns);
}

TEST_CASE("SWAP-CMD: bank preset, the swap over the memory route, a conflicting request waits",
          "[ohm_functions]") {
  OpticalChain& c = the_bench().bw;
  const uint64_t t0 = origin();
  const uint64_t route0 = c.counter("memory_route_bursts");
  const uint64_t route_bytes0 = c.counter("memory_route_bytes");
  // Logical page 0 is group 0's DRAM page (DRAM bank 0, row 0 with row:bank:column), page 1 its
  // first XPoint page; page 18 is group 2's DRAM page (bank 1, row 0), page 288 group 32's
  // (bank 0, row 1: a conflict with a preset of bank 0 row 0).
  c.stimulus.write(t0, 0, pattern(1, 64));
  c.stimulus.write(t0, 4096 + 64, pattern(2, 64));
  // The second access to page 1 makes it hot: the swap starts once this read is answered.
  const size_t hot = c.stimulus.read(t0 + 1000 * ns, 4096 + 64);
  const size_t other_bank = c.stimulus.read(t0 + 1400 * ns, 18 * 4096);
  const size_t conflict = c.stimulus.read(t0 + 1400 * ns, 288 * 4096);
  const size_t waiter = c.stimulus.read(t0 + 1400 * ns, 4096 + 64);
  run_to(t0 + 30000 * ns);

  CHECK(c.stimulus.request(hot).data == pattern(2, 64));
  REQUIRE(c.counter("hmm", "migrations") == 1);
  CHECK(c.manager.planar()->table().in_dram(1));
  CHECK_FALSE(c.manager.planar()->table().in_dram(0));
  // The bytes moved: page 1's burst now in DRAM, page 0's in XPoint, both read back.
  CHECK(c.stimulus.request(waiter).data == pattern(2, 64));
  CHECK(bench::debug(c.manager, 4096 + 64) == pattern(2, 64));
  CHECK(bench::debug(c.manager, 0) == pattern(1, 64));
  uint64_t device = 0;
  CHECK(c.manager.planar()->locate(0, device) == false);

  // The preset: one per burst of the DRAM page, all in bank 0 row 0; the XPoint controller's
  // sequence generator moved both pages over the memory route: 64 DRAM reads and 64 DRAM
  // writes there; its XPoint accesses never crossed the data route.
  CHECK(c.counter("mc", "bank_presets") == 64);
  // The presets after the first find the row open and send no command: every command the
  // controller counts reached the DRAM, and every column command was a row hit, miss or conflict.
  uint64_t commands = 0, columns = 0;
  for (const char* command : {"cmd_ACT", "cmd_PRE", "cmd_PREA", "cmd_REF"})
    commands += c.counter("mc", command);
  for (const char* command : {"cmd_RD", "cmd_RDA", "cmd_WR", "cmd_WRA"})
    columns += c.counter("mc", command);
  CHECK(c.counter("dram", "commands") == commands + columns);
  CHECK(c.counter("mc", "row_hits") + c.counter("mc", "row_misses") +
            c.counter("mc", "row_conflicts") ==
        columns);
  CHECK(c.counter("memory_route_bursts") == route0 + 128);
  CHECK(c.counter("memory_route_bytes") == route_bytes0 + 128 * 64);
  CHECK(c.counter("hmm.ddr_t_port", "local_reads") == 64);
  CHECK(c.counter("hmm.ddr_t_port", "snarfed_writes") == 64);
  // On the data route the swap took only SWAP-CMD (24 bytes, 1.5 ns) and the ready (0.5 ns).
  CHECK(c.counter("hmm", "channel_migration_ps") == 2 * ns);
  CHECK(c.counter("hmm", "memory_route_bytes") == 128 * 64);

  // Bank 1 was served during the swap (before the read of the swapped page, which waited for the
  // swap as a whole): ACT, RD after tRCD, burst after tCL, flight, at the earliest; the DRAM's
  // pins are the swap's too, so its RD waits for a burst slot the swap's bursts leave free.
  const uint64_t unhindered = 1400 * ns + 16 * ns + 16 * ns + 4 * ns + latency;
  CHECK(c.response_ps(other_bank, t0) >= unhindered);
  CHECK(c.response_ps(other_bank, t0) < c.response_ps(waiter, t0));
  // The read of bank 0 row 1 waited until the swap released the bank: it came after the read
  // of the swapped page.
  CHECK(c.response_ps(conflict, t0) > c.response_ps(waiter, t0));
  CHECK(c.manager.idle());
}

TEST_CASE("SWAP-CMD issued with writes: a read its bank preset holds back does not hold it back",
          "[ohm_functions]") {
  // The read of bank 0 row 1 (page 288) comes while the swap of pages 0 and 1 holds bank 0 for
  // row 0, and no front write follows. The swap must not wait for writes on account of a read
  // that waits for the swap itself.
  OpticalChain& c = the_bench().with_writes;
  const uint64_t t0 = origin();
  c.stimulus.write(t0, 0, pattern(8, 64));
  c.stimulus.write(t0, 4096 + 64, pattern(9, 64));
  c.stimulus.read(t0 + 1000 * ns, 4096 + 64);
  const size_t held = c.stimulus.read(t0 + 1400 * ns, 288 * 4096);
  run_to(t0 + 30000 * ns);
  REQUIRE(c.counter("hmm", "migrations") == 1);
  CHECK(c.counter("mc", "bank_presets") == 64);
  CHECK(c.response_ps(held, t0) > 1400 * ns);
  CHECK(c.stimulus.request(held).data == std::vector<uint8_t>(64, 0));
  CHECK(bench::debug(c.manager, 0) == pattern(8, 64));
  CHECK(bench::debug(c.manager, 4096 + 64) == pattern(9, 64));
  CHECK(c.manager.idle());
}

TEST_CASE("SWAP-CMD on a WOM-coded memory route: the same bytes, 3/2 of the light",
          "[ohm_functions]") {
  OpticalChain& c = the_bench().wom;
  const uint64_t t0 = origin();
  const uint64_t wom0 = c.counter("wom_busy_ps");
  const uint64_t loss0 = c.counter("wom_data_loss_ps");
  const uint64_t kept0 = c.counter("wom_symbols_kept");
  const uint64_t symbols0 = kept0 + c.counter("wom_symbols_rewritten");
  c.stimulus.write(t0, 0, pattern(3, 64));
  c.stimulus.write(t0, 4096, pattern(4, 64));
  c.stimulus.read(t0 + 1000 * ns, 4096);
  run_to(t0 + 30000 * ns);
  REQUIRE(c.counter("hmm", "migrations") == 1);
  CHECK(bench::debug(c.manager, 4096) == pattern(4, 64));
  CHECK(bench::debug(c.manager, 0) == pattern(3, 64));
  // 128 bursts of 4 ns, each 6 ns on the light, each taking 2 ns of the data route.
  CHECK(c.counter("wom_busy_ps") - wom0 == 128 * 6 * ns);
  CHECK(c.counter("wom_data_loss_ps") - loss0 == 128 * 2 * ns);
  // Every bit went through the WOM code: 4 symbols a byte, over the data route's bursts.
  CHECK(c.counter("wom_symbols_kept") + c.counter("wom_symbols_rewritten") - symbols0 ==
        128 * 64 * 4);
  // Symbols whose first-generation cells already held the second write's data (both streams'
  // zero bytes, most of the pages) are left as they are.
  CHECK(c.counter("wom_symbols_kept") > kept0);
  CHECK(c.manager.idle());
}

TEST_CASE(
    "reverse write: the fill goes XPoint -> DRAM on the memory route, the DDR monitor "
    "answers the read",
    "[ohm_functions]") {
  OpticalChain& c = the_bench().reverse;
  const uint64_t t0 = origin();
  const uint64_t route0 = c.counter("memory_route_bursts");
  const uint64_t dram_bursts0 = c.counter("dram_bursts");
  // XPoint line 0 is in set 0 with tag 0; line `sets` (same set, tag 1) is its rival.
  const uint64_t sets = c.manager.two_level()->mapping().dram_lines;
  const std::vector<uint8_t> line = pattern(5, 64);
  bench::debug(c.manager, sets * 64, &line);  // straight into XPoint, nothing cached
  const size_t miss = c.stimulus.read(t0, sets * 64);
  run_to(t0 + 3000 * ns);

  CHECK(c.stimulus.request(miss).data == pattern(5, 64));
  CHECK(c.counter("hmm", "reverse_writes") == 1);
  CHECK(c.counter("hmm", "fills") == 1);
  // The fill crossed once, on the memory route; the data route carried only the tag check.
  CHECK(c.counter("memory_route_bursts") == route0 + 1);
  CHECK(c.counter("dram_bursts") == dram_bursts0 + 1);
  CHECK(c.counter("hmm.ddr_t_port", "local_reads") == 1);
  // Tag check: ACT at 0, RD at 16, burst 32..36, across at 37.701. The XPoint read's REQ
  // crosses 2 ns, reads 190 ns, crosses 2 ns back: the line is at the XPoint end at 231.701,
  // long after the notice (8 bytes, 0.5 ns + 1.701) and the confirmation came and went. The
  // fill's WR then issues at the next clock edge, 232, its burst tCWL later, 244..248 on the
  // memory route, and the DDR monitor has it 1.701 ns later.
  CHECK(c.response_ps(miss, t0) == 248 * ns + latency);
  CHECK(bench::debug(c.manager, sets * 64) == pattern(5, 64));
  CHECK(c.manager.idle());
}

TEST_CASE("SWAP-CMD under a random read/write mix loses nothing", "[ohm_functions]") {
  Bench& b = the_bench();
  for (RandomTraffic* r : {&b.random_bw, &b.random_wom}) {
    INFO(r->name());
    r->run_and_check();
    CHECK(r->traffic.reads_checked() > 30000);
    CHECK(r->counter("hmm", "migrations") > 20);
  }
  // The half-coupled light's levels read right at both ends.
  CHECK(b.random_bw.counter("channel", "memory_route_bit_errors") == 0);
  CHECK(b.random_bw.counter("channel", "data_route_tap_bit_errors") == 0);
  CHECK(b.random_wom.counter("channel", "wom_symbols_rewritten") > 0);
}

TEST_CASE("the register buffer at the XPoint end holds memory-route data back when full",
          "[ohm_functions]") {
  Bench& b = the_bench();
  for (RandomTraffic* r : {&b.small_buffer_swaps, &b.small_buffer_fills}) {
    INFO(r->name());
    r->run_and_check();
    CHECK(r->counter("hmm", "register_buffer_waits") > 0);
  }
  CHECK(b.small_buffer_swaps.counter("hmm", "migrations") > 5);
  CHECK(b.small_buffer_swaps.scalar("hmm", "register_buffer_peak_bytes") == 128);
  CHECK(b.small_buffer_fills.counter("hmm", "reverse_writes") > 100);
  CHECK(b.small_buffer_fills.scalar("hmm", "register_buffer_peak_bytes") == 64);
  // With the default 16 KB a swap buffers both of its pages at once and nobody waits.
  CHECK(b.random_bw.scalar("hmm", "register_buffer_peak_bytes") == 2 * 4096);
  CHECK(b.random_bw.counter("hmm", "register_buffer_waits") == 0);
}

TEST_CASE("SWAP-CMD: swaps in flight at once", "[ohm_functions]") {
  RandomTraffic& r = the_bench().concurrent_swaps;
  r.run_and_check();
  CHECK(r.counter("hmm", "migrations") > 20);
  // Four swaps at once, whose DRAM pages share banks: their presets took turns for the banks.
  CHECK(r.scalar("hmm", "peak_migrations_in_flight") == 4);
}
