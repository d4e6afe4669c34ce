// Two-level mode through the whole heterogeneous path (hetero_chain.h): exact instants of a
// DRAM-cache hit, a miss with its fill, a dirty victim written back, the metadata in the DRAM
// lines' ECC region, and a random read/write mix with evictions checked against a shadow copy.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <systemc>
#include <vector>

#include "tests/bench/bench_clock.h"
#include "tests/bench/checking_initiator.h"
#include "tests/bench/hetero_chain.h"
#include "tests/bench/stimulus_initiator.h"

namespace {

using namespace ohmvp;
using bench::CheckingInitiator;
using bench::HeteroChain;
using bench::ns;
using bench::pattern;
using bench::response_ns;
using bench::run_to;
using bench::StimulusInitiator;

// DRAM of 4 rows x 16 banks x 8 KB = 512 KiB (8192 lines); XPoint 32 MiB: 1:64, 6 tag bits.
constexpr uint64_t dram_lines = 8192;

HeteroConfig two_level() {
  HeteroConfig c;
  c.mode = HeteroMode::two_level;
  c.burst_ns = 4.0;
  return c;
}

HeteroConfig with_auto_rw(HeteroConfig c) {
  c.auto_rw = true;
  return c;
}

struct Directed {
  Directed(const std::string& name, const HeteroConfig& config, StatsRegistry& stats)
      : chain((name + "_chain").c_str(), config, 4, bench::hetero_xpoint_config(32, false), false,
              stats),
        stimulus((name + "_stimulus").c_str()) {
    stimulus.out.bind(chain.manager.in);
  }
  HeteroChain chain;
  StimulusInitiator stimulus;
};

struct Random {
  explicit Random(StatsRegistry& stats)
      : chain("random_chain", two_level(), 4, bench::hetero_xpoint_config(32, true), true, stats),
        traffic("random_traffic", traffic_config(chain.manager.capacity_bytes())) {
    traffic.out.bind(chain.manager.in);
  }
  static CheckingInitiator::Config traffic_config(uint64_t capacity) {
    CheckingInitiator::Config c;
    c.requests = 2000000;
    c.capacity_bytes = capacity;
    c.far_fraction = 0.2;
    c.seed = 12;
    return c;
  }
  HeteroChain chain;
  CheckingInitiator traffic;
};

struct Bench {
  StatsRegistry stats;
  Directed directed{"directed", two_level(), stats};
  Directed auto_rw{"auto_rw", with_auto_rw(two_level()), stats};
  Random random{stats};
};

Bench& the_bench() {
  return bench::instance<Bench>();
}

uint64_t origin() {
  return bench::origin_of<Bench>();
}

}  // namespace

TEST_CASE("hetero two-level: a miss fills DRAM, then the line hits", "[hetero]") {
  Directed& d = the_bench().directed;
  const uint64_t line = 5;  // set 5: DRAM address 320, bank 0 row 0
  const uint64_t t0 = origin();
  const size_t miss = d.stimulus.read(t0, line * 64);
  const size_t hit = d.stimulus.read(t0 + 1000 * ns, line * 64 + 32, 32);
  run_to(t0 + 2000 * ns);

  // Tag check: the DRAM line with its metadata, closed bank (16 + 16 + 4). Invalid: XPoint
  // read sent at 36, RSP_READY 2 + 190 + 2 later, then a 4 ns burst: answered at 234.
  CHECK(response_ns(d.stimulus, miss, t0) == 36 + 194 + 4);
  // The fill left the row open: a row hit (16 + 4).
  CHECK(response_ns(d.stimulus, hit, t0) == 1000 + 20);
  CHECK(d.chain.manager_counter("dram_cache_misses") == 1);
  CHECK(d.chain.manager_counter("dram_cache_hits") == 1);
  CHECK(d.chain.manager_counter("fills") == 1);
  CHECK(d.chain.manager_counter("migration_bytes") == 2 * 64);  // XPoint read, DRAM fill
  CHECK(d.chain.manager_counter("regular_bytes") == 2 * 64);    // the two tag checks
  const DramCacheMetadata md = d.chain.manager.two_level()->metadata().read(line);
  CHECK(md == (DramCacheMetadata{true, false, 0}));
  CHECK(d.chain.manager.idle());
}

