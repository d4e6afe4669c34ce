// Planar mode through the whole heterogeneous path (hetero_chain.h): exact instants of a DRAM
// access, an XPoint access and a swap, the swapped bytes in both devices, and a random mix of
// reads and writes with swaps happening, checked against a shadow copy.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <systemc>
#include <vector>

#include "modules/common/vcd_writer.h"
#include "tests/bench/bench_clock.h"
#include "tests/bench/checking_initiator.h"
#include "tests/bench/hetero_chain.h"
#include "tests/bench/stimulus_initiator.h"
#include "tlm_protocols/payload_pool.h"

namespace {

using namespace ohmvp;
using bench::CheckingInitiator;
using bench::debug;
using bench::HeteroChain;
using bench::now_ps;
using bench::ns;
using bench::pattern;
using bench::response_ns;
using bench::run_to;
using bench::StimulusInitiator;

HeteroConfig planar(uint32_t page_bytes, HotPageKind kind, uint32_t threshold) {
  HeteroConfig c;
  c.mode = HeteroMode::planar;
  c.page_bytes = page_bytes;
  c.page_groups = PageGrouping::contiguous;  // the tests address group 0's pages 0..8
  c.burst_ns = 4.0;
  c.hot_page.kind = kind;
  c.hot_page.threshold = threshold;
  c.hot_page.margin = 8;
  return c;
}

HeteroConfig with_writes(HeteroConfig c) {
  c.migration_issue = MigrationIssueKind::with_writes;
  return c;
}

HeteroConfig interleaved_groups(HeteroConfig c) {
  c.page_groups = PageGrouping::interleaved;
  return c;
}

HeteroConfig auto_rw(HeteroConfig c) {
  c.auto_rw = true;
  return c;
}

// DRAM of 4 rows x 16 banks x 8 KB = 512 KiB; XPoint 4 MiB: k = 8.
struct Directed {
  Directed(const char* name, const HeteroConfig& config, StatsRegistry& stats)
      : chain((std::string(name) + "_chain").c_str(), config, 4,
              bench::hetero_xpoint_config(4, false), false, stats),
        stimulus((std::string(name) + "_stimulus").c_str()) {
    stimulus.out.bind(chain.manager.in);
  }
  HeteroChain chain;
  StimulusInitiator stimulus;
};

struct Random {
  Random(const std::string& name, const HeteroConfig& config, uint64_t requests,
         StatsRegistry& stats, VcdWriter* vcd)
      : chain((name + "_chain").c_str(), config, 4, bench::hetero_xpoint_config(4, true), true,
              stats, vcd),
        traffic((name + "_traffic").c_str(),
                traffic_config(chain.manager.capacity_bytes(), requests)) {
    traffic.out.bind(chain.manager.in);
  }
  static CheckingInitiator::Config traffic_config(uint64_t capacity, uint64_t requests) {
    CheckingInitiator::Config c;
    c.requests = requests;
    c.capacity_bytes = capacity;
    c.window_bytes = 16384;
    c.seed = 11;
    return c;
  }
  HeteroChain chain;
  CheckingInitiator traffic;
};

struct Bench {
  StatsRegistry stats;
  std::filesystem::path vcd_path = std::filesystem::temp_directory_path() /
                                   ("hetero_planar_" + std::to_string(::getpid()) + ".vcd");
  VcdWriter vcd{vcd_path};
  // No swaps here: the threshold is out of reach.
  Directed access{"access", planar(4096, HotPageKind::threshold, 60000), stats};
  // One-burst pages, hot at the first access.
  Directed swap{"swap", planar(64, HotPageKind::threshold, 1), stats};
  Directed swap_auto_rw{"swap_auto_rw", auto_rw(planar(64, HotPageKind::threshold, 1)), stats};
  Directed background{"background", with_writes(planar(64, HotPageKind::threshold, 1)), stats};
  Directed interleaved{"interleaved",
                       interleaved_groups(planar(4096, HotPageKind::threshold, 60000)), stats};
  Random random{"random", planar(4096, HotPageKind::beats_resident, 32), 2000000, stats, &vcd};
  Random random_auto_rw{"random_auto_rw", auto_rw(planar(4096, HotPageKind::beats_resident, 32)),
                        200000, stats, nullptr};
  ~Bench() { std::filesystem::remove(vcd_path); }
};

Bench& the_bench() {
  return bench::instance<Bench>();
}

uint64_t origin() {
  return bench::origin_of<Bench>();
}

}  // namespace

