// The optical channel in the heterogeneous path of one channel: front -> HeteroMemoryManager ->
// (MemoryController -> OpticalChannel -> DramDevice) and (DDR-T -> XPointController), the DRAM
// bursts and the XPoint data on the controller's virtual channel. Exact instants of a DRAM read,
// an XPoint read alone and one that follows a DRAM burst (the detector switch), and two
// controllers on two virtual channels that do not meet. Round numbers as in hetero_chain.h
// (DDR4-2400 cycles on a 1 ns clock, 64-byte bursts); the virtual channel is 16 wavelengths at
// 8 Gb/s so a 64-byte burst takes the 4 ns of the DRAM's burst, with the default 5 cm waveguide
// (701 ps of flight), 1 ns SerDes and 100 ps on/off tuning.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <systemc>
#include <utility>
#include <vector>

#include "modules/common/errors.h"
#include "modules/common/vcd_writer.h"
#include "modules/optical/mrr_state.h"
#include "modules/optical/optical_channel.h"
#include "tests/bench/bench_clock.h"
#include "tests/bench/hetero_chain.h"
#include "tests/bench/optical_chain.h"
#include "tests/bench/stimulus_initiator.h"

namespace {

using namespace ohmvp;
using bench::now_ps;
using bench::ns;
using bench::OpticalChain;
using bench::pattern;
using bench::run_to;
using bench::StimulusInitiator;

constexpr uint64_t latency = bench::optical_latency_ps;

HeteroConfig planar_no_swaps() {
  return bench::optical_planar(60000);  // the threshold is out of reach
}

struct Bench {
  StatsRegistry stats;
  std::filesystem::path vcd_path = std::filesystem::temp_directory_path() /
                                   ("optical_channel_" + std::to_string(::getpid()) + ".vcd");
  VcdWriter vcd{vcd_path};
  OpticalChain vc0{"vc0", planar_no_swaps(), 0, std::nullopt, stats, &vcd};
  OpticalChain vc1{"vc1", planar_no_swaps(), 1, std::nullopt, stats, nullptr};
  // A memory route that takes turns with the data route, as on a reverse write.
  OpticalChain vc2{"vc2", planar_no_swaps(), 2, DualRouteMode::none, stats, &vcd};
  ~Bench() { std::filesystem::remove(vcd_path); }
};

Bench& the_bench() {
  return bench::instance<Bench>();
}

uint64_t origin() {
  return bench::origin_of<Bench>();
}

// The changes of signal `path` (dotted scopes, then the name) in VCD `text`: (time, value).
std::vector<std::pair<uint64_t, uint64_t>> vcd_changes(const std::string& text,
                                                       const std::string& path) {
  std::istringstream lines(text);
  std::vector<std::string> scopes;
  std::string code;
  std::string line;
  while (std::getline(lines, line) && line != "$enddefinitions $end") {
    std::istringstream words(line);
    std::string keyword, kind, width, id, name;
    words >> keyword;
    if (keyword == "$scope" && words >> kind >> name) scopes.push_back(name);
    if (keyword == "$upscope") scopes.pop_back();
    if (keyword == "$var" && words >> kind >> width >> id >> name) {
      std::string full;
      for (const std::string& scope : scopes) full += scope + ".";
      if (full + name == path) code = id;
    }
  }
  REQUIRE_FALSE(code.empty());
  std::vector<std::pair<uint64_t, uint64_t>> changes;
  uint64_t time = 0;
  while (std::getline(lines, line)) {
    if (line.empty() || line[0] == '$') continue;
    if (line[0] == '#') {
      time = std::stoull(line.substr(1));
    } else if (line[0] == 'b' && line.substr(line.find(' ') + 1) == code) {
      changes.emplace_back(time, std::stoull(line.substr(1, line.find(' ') - 1), nullptr, 2));
    } else if (line.substr(1) == code) {
      changes.emplace_back(time, line[0] == '1' ? 1 : 0);
    }
  }
  return changes;
}

}  // namespace