namespace {

// A dirty victim written back to XPoint; with auto-read/write the XPoint controller writes it
// back from the tag-check read it snarfed, so it crosses the channel once.
// `tag_check_ns`: the first tag check's DRAM read, a row hit (20) or a closed bank (36).
void check_dirty_victim(Directed& d, bool auto_rw, uint64_t tag_check_ns) {
  const uint64_t misses_before = d.chain.manager_counter("dram_cache_misses");
  const uint64_t migration_before = d.chain.manager_counter("migration_bytes");
  const uint64_t x = 7, y = 7 + 3 * dram_lines;  // same set, tags 0 and 3
  const std::vector<uint8_t> data = pattern(4, 64);
  const uint64_t t0 = origin();
  const size_t write = d.stimulus.write(t0, x * 64, data);
  const size_t evict = d.stimulus.read(t0 + 1000 * ns, y * 64);
  const size_t again = d.stimulus.read(t0 + 3000 * ns, x * 64);
  run_to(t0 + 5000 * ns);

  // Write miss: tag check, XPoint read (198), the fill with the write merged is posted to DRAM
  // at once.
  CHECK(response_ns(d.stimulus, write, t0) == tag_check_ns + 198);
  // The victim goes back to XPoint while the new line is read: tag check (row hit, 20), the
  // XPoint read (198). The write-back's data on the wires waits for the rank switch after the
  // tag check's burst (tRTRS, 1 ns), and the read's REQ goes with its REQ: 1 ns later than with
  // the write-back snarfed, which puts nothing on the wires.
  CHECK(response_ns(d.stimulus, evict, t0) == 1000 + 20 + 198 + (auto_rw ? 0 : 1));
  CHECK(d.stimulus.request(again).data == data);
  CHECK(bench::debug(d.chain.xpoint, x * 64) == data);
  CHECK(d.chain.manager_counter("writebacks") == 1);
  CHECK(d.chain.port_counter("snarfed_writes") == (auto_rw ? 1 : 0));
  // Migration on the channel: three fills (an XPoint read and a DRAM write each) and the
  // write-back, unless it was snarfed.
  CHECK(d.chain.manager_counter("migration_bytes") - migration_before == (auto_rw ? 6 : 7) * 64);
  CHECK(d.chain.manager_counter("dram_cache_misses") - misses_before == 3);
  const DramCacheMetadata md = d.chain.manager.two_level()->metadata().read(7);
  CHECK(md == (DramCacheMetadata{true, false, 0}));
  CHECK(d.chain.manager.idle());
}

}  // namespace

TEST_CASE("hetero two-level: a dirty victim is written back to XPoint", "[hetero]") {
  check_dirty_victim(the_bench().directed, false, 20);  // the row is open from the test above
}

TEST_CASE("hetero two-level: with auto-read/write the victim crosses the channel once",
          "[hetero]") {
  check_dirty_victim(the_bench().auto_rw, true, 36);
}

TEST_CASE("hetero two-level: a tag check answered from the write queue is not snarfed",
          "[hetero]") {
  Directed& d = the_bench().auto_rw;
  const std::string controller = d.chain.controller.name();
  const uint64_t forwarded_before = d.chain.counter(controller, "forwarded_reads");
  const uint64_t snarfed_before = d.chain.port_counter("snarfed_writes");
  const uint64_t migration_before = d.chain.manager_counter("migration_bytes");
  const uint64_t x = 9, y = 9 + 5 * dram_lines;  // same set, tags 0 and 5
  const std::vector<uint8_t> data = pattern(9, 64);
  const uint64_t t0 = origin();
  d.stimulus.write(t0, x * 64, data);
  // Waits for the set. Its tag check goes out as the write's fill is posted, and the DRAM
  // controller answers it from that queued write: no burst crosses for the XPoint controller to
  // snarf, so the controller writes the dirty victim back itself.
  const size_t evict = d.stimulus.read(t0 + 1 * ns, y * 64);
  // Set 2048 is row 1 of set 9's bank: its tag check leaves that row open, so the fill's WR
  // waits for PRE and ACT and is still queued when the other tag check comes.
  d.stimulus.read(t0 + 100 * ns, 2048 * 64);
  run_to(t0 + 3000 * ns);
  CHECK(d.chain.counter(controller, "forwarded_reads") - forwarded_before == 1);
  CHECK(d.chain.port_counter("snarfed_writes") == snarfed_before);
  // Three fills (an XPoint read and a DRAM write each) and the write-back.
  CHECK(d.chain.manager_counter("migration_bytes") - migration_before == 7 * 64);
  CHECK(bench::debug(d.chain.xpoint, x * 64) == data);
  CHECK(d.stimulus.request(evict).data == bench::debug(d.chain.xpoint, y * 64));
  CHECK(d.chain.manager.idle());
}

TEST_CASE("hetero two-level: a random read/write mix with evictions loses nothing", "[hetero]") {
  Random& r = the_bench().random;
  INFO(bench::run_traffic(r.traffic, [&] { return r.chain.manager.idle(); }));
  CHECK(r.traffic.done());
  CHECK(r.traffic.errors() == 0);
  CHECK(r.traffic.mismatches() == 0);
  CHECK(r.traffic.reads_checked() > 500000);
  CHECK(r.chain.manager.idle());
  CHECK(r.chain.manager_counter("writebacks") > 100);
  CHECK(r.chain.manager_counter("waited_for_set") > 0);
  r.chain.manager.finish_stats();
  const double hit_rate = r.chain.manager_scalar("dram_cache_hit_rate");
  INFO("hit rate " << hit_rate);
  CHECK(hit_rate > 0.3);
  CHECK(hit_rate < 1.0);
  CHECK(r.chain.port_counter("xpoint_reads") == r.chain.manager_counter("dram_cache_misses"));
}