TEST_CASE("hetero planar: a DRAM page is read from DRAM, an XPoint page over DDR-T", "[hetero]") {
  Directed& d = the_bench().access;
  const uint64_t t0 = origin();
  const size_t dram = d.stimulus.read(t0, 0);       // page 0: the group's DRAM page
  const size_t xpoint = d.stimulus.read(t0, 4096);  // page 1: XPoint page 0
  const size_t write = d.stimulus.write(t0 + 400 * ns, 2 * 4096, pattern(1, 64));  // XPoint 1
  run_to(t0 + 2000 * ns);

  // DRAM, closed bank: ACT, tRCD, RD, tCL, burst (16 + 16 + 4 cycles of 1 ns).
  CHECK(response_ns(d.stimulus, dram, t0) == 36);
  // XPoint: 2 crossing + 190 media + 2 crossing to RSP_READY, then SEND and a 4 ns burst.
  CHECK(response_ns(d.stimulus, xpoint, t0) == 198);
  // A write is answered at WR_DONE: its 4 ns burst, then 2 crossing + 1 buffer + 2 crossing.
  CHECK(response_ns(d.stimulus, write, t0) == 409);
  CHECK(d.chain.manager_counter("dram_requests") == 1);
  CHECK(d.chain.manager_counter("xpoint_requests") == 2);
  CHECK(d.chain.port_counter("xpoint_reads") == 1);
  CHECK(d.chain.port_counter("xpoint_writes") == 1);
  CHECK(d.chain.manager_counter("migrations") == 0);
  CHECK(d.chain.manager_counter("regular_bytes") == 192);
  CHECK(d.chain.manager_counter("channel_regular_ps") == 3 * 4 * ns);
  CHECK(debug(d.chain.xpoint, 4096, nullptr) == pattern(1, 64));
  CHECK(d.chain.manager.idle());
}

TEST_CASE("hetero planar: a merged write and a forwarded read take no channel time", "[hetero]") {
  Directed& d = the_bench().access;
  const std::string controller = d.chain.controller.name();
  const uint64_t merged_before = d.chain.counter(controller, "merged_writes");
  const uint64_t forwarded_before = d.chain.counter(controller, "forwarded_reads");
  const uint64_t bytes_before = d.chain.manager_counter("regular_bytes");
  const uint64_t time_before = d.chain.manager_counter("channel_regular_ps");
  // Page 288 is group 32's DRAM page: row 1 of bank 0, where page 0 is row 0.
  uint64_t device_address = 0;
  REQUIRE(d.chain.manager.planar()->locate(288 * 4096, device_address));
  REQUIRE(device_address == 32 * 4096);
  const std::vector<uint8_t> low = pattern(11, 32), high = pattern(12, 32);
  const uint64_t t0 = origin();
  d.stimulus.read(t0, 288 * 4096);
  // Row 0 waits for PRE and ACT after that read: the write is still queued when the rest come.
  d.stimulus.write(t0 + 1 * ns, 2 * 64, low);
  d.stimulus.write(t0 + 1 * ns, 2 * 64 + 32, high);
  const size_t read = d.stimulus.read(t0 + 1 * ns, 2 * 64);
  run_to(t0 + 1000 * ns);

  std::vector<uint8_t> both = low;
  both.insert(both.end(), high.begin(), high.end());
  CHECK(d.stimulus.request(read).data == both);
  CHECK(d.chain.counter(controller, "merged_writes") - merged_before == 1);
  CHECK(d.chain.counter(controller, "forwarded_reads") - forwarded_before == 1);
  // Bursts on the wires: the first read and the write; the merged write's bytes go in the
  // write's burst, the forwarded read puts nothing on them.
  CHECK(d.chain.manager_counter("regular_bytes") - bytes_before == 64 + 32 + 32);
  CHECK(d.chain.manager_counter("channel_regular_ps") - time_before == 2 * 4 * ns);
  CHECK(d.chain.manager.idle());
}

