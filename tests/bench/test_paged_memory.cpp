// Paged mode (the Origin platform's GPU memory) through a whole channel: front ->
// HeteroMemoryManager (paged) -> MemoryController -> ElectricalChannel -> DramDevice, with host
// memory behind a PCIe link. Exact instants of a cold fault, a hit, a clean and a dirty eviction,
// the bytes making the round trip through host memory, and a random read/write mix with faults
// and evictions happening, checked against a shadow copy; and a page that crosses PCIe before the
// clean page it replaces has drained.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <systemc>
#include <vector>

#include "modules/common/stats.h"
#include "modules/interconnect/electrical_channel.h"
#include "modules/interconnect/pcie_link.h"
#include "modules/memory/dram_device.h"
#include "modules/memory/hetero_memory_manager.h"
#include "modules/memory/memory_controller.h"
#include "tests/bench/bench_clock.h"
#include "tests/bench/checking_initiator.h"
#include "tests/bench/hetero_chain.h"
#include "tests/bench/stimulus_initiator.h"

namespace {

using namespace ohmvp;
using bench::CheckingInitiator;
using bench::ns;
using bench::pattern;
using bench::response_ns;
using bench::run_to;
using bench::StimulusInitiator;

constexpr uint32_t page = 4096;

// Round numbers: a 4 KiB page crosses PCIe in 1000 ns (4.096 GB/s, no set-up time); a fault
// waits 2000 ns before its page's transfer starts.
PcieLinkConfig pcie(double gb_per_s = 4.096) {
  PcieLinkConfig c;
  c.bandwidth_gb_per_s = gb_per_s;
  c.latency_ns = 0.0;
  return c;
}

HeteroConfig paged(uint32_t max_faults, double fault_ns = 2000.0) {
  HeteroConfig c;
  c.mode = HeteroMode::paged;
  c.page_bytes = page;
  c.max_migrations = max_faults;
  c.fault_ns = fault_ns;
  c.burst_ns = 4.0;
  return c;
}

// DRAM of `rows` x 16 banks x 512-byte rows (8 KiB per row across the banks), DDR4-2400 in 1 ns
// cycles (hetero_chain.h), row:bank:column, host memory of `host_pages` pages; by default the
// round numbers above for the fault's handling and PCIe.
class PagedChain : public sc_core::sc_module {
 public:
  PagedChain(sc_core::sc_module_name name, uint32_t rows, uint64_t host_pages, uint32_t max_faults,
             StatsRegistry& stats, double fault_ns = 2000.0, double pcie_gb_per_s = 4.096)
      : sc_module(name),
        link(pcie(pcie_gb_per_s)),
        controller("mc", bench::hetero_controller_config(false), geometry(rows),
                   bench::hetero_dram_timing(), 8, stats, nullptr),
        channel("channel", ElectricalChannelConfig{}, 0, stats, nullptr),  // DRAM only
        dram("dram", geometry(rows), bench::hetero_dram_timing(), 8, stats),
        manager("hmm", paged(max_faults, fault_ns), controller.capacity_bytes(),
                {host_pages * page, 0, &link}, channel.data_bus(BusDevice::xpoint), stats, nullptr),
        m_stats(stats) {
    manager.dram().bind(controller.in);
    controller.out.bind(channel.in);
    channel.out.bind(dram.in);
  }
  static DramGeometry geometry(uint32_t rows) {
    DramGeometry g = bench::hetero_dram_geometry(rows);
    g.columns = 64;
    return g;
  }
  uint64_t counter(const char* stat) const {
    const Counter* c = m_stats.find_counter(manager.name(), stat);
    if (c == nullptr) throw std::logic_error(std::string("no counter ") + stat);
    return c->value();
  }

  PcieLink link;
  MemoryController controller;
  ElectricalChannel channel;
  DramDevice dram;
  HeteroMemoryManager manager;