TEST_CASE("optical channel: the fixed latency is flight plus SerDes", "[optical_channel]") {
  OpticalChain& c = the_bench().vc0;
  CHECK(c.channel.arrival_latency_ps() == latency);
  CHECK(c.channel.data_bus(BusDevice::dram).arrival_latency_ps() == latency);
  CHECK(c.channel.data_bus(BusDevice::xpoint).arrival_latency_ps() == latency);
  CHECK(c.channel.serialisation_ps(64) == 4 * ns);
  // The Ohm-base channel: 16 wavelengths at 30 Gb/s, 64 bytes in 1067 ps.
  OpticalChannelConfig ohm;
  CHECK(ohm.lanes(VirtualChannelId{0}) == 16);
  CHECK(ohm.bandwidth_gbps(VirtualChannelId{0}) == Approx(480.0));
}

TEST_CASE("optical channel: a DRAM read and an XPoint read arrive after flight and SerDes",
          "[optical_channel]") {
  OpticalChain& c = the_bench().vc0;
  const uint64_t t0 = origin();
  const uint64_t bursts0 = c.counter("bursts");
  const uint64_t busy0 = c.counter("data_busy_ps");
  c.stimulus.write(t0, 0, pattern(3, 64));  // a posted DRAM write: opens the row
  const size_t dram = c.stimulus.read(t0 + 100 * ns, 0);
  const size_t xpoint = c.stimulus.read(t0 + 100 * ns, 4096);
  const size_t write = c.stimulus.write(t0 + 500 * ns, 2 * 4096, pattern(1, 64));
  run_to(t0 + 2000 * ns);

  // DRAM, the row open since the write: RD, tCL 16, burst 4, then 1701 ps to the controller.
  CHECK(c.response_ps(dram, t0) == 100 * ns + 20 * ns + latency);
  CHECK(c.stimulus.request(dram).data == pattern(3, 64));
  // XPoint: 2 crossing + 190 media + 2 crossing to RSP_READY at 294, then SEND; the DRAM burst
  // ended at 120, long before: 4 ns on the light and 1701 ps.
  CHECK(c.response_ps(xpoint, t0) == 294 * ns + 4 * ns + latency);
  // A write is answered at WR_DONE: its data crosses in 4 ns on the light and reaches the XPoint
  // controller 1701 ps later; from the next controller edge (506), 2 crossing + 1 buffer + 2
  // crossing.
  CHECK(c.response_ps(write, t0) == 511 * ns);
  CHECK(c.counter("bursts") == bursts0 + 4);
  CHECK(c.counter("dram_bursts") == 2);
  CHECK(c.counter("xpoint_bursts") == 2);
  CHECK(c.counter("data_bytes") == 4 * 64);
  CHECK(c.counter("light_bits") == 4 * 512);
  // DRAM (write, read), XPoint (read, write): one switch.
  CHECK(c.counter("detector_switches") == 1);
  CHECK(c.counter("tuning_ps") == 100);
  CHECK(c.counter("data_busy_ps") == busy0 + 4 * 4 * ns);
  CHECK(c.manager.idle());
}

TEST_CASE("optical channel: XPoint data after a DRAM burst waits for the detector switch",
          "[optical_channel]") {
  Bench& b = the_bench();
  const uint64_t t0 = origin();
  const uint64_t switches0 = b.vc0.counter("detector_switches");
  // The same traffic on both controllers, each on its own virtual channel: they never meet.
  size_t xpoint[2];
  size_t dram[2];
  OpticalChain* chains[2] = {&b.vc0, &b.vc1};
  for (int i = 0; i < 2; ++i) {
    xpoint[i] = chains[i]->stimulus.read(t0, 4096);  // RSP_READY at 194
    // A row hit at 178 puts its burst at 194..198, on the light when the XPoint data is ready.
    dram[i] = chains[i]->stimulus.read(t0 + 178 * ns, 64);
  }
  run_to(t0 + 2000 * ns);

  for (int i = 0; i < 2; ++i) {
    INFO("virtual channel " << i);
    // vc1's row is closed (its first access): ACT at 178, RD at 194, burst 210..214.
    const uint64_t dram_end = i == 0 ? 198 * ns : 214 * ns;
    CHECK(chains[i]->response_ps(dram[i], t0) == dram_end + latency);
    if (i == 0) {
      // The burst ends at 198; the XPoint's detector is enabled 100 ps later: SEND at 198.1.
      CHECK(chains[i]->response_ps(xpoint[i], t0) == 198 * ns + 100 + 4 * ns + latency);
    } else {
      // The XPoint data goes first, 194..198, and the DRAM burst at 210 is 12 ns after it.
      CHECK(chains[i]->response_ps(xpoint[i], t0) == 198 * ns + latency);
    }
  }
  // vc0: XPoint write, DRAM burst, XPoint data: two more switches.
  CHECK(b.vc0.counter("detector_switches") == switches0 + 2);
  // vc1 carried only its own two transfers: XPoint then DRAM.
  CHECK(b.vc1.counter("bursts") == 2);
  CHECK(b.vc1.counter("detector_switches") == 1);
  CHECK(b.vc0.manager.idle());
  CHECK(b.vc1.manager.idle());
}