TEST_CASE("hetero planar: with interleaved groups the first pages are all in DRAM", "[hetero]") {
  Directed& d = the_bench().interleaved;
  const uint64_t t0 = origin();
  // 128 groups (512 KiB of DRAM): pages 0..127 start in DRAM, page 128 is group 0's first
  // XPoint page, at XPoint address 0.
  const size_t neighbour = d.stimulus.read(t0, 4096);     // page 1: group 1's DRAM page
  const size_t xpoint = d.stimulus.read(t0, 128 * 4096);  // page 128
  const size_t write = d.stimulus.write(t0 + 400 * ns, 129 * 4096, pattern(2, 64));
  run_to(t0 + 2000 * ns);

  // The same instants as the DRAM and XPoint reads of the contiguous layout above.
  CHECK(response_ns(d.stimulus, neighbour, t0) == 36);
  CHECK(response_ns(d.stimulus, xpoint, t0) == 198);
  CHECK(response_ns(d.stimulus, write, t0) == 409);
  CHECK(d.chain.manager_counter("dram_requests") == 1);
  CHECK(d.chain.manager_counter("xpoint_requests") == 2);
  // Page 129 is group 1's first XPoint page: XPoint page 8, after group 0's eight.
  CHECK(debug(d.chain.xpoint, 8 * 4096, nullptr) == pattern(2, 64));
  CHECK(d.chain.manager.idle());
}

TEST_CASE("hetero planar: DDR-T reads overlap; their SENDs take turns on the bus", "[hetero]") {
  Directed& d = the_bench().access;
  const uint64_t t0 = origin();
  // Eight reads of XPoint page 0, one per media line, so on eight partitions, and one DRAM read.
  std::vector<size_t> reads;
  for (uint64_t i = 0; i < 8; ++i) reads.push_back(d.stimulus.read(t0, 4096 + i * 256));
  const size_t dram = d.stimulus.read(t0, 128);
  run_to(t0 + 2000 * ns);

  // All eight REQs go out at t0 with their own tags and their media reads run in parallel:
  // every RSP_READY comes at 194; the SENDs then follow each other, one 4 ns burst apart.
  for (uint64_t i = 0; i < 8; ++i) CHECK(response_ns(d.stimulus, reads[i], t0) == 198 + 4 * i);
  // Meanwhile the DRAM read was served (the row is still open from the first test: 16 + 4).
  CHECK(response_ns(d.stimulus, dram, t0) == 20);
  CHECK(d.chain.manager.idle());
}

TEST_CASE("hetero planar: DDR-T data and DRAM bursts share the channel's data wires", "[hetero]") {
  Directed& d = the_bench().access;
  const uint64_t t0 = origin();
  const uint64_t bursts_before = d.chain.counter("access_chain.channel", "bursts");
  const uint64_t switches_before = d.chain.counter("access_chain.channel", "device_switches");
  const size_t xpoint = d.stimulus.read(t0, 4096);  // RSP_READY at 194
  // Four row hits to DRAM page 0, RDs tCCD_L = 6 cycles apart from 178: bursts at 194..198,
  // 200..204, 206..210 are placed before the XPoint data is ready; the fourth RD is due at 196.
  std::vector<size_t> dram;
  for (uint64_t i = 0; i < 4; ++i) dram.push_back(d.stimulus.read(t0 + 178 * ns, i * 64));
  run_to(t0 + 2000 * ns);

  for (uint64_t i = 0; i < 3; ++i) CHECK(response_ns(d.stimulus, dram[i], t0) == 198 + 6 * i);
  // At 194 the SEND's 4 ns burst fits none of the 2 ns gaps between the DRAM bursts: it takes
  // the first free slot after the rank switch (tRTRS, 1 ns), 211..215, instead of 194..198.
  CHECK(response_ns(d.stimulus, xpoint, t0) == 215);
  // The fourth RD would put its burst at 212..216, on the XPoint data: it waits for the data and
  // the switch back, RD at 200, burst 216..220.
  CHECK(response_ns(d.stimulus, dram[3], t0) == 220);
  // The channel carried all five: four DRAM bursts and the DDR-T data, switching twice around
  // it and once from the last XPoint data of the test above to the first DRAM burst.
  CHECK(d.chain.counter("access_chain.channel", "bursts") == bursts_before + 5);
  CHECK(d.chain.counter("access_chain.channel", "device_switches") == switches_before + 3);
  CHECK(d.chain.manager.idle());
}