 private:
  StatsRegistry& m_stats;
};

struct Directed {
  // 8 KiB of DRAM: two frames; host memory of 16 pages.
  explicit Directed(StatsRegistry& stats)
      : chain("directed_chain", 1, 16, 2, stats), stimulus("directed_stimulus") {
    stimulus.out.bind(chain.manager.in);
  }
  PagedChain chain;
  StimulusInitiator stimulus;
};

struct Racing {
  // As Directed, but a fault is handled at once and a page crosses PCIe in 1 ns: a page comes
  // before a DRAM access still in flight to the page it replaces is done, as on a slow channel.
  explicit Racing(StatsRegistry& stats)
      : chain("racing_chain", 1, 16, 2, stats, 0.0, 4096.0), stimulus("racing_stimulus") {
    stimulus.out.bind(chain.manager.in);
  }
  PagedChain chain;
  StimulusInitiator stimulus;
};

struct Random {
  // 64 KiB of DRAM (16 frames) paging 256 KiB of host memory, four faults at once.
  explicit Random(StatsRegistry& stats)
      : chain("random_chain", 8, 64, 4, stats),
        traffic("random_traffic", traffic_config(chain.manager.capacity_bytes())) {
    traffic.out.bind(chain.manager.in);
  }
  static CheckingInitiator::Config traffic_config(uint64_t capacity) {
    CheckingInitiator::Config c;
    c.requests = 300000;
    c.capacity_bytes = capacity;
    c.window_bytes = 32768;
    c.far_fraction = 0.05;
    c.seed = 13;
    return c;
  }
  PagedChain chain;
  CheckingInitiator traffic;
};

struct Bench {
  StatsRegistry stats;
  Directed directed{stats};
  Racing racing{stats};
  Random random{stats};
};

Bench& the_bench() {
  return bench::instance<Bench>();
}

uint64_t origin() {
  return bench::origin_of<Bench>();
}

}  // namespace

TEST_CASE("paged: a cold fault brings the page over PCIe, then requests hit", "[paged]") {
  Directed& d = the_bench().directed;
  PagedChain& c = d.chain;
  const uint64_t t0 = origin();
  const size_t first = d.stimulus.read(t0, 3 * page + 128);
  const size_t behind = d.stimulus.read(t0 + 10 * ns, 3 * page + 256);  // same page, waits
  run_to(t0 + 10000 * ns);

  // 2000 ns of fault handling and 1000 ns across PCIe; the 64 bursts of the page are written
  // into the free frame, taken into the controller's write queue one a clock while it has room,
  // then as its drain frees entries, the last 143 ns later, when the page is mapped. The read is
  // taken at the next clock; the drain has served min_writes_per_switch writes by then, so the
  // read goes after the write-to-read turnaround and is answered 44 ns later.
  CHECK(response_ns(d.stimulus, first, t0) == 3000 + 144 + 44);
  // The second read waited for the fault and follows tCCD_L = 6 cycles later.
  CHECK(response_ns(d.stimulus, behind, t0) == 3188 + 6);
  CHECK(c.counter("migrations") == 1);
  CHECK(c.counter("evictions") == 0);
  CHECK(c.counter("waited_for_fault") == 1);
  CHECK(c.counter("host_to_device_bytes") == page);
  CHECK(c.link.bytes(PcieLink::Direction::host_to_device) == page);
  CHECK(c.manager.paged()->table().resident(3));

  // A hit is served by DRAM alone.
  const uint64_t t1 = origin();
  const size_t hit = d.stimulus.read(t1, 3 * page + 512);
  run_to(t1 + 1000 * ns);
  CHECK(response_ns(d.stimulus, hit, t1) == 16 + 4);
  CHECK(c.counter("page_hits") == 1);
  CHECK(c.manager.idle());
}

TEST_CASE("paged: evictions take the oldest page; a dirty one goes back to host memory",
          "[paged]") {
  Directed& d = the_bench().directed;
  PagedChain& c = d.chain;
  const uint64_t faults_before = c.counter("migrations");
  // Page 5 into the second frame, then written: DRAM now holds pages 3 (oldest) and 5 (dirty).
  uint64_t t0 = origin();
  d.stimulus.read(t0, 5 * page);
  run_to(t0 + 10000 * ns);
  t0 = origin();
  const std::vector<uint8_t> data = pattern(5, 64);
  d.stimulus.write(t0, 5 * page + 64, data);
  run_to(t0 + 1000 * ns);

  // Page 7 takes page 3's frame: clean, so nothing goes back over PCIe.
  t0 = origin();
  const size_t clean = d.stimulus.read(t0, 7 * page);
  run_to(t0 + 10000 * ns);
  // As the cold fault, the read answered 27 ns after it is taken (the frame's rows were open).
  CHECK(response_ns(d.stimulus, clean, t0) == 3000 + 144 + 27);
  CHECK(c.counter("writebacks") == 0);
  CHECK_FALSE(c.manager.paged()->table().resident(3));

  // Page 9 takes page 5's frame: dirty, its 64 bursts are read from DRAM and cross back to host
  // memory while the host handles the fault; page 9 follows as before.
  t0 = origin();
  const size_t dirty = d.stimulus.read(t0, 9 * page);
  const size_t back = d.stimulus.read(t0 + 100 * ns, 5 * page + 64);  // waits for the write-back
  run_to(t0 + 20000 * ns);
  // The write-back (the victim's 64 bursts read by 276, then 1000 ns to host memory) is done
  // long before the 3000 ns the new page takes to come. The fill is taken by 126 ns (43 writes
  // one a clock before the queue is full, against 37 for the cold fault), the read at the next
  // clock.
  CHECK(response_ns(d.stimulus, dirty, t0) == 3000 + 127 + 44);
  // Page 5 faults again once its bytes are in host memory (276 + 1000), then 2000 ns of fault
  // handling, 1000 across PCIe, the fill taken as the last one and the read after the drain's
  // turnaround.
  CHECK(response_ns(d.stimulus, back, t0) == 276 + 1000 + 2000 + 1000 + 127 + 44);
  CHECK(d.stimulus.request(back).data == data);
  CHECK(c.counter("writebacks") == 1);
  CHECK(c.counter("device_to_host_bytes") == page);
  CHECK(c.counter("migrations") == faults_before + 4);  // 5, 7, 9 and 5 again
  CHECK(bench::debug(c.manager, 5 * page + 64) == data);
  CHECK(c.manager.idle());
}