TEST_CASE("optical channel: a transfer placed without asking is an error", "[optical_channel]") {
  OpticalChain& c = the_bench().vc1;
  const uint64_t t = origin() + 1000 * ns;
  DataBus& xpoint = c.channel.data_bus(BusDevice::xpoint);
  DataBus& dram = c.channel.data_bus(BusDevice::dram);
  xpoint.occupy(t, t + 4 * ns, 64);
  // Overlap, and a DRAM transfer 50 ps after the XPoint one: no time to switch detectors.
  CHECK_THROWS_AS(xpoint.occupy(t + 2 * ns, t + 6 * ns, 64), SimulationError);
  CHECK_THROWS_WITH(dram.occupy(t + 4 * ns + 50, t + 8 * ns + 50, 64),
                    Catch::Contains("vc1.channel: DRAM transfer") &&
                        Catch::Contains("no time to switch devices (100 ps)"));
  // 100 ps after it is fine, and asking gives exactly that.
  CHECK(dram.earliest_free(t + 4 * ns, 4 * ns) == t + 4 * ns + 100);
  dram.occupy(t + 4 * ns + 100, t + 8 * ns + 100, 64);
  // After the earlier XPoint, DRAM pair: DRAM -> XPoint -> DRAM, two more.
  CHECK(c.counter("detector_switches") == 3);
}

// Last (it closes the VCD). On vc2, XPoint data, a memory-route transfer right after it (the
// same detector: no switch) and XPoint data right after that: the light stays busy throughout,
// and each of the XPoint device's ring arrays follows its own route's transfers.
TEST_CASE("optical channel: the virtual channel's occupancy is traced", "[optical_channel]") {
  Bench& b = the_bench();
  const uint64_t t = origin() + 1000 * ns;
  DataBus& xpoint = b.vc2.channel.data_bus(BusDevice::xpoint);
  DataBus& route = *b.vc2.channel.memory_route();
  xpoint.occupy(t + 8 * ns, t + 12 * ns, 64);  // placed out of order, as XPoint data can be
  xpoint.occupy(t, t + 4 * ns, 64);
  route.occupy(t + 4 * ns, t + 8 * ns, 64);
  run_to(t + 100 * ns);
  b.vcd.close(now_ps());
  std::ifstream in(b.vcd_path);
  std::stringstream text;
  text << in.rdbuf();
  const std::string vcd = text.str();
  CHECK(vcd.find("$scope module vc0 $end") != std::string::npos);
  using Changes = std::vector<std::pair<uint64_t, uint64_t>>;
  const uint64_t full = static_cast<uint64_t>(MrrCoupling::full);
  const uint64_t half = static_cast<uint64_t>(MrrCoupling::half);
  CHECK(vcd_changes(vcd, "vc2.channel.vc_busy") == Changes{{0, 0}, {t, 1}, {t + 12 * ns, 0}});
  CHECK(vcd_changes(vcd, "vc2.channel.xpoint_mrr") ==
        Changes{{0, 0}, {t, full}, {t + 4 * ns, 0}, {t + 8 * ns, full}, {t + 12 * ns, 0}});
  CHECK(vcd_changes(vcd, "vc2.channel.xpoint_half_mrr") ==
        Changes{{0, 0}, {t + 4 * ns, half}, {t + 8 * ns, 0}});
  CHECK(vcd_changes(vcd, "vc2.channel.memory_route_busy") ==
        Changes{{0, 0}, {t + 4 * ns, 1}, {t + 8 * ns, 0}});
}