TEST_CASE("hetero planar: bad requests are refused at once", "[hetero]") {
  Directed& d = the_bench().access;
  const uint64_t capacity = d.chain.manager.capacity_bytes();
  CHECK(capacity == (512 + 4096) * 1024);
  const uint64_t t0 = origin();
  const size_t outside = d.stimulus.read(t0, capacity);
  const size_t across = d.stimulus.read(t0, 32, 64);  // crosses a 64-byte burst
  run_to(t0 + 100 * ns);
  REQUIRE(d.stimulus.request(outside).response_ps.has_value());
  CHECK(*d.stimulus.request(outside).response_ps == t0);
  CHECK(d.stimulus.request(outside).status == tlm::TLM_ADDRESS_ERROR_RESPONSE);
  CHECK(d.stimulus.request(across).status == tlm::TLM_BURST_ERROR_RESPONSE);
  CHECK(d.chain.manager.idle());
}

TEST_CASE("hetero planar: a BEGIN_REQ while another waits to be taken is a protocol error",
          "[hetero]") {
  Directed& d = the_bench().access;
  const uint64_t t0 = origin();
  // One more read than the manager has request slots: the last waits for END_REQ.
  std::vector<size_t> reads;
  for (uint64_t i = 0; i <= HeteroConfig{}.max_requests; ++i)
    reads.push_back(d.stimulus.read(t0, 4096 + i * 64));
  run_to(t0 + 1 * ns);
  REQUIRE_FALSE(d.stimulus.request(reads.back()).response_ps.has_value());

  std::vector<uint8_t> data(64);
  tlm::tlm_generic_payload another;
  another.set_command(tlm::TLM_READ_COMMAND);
  another.set_address(0);
  another.set_data_ptr(data.data());
  another.set_data_length(64);
  another.set_streaming_width(64);
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  // The manager keeps a request past the call: a payload it cannot acquire is refused, and so
  // is an annotated delay.
  CHECK_THROWS_WITH(d.chain.manager.nb_transport_fw(another, phase, delay),
                    Catch::Contains("without a memory manager"));
  PayloadPool pool;
  tlm::tlm_generic_payload& pooled = *pool.acquire();
  pooled.set_data_ptr(data.data());
  pooled.deep_copy_from(another);
  sc_core::sc_time later = sc_core::sc_time(1, sc_core::SC_NS);
  CHECK_THROWS_WITH(d.chain.manager.nb_transport_fw(pooled, phase, later),
                    Catch::Contains("annotated delay is not supported"));
  CHECK_THROWS_WITH(d.chain.manager.nb_transport_fw(pooled, phase, delay),
                    Catch::Contains("BEGIN_REQ before END_REQ"));

  // The waiting read is taken once a slot frees, as if nothing had happened.
  run_to(t0 + 20'000 * ns);
  for (const size_t read : reads) CHECK(d.stimulus.request(read).status == tlm::TLM_OK_RESPONSE);
  CHECK(d.chain.manager.idle());
}

namespace {

// A swap of one-burst pages; with auto-read/write the XPoint controller writes the DRAM page into
// XPoint from the DRAM read it snarfed, so that burst crosses the channel once.
void check_swap(Directed& d, bool auto_rw) {
  HeteroMemoryManager& m = d.chain.manager;
  // Page 0 is the group's DRAM page (DRAM 0), page 1 its first XPoint page (XPoint 0).
  const std::vector<uint8_t> a = pattern(2, 64), b = pattern(3, 64);
  debug(m, 0, &a);
  debug(m, 64, &b);
  const uint64_t t0 = origin();
  const size_t first = d.stimulus.read(t0, 64);                // XPoint; makes page 1 hot
  const size_t waits = d.stimulus.read(t0 + 10 * ns, 64);      // to the page being swapped
  const size_t other = d.stimulus.read(t0 + 20 * ns, 9 * 64);  // group 1's DRAM page: proceeds
  run_to(t0 + 3000 * ns);

  CHECK(d.stimulus.request(first).data == b);
  CHECK(d.stimulus.request(waits).data == b);
  // The first read is served from XPoint as usual (198 ns); the swap starts once it is done.
  CHECK(response_ns(d.stimulus, first, t0) == 198);
  // Another page proceeds during the swap: DRAM, bank 0 row 0 closed, 36 ns after it was sent.
  CHECK(response_ns(d.stimulus, other, t0) == 20 + 36);
  // Swap: at 198 both pages are read. DRAM 0 (bank open from `other`: a row hit) is across
  // long before XPoint 0: RSP_READY at 198 + 194 = 392, its burst across at 396. At 396 both
  // writes go out: the DRAM controller takes the write at once and issues WR at 396 (row hit,
  // no read waiting); the XPoint write's burst is across at 400 and its WR_DONE comes 5 ns
  // later, at 405, when the table changes. The waiting read then goes to DRAM: write data ends
  // at 396 + tCWL 12 + burst 4 = 412, RD after tWTR_L 9 at 421, data at 421 + tCL 16 + burst 4
  // = 441.
  CHECK(response_ns(d.stimulus, waits, t0) == 441);
  CHECK(d.chain.manager_counter("migrations") == 1);
  CHECK(d.chain.manager_counter("waited_for_swap") == 1);
  CHECK(d.chain.manager_counter("swapped_bytes") == 4 * 64);
  // On the channel: both reads and the DRAM write, and the XPoint write unless it was snarfed.
  // The snarfed write waits for the XPoint read of its line (RSP_READY, SEND at 392, data across
  // at 396) but crosses nothing itself: its WR_DONE at 401, so the swap ends 4 ns earlier, and
  // the waiting read's RD is held by tWTR_L until 421 all the same.
  const uint64_t channel_bursts = auto_rw ? 3 : 4;
  CHECK(d.chain.manager_counter("migration_bytes") == channel_bursts * 64);
  CHECK(d.chain.manager_counter("channel_migration_ps") == channel_bursts * 4 * ns);
  CHECK(d.chain.port_counter("snarfed_writes") == (auto_rw ? 1 : 0));
  CHECK(d.chain.port_counter("xpoint_writes") == 1);
  const std::string chain = d.chain.name();
  const Histogram* swap_time = d.chain.stats().find_histogram(chain + ".hmm", "swap_time");
  REQUIRE(swap_time != nullptr);
  // From the page turning hot, at the first read's arrival (0), to the last WR_DONE.
  CHECK(swap_time->max() == (auto_rw ? 401 : 405) * ns);
  REQUIRE(m.planar() != nullptr);
  CHECK(m.planar()->table().in_dram(1));
  CHECK(m.planar()->table().slot_of(0) == 1);
  // Real bytes moved: DRAM now holds page 1's bytes, XPoint page 0 holds page 0's.
  CHECK(debug(d.chain.controller, 0, nullptr) == b);
  CHECK(debug(d.chain.xpoint, 0, nullptr) == a);
  CHECK(debug(m, 0, nullptr) == a);
  CHECK(debug(m, 64, nullptr) == b);
  CHECK(m.idle());
}

}  // namespace

TEST_CASE("hetero planar: a hot XPoint page is swapped with its group's DRAM page", "[hetero]") {
  check_swap(the_bench().swap, false);
}

TEST_CASE("hetero planar: with auto-read/write the DRAM page crosses the channel once",
          "[hetero]") {
  check_swap(the_bench().swap_auto_rw, true);
}

TEST_CASE("hetero planar: migrations issued with writes wait for the reads in flight", "[hetero]") {
  Directed& d = the_bench().background;
  const Histogram* swap_time = d.chain.stats().find_histogram("background_chain.hmm", "swap_time");
  REQUIRE(swap_time != nullptr);
  // Page 1 (XPoint, group 0) turns hot at its first read; the swap waits for that read (198).
  // Page 10 (XPoint, group 1) is read meanwhile, in flight until 100 + 198.
  uint64_t t0 = origin();
  d.stimulus.read(t0, 1 * 64);
  d.stimulus.read(t0 + 100 * ns, 10 * 64);
  run_to(t0 + 450 * ns);
  // Immediately issued, the swap's reads would have gone at 198 and it would be done at 401.
  CHECK_FALSE(d.chain.manager.planar()->table().in_dram(1));
  run_to(t0 + 1000 * ns);
  // The swap's reads went out when the other read was answered (298): RSP_READY 194 later, the
  // burst across at 496, both writes then; the XPoint write's burst is across at 500, its WR_DONE
  // at 505.
  CHECK(d.chain.manager.planar()->table().in_dram(1));
  CHECK(swap_time->count() == 1);
  CHECK(swap_time->max() == 505 * ns);

  // The same, with a front write at 250 to another page: it takes the swap's two reads along.
  t0 = origin();
  d.stimulus.read(t0, 19 * 64);                              // group 2, XPoint: hot
  d.stimulus.read(t0 + 100 * ns, 28 * 64);                   // group 3, XPoint: in flight
  d.stimulus.write(t0 + 250 * ns, 27 * 64, pattern(6, 64));  // group 3's DRAM page
  run_to(t0 + 1000 * ns);
  CHECK(d.chain.manager.planar()->table().in_dram(19));
  CHECK(swap_time->count() == 2);
  // Reads at 250, burst across at 448, the XPoint write's at 452, its WR_DONE at 457.
  CHECK(swap_time->max() == 505 * ns);
  CHECK(swap_time->min() == 457 * ns);
  CHECK(d.chain.manager.idle());
}

TEST_CASE("hetero planar: a random read/write mix with swaps loses nothing", "[hetero]") {
  Random& r = the_bench().random;
  INFO(bench::run_traffic(r.traffic, [&] { return r.chain.manager.idle(); }));
  CHECK(r.traffic.done());
  CHECK(r.traffic.errors() == 0);
  CHECK(r.traffic.mismatches() == 0);
  CHECK(r.traffic.reads_checked() > 500000);
  CHECK(r.chain.manager.idle());
  const uint64_t migrations = r.chain.manager_counter("migrations");
  INFO("migrations " << migrations);
  CHECK(migrations > 20);
  CHECK(r.chain.manager_counter("waited_for_swap") > 0);
  CHECK(r.chain.manager_counter("masked_xpoint_writes") > 0);
  // Each swap reads and writes both pages, but a DRAM read the controller answers from a queued
  // front write puts nothing on the channel.
  const uint64_t migration_bytes = r.chain.manager_counter("migration_bytes");
  const uint64_t forwarded = r.chain.counter(r.chain.controller.name(), "forwarded_reads");
  CHECK(migration_bytes < migrations * 4 * 4096);
  CHECK(migration_bytes + forwarded * 64 >= migrations * 4 * 4096);
  r.chain.manager.finish_stats();
  const double share = r.chain.manager_scalar("migration_channel_share");
  CHECK(share > 0.0);
  CHECK(share < 1.0);

  the_bench().vcd.close(now_ps());
  std::ifstream in(the_bench().vcd_path);
  std::stringstream text;
  text << in.rdbuf();
  CHECK(text.str().find("migration_in_flight") != std::string::npos);
  CHECK(text.str().find("ddr_t_outstanding") != std::string::npos);
}

TEST_CASE("hetero planar: with auto-read/write a DRAM burst that does not cross is sent",
          "[hetero]") {
  Random& r = the_bench().random_auto_rw;
  INFO(bench::run_traffic(r.traffic, [&] { return r.chain.manager.idle(); }));
  CHECK(r.traffic.done());
  CHECK(r.traffic.mismatches() == 0);
  CHECK(r.chain.manager.idle());
  const uint64_t migrations = r.chain.manager_counter("migrations");
  INFO("migrations " << migrations);
  CHECK(migrations > 20);
  // Each of a swap's 64 XPoint writes is snarfed from its DRAM read, unless the controller
  // answered that read from its write queue: then the write carries the burst instead. So the
  // channel carries three of the four pages' moves either way.
  const uint64_t snarfed = r.chain.port_counter("snarfed_writes");
  CHECK(snarfed < migrations * 64);
  CHECK(snarfed > migrations * 32);
  CHECK(r.chain.manager_counter("migration_bytes") == migrations * 3 * 4096);
}