TEST_CASE("paged: a debug write to a clean page in DRAM survives the page's eviction", "[paged]") {
  // A host copy writes through the debug interface; the page stays clean, so when it is given
  // up nothing is written back and host memory must already hold the new bytes.
  Directed& d = the_bench().directed;
  PagedChain& c = d.chain;
  REQUIRE(c.manager.paged()->table().resident(9));  // read only: clean
  const std::vector<uint8_t> copied = pattern(9, 64);
  bench::debug(c.manager, 9 * page + 192, &copied);
  CHECK(bench::debug(c.manager, 9 * page + 192) == copied);
  const uint64_t writebacks_before = c.counter("writebacks");

  // Pages 11 and 13 take both frames, then page 9 faults back in from host memory.
  uint64_t t0 = origin();
  d.stimulus.read(t0, 11 * page);
  d.stimulus.read(t0, 13 * page);
  run_to(t0 + 20000 * ns);
  REQUIRE_FALSE(c.manager.paged()->table().resident(9));
  CHECK(c.counter("writebacks") == writebacks_before);  // pages 9 and 5 were only read since
  t0 = origin();
  const size_t again = d.stimulus.read(t0, 9 * page + 192);
  run_to(t0 + 20000 * ns);
  CHECK(d.stimulus.request(again).data == copied);
  CHECK(c.manager.idle());
}

TEST_CASE("paged: a page that crosses PCIe while the clean page it replaces drains is filled",
          "[paged]") {
  Racing& d = the_bench().racing;
  PagedChain& c = d.chain;
  // Pages 3 and 5 fill both frames, clean.
  uint64_t t0 = origin();
  d.stimulus.read(t0, 3 * page);
  d.stimulus.read(t0, 5 * page);
  run_to(t0 + 10000 * ns);
  REQUIRE(c.manager.paged()->table().resident(3));
  REQUIRE(c.manager.paged()->table().resident(5));
  REQUIRE(c.counter("evictions") == 0);

  // A hit on page 3, then a fault on page 7 that takes page 3's frame: the fault waits for the
  // hit (in DRAM for 20 ns) while page 7 crosses in 1 ns. Page 3 is clean, so nothing is read
  // back; the fill starts once the hit is done.
  t0 = origin();
  const size_t hit = d.stimulus.read(t0, 3 * page + 64);
  const size_t fault = d.stimulus.read(t0, 7 * page);
  run_to(t0 + 10000 * ns);
  CHECK(response_ns(d.stimulus, hit, t0) == 16 + 4);
  // The fill starts when the hit is answered; its bursts are taken as the dirty eviction's (the
  // frame's rows open, the last 127 ns later) and the read is answered 44 ns after that.
  CHECK(response_ns(d.stimulus, fault, t0) == 16 + 4 + 127 + 44);
  CHECK(c.counter("evictions") == 1);
  CHECK(c.counter("writebacks") == 0);
  CHECK(c.manager.paged()->table().resident(7));
  CHECK_FALSE(c.manager.paged()->table().resident(3));
  CHECK(c.manager.idle());
}

TEST_CASE("paged: a random read/write mix with faults and evictions loses nothing", "[paged]") {
  Random& r = the_bench().random;
  INFO(bench::run_traffic(r.traffic, [&] { return r.chain.manager.idle(); }));
  CHECK(r.traffic.done());
  CHECK(r.traffic.errors() == 0);
  CHECK(r.traffic.mismatches() == 0);
  CHECK(r.traffic.reads_checked() > 100000);
  CHECK(r.chain.manager.idle());
  INFO("faults " << r.chain.counter("migrations") << ", write-backs "
                 << r.chain.counter("writebacks"));
  CHECK(r.chain.counter("migrations") > 200);
  CHECK(r.chain.counter("writebacks") > 100);
  CHECK(r.chain.counter("waited_for_fault") > 0);
  CHECK(r.chain.counter("page_hits") > r.chain.counter("page_misses"));
}
