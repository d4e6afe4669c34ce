// Exact routing and timing of the SM <-> L2 crossbar: two GpuStimulus SMs, two slice stubs
// that answer after a fixed time (and can hold END_REQ back), a 1 ns clock, latency 4,
// 32 bytes per cycle, output queues of 2 packets.
#include <catch2/catch.hpp>

#include <algorithm>
#include <deque>
#include <systemc>
#include <vector>

#include "modules/common/random.h"
#include "modules/common/stats.h"
#include "modules/gpu/l2_slice.h"
#include "modules/interconnect/crossbar.h"
#include "modules/interconnect/electrical_channel.h"
#include "modules/memory/dram_device.h"
#include "modules/memory/memory_controller.h"
#include "tests/bench/gpu_stimulus.h"
#include "tests/ddr4_cycles.h"

namespace {

using namespace ohmvp;
using bench::GpuRequest;
using bench::GpuStimulus;
using Kind = GpuRequestKind;

constexpr uint64_t ns = 1000;
constexpr uint32_t line_bytes = 128;

uint8_t byte_at(uint32_t slice, uint64_t address) {
  return uint8_t(address * 7 + slice * 101 + 3);
}

// Takes requests (holding END_REQ for `hold_end_req_ps` if set), answers each
// `response_delay_ps` after its END_REQ, one BEGIN_RESP at a time; load data and debug reads
// come from byte_at(id, address).
class SliceStub : public sc_core::sc_module, public GpuMemoryFwTransport {
 public:
  tlm::tlm_target_socket<32, gpu_memory_protocol_types> in{"in"};
  uint64_t hold_end_req_ps = 0;
  uint64_t response_delay_ps = 10 * ns;
  struct Arrival {
    uint64_t time_ps;
    uint64_t address;
    uint32_t sm;
    Kind kind;
  };
  std::vector<Arrival> arrivals;

  SliceStub(sc_core::sc_module_name name, uint32_t id) : sc_module(name), m_id(id) {
    in.bind(*this);
    SC_METHOD(end_request);
    sensitive << m_end_req_event;
    dont_initialize();
    SC_METHOD(respond);
    sensitive << m_respond_event;
    dont_initialize();
  }
  SC_HAS_PROCESS(SliceStub);

  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& p, tlm::tlm_phase& phase,
                                     sc_core::sc_time&) override {
    const uint64_t now = sc_core::sc_time_stamp().value();
    if (phase == tlm::END_RESP) {
      m_response_open = false;
      m_respond_event.notify(sc_core::SC_ZERO_TIME);
      return tlm::TLM_COMPLETED;
    }
    const GpuMemoryExtension& e = gpu_extension(p);
    arrivals.push_back({now, p.get_address(), e.sm, e.kind});
    if (e.kind == Kind::load) {
      for (uint32_t i = 0; i < line_bytes; ++i) {
        p.get_data_ptr()[i] = byte_at(m_id, p.get_address() + i);
      }
    }
    p.set_response_status(tlm::TLM_OK_RESPONSE);
    if (hold_end_req_ps == 0) {
      schedule_response(p, now);
      phase = tlm::END_REQ;
      return tlm::TLM_UPDATED;
    }
    m_held = &p;
    m_end_req_event.notify(sc_core::sc_time::from_value(hold_end_req_ps));
    return tlm::TLM_ACCEPTED;
  }
  void b_transport(tlm::tlm_generic_payload&, sc_core::sc_time&) override {}
  bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) override { return false; }
  unsigned int transport_dbg(tlm::tlm_generic_payload& p) override {
    for (uint32_t i = 0; i < p.get_data_length(); ++i) {
      p.get_data_ptr()[i] = byte_at(m_id, p.get_address() + i);
    }
    return p.get_data_length();
  }

 private:
  void end_request() {
    tlm::tlm_phase phase = tlm::END_REQ;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    tlm::tlm_generic_payload* p = m_held;
    m_held = nullptr;
    in->nb_transport_bw(*p, phase, delay);
    schedule_response(*p, sc_core::sc_time_stamp().value());
  }
  void schedule_response(tlm::tlm_generic_payload& p, uint64_t now) {
    m_due.push_back({now + response_delay_ps, &p});
    m_respond_event.notify(sc_core::sc_time::from_value(response_delay_ps));
  }
  void respond() {
    const uint64_t now = sc_core::sc_time_stamp().value();
    while (!m_response_open && !m_due.empty() && m_due.front().first <= now) {
      tlm::tlm_generic_payload* p = m_due.front().second;
      m_due.pop_front();
      tlm::tlm_phase phase = tlm::BEGIN_RESP;
      sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
      if (in->nb_transport_bw(*p, phase, delay) == tlm::TLM_ACCEPTED) m_response_open = true;
    }
    if (!m_response_open && !m_due.empty()) {
      m_respond_event.notify(sc_core::sc_time::from_value(m_due.front().first - now));
    }
  }

  uint32_t m_id;
  std::deque<std::pair<uint64_t, tlm::tlm_generic_payload*>> m_due;
  bool m_response_open = false;
  tlm::tlm_generic_payload* m_held = nullptr;
  sc_core::sc_event m_end_req_event;
  sc_core::sc_event m_respond_event;
};

CrossbarConfig crossbar_config() {
  CrossbarConfig c;
  c.latency = 4;
  c.bytes_per_cycle = 32;
  c.queue_depth = 2;
  return c;
}

// A whole path: one SM, a crossbar, two L2 slices each bound straight to its own memory
// channel (controller, electrical channel, DRAM), interleaved every 256 bytes.
struct TwoChannelSystem {
  static constexpr uint32_t channels = 2;
  const InterleaveMap map{channels, 256};
  GpuStimulus sm{"sys_sm", line_bytes};
  Crossbar crossbar;
  std::vector<std::unique_ptr<gpu::L2Slice>> slices;
  std::vector<std::unique_ptr<MemoryController>> controllers;
  std::vector<std::unique_ptr<ElectricalChannel>> wires;
  std::vector<std::unique_ptr<DramDevice>> drams;

  static gpu::L2SliceConfig slice_config() {
    gpu::L2SliceConfig c;
    c.cache = gpu::SectorCacheGeometry{4096, 2, line_bytes, 32};
    c.hit_latency = 10;
    c.mshr_entries = 4;
    c.max_merges = 2;
    return c;
  }

  explicit TwoChannelSystem(StatsRegistry& stats)
      : crossbar("sys_xbar", CrossbarConfig{}, sc_core::sc_time(1, sc_core::SC_NS), 1, map, 32,
                 stats) {
    DramTiming timing = ddr4_2400_cycles();
    ControllerConfig controller;
    controller.refresh = false;
    sm.out.bind(*crossbar.in[0]);
    for (uint32_t c = 0; c < channels; ++c) {
      const std::string n = std::to_string(c);
      slices.push_back(std::make_unique<gpu::L2Slice>(("sys_l2_" + n).c_str(), slice_config(),
                                                      sc_core::sc_time(1, sc_core::SC_NS), map, c,
                                                      64, stats, nullptr));
      controllers.push_back(std::make_unique<MemoryController>(
          ("sys_mc" + n).c_str(), controller, ddr4_geometry(1), timing, 8, stats, nullptr));
      wires.push_back(std::make_unique<ElectricalChannel>(("sys_channel" + n).c_str(),
                                                          ElectricalChannelConfig{},
                                                          timing.ps(timing.RTRS), stats, nullptr));
      drams.push_back(std::make_unique<DramDevice>(("sys_dram" + n).c_str(), ddr4_geometry(1),
                                                   timing, 8, stats));
      crossbar.out[c]->bind(slices[c]->in);
      slices[c]->out.bind(controllers[c]->in);
      controllers[c]->out.bind(wires[c]->in);
      wires[c]->out.bind(drams[c]->in);
    }
  }

  // The bytes channel `c`'s DRAM holds at channel-local `local`.
  std::vector<uint8_t> dram_bytes(uint32_t c, uint64_t local, uint32_t n) {
    std::vector<uint8_t> data(n);
    tlm::tlm_generic_payload p;
    p.set_command(tlm::TLM_READ_COMMAND);
    p.set_address(local);
    p.set_data_ptr(data.data());
    p.set_data_length(n);
    p.set_streaming_width(n);
    REQUIRE(controllers[c]->transport_dbg(p) == n);
    return data;
  }
  void debug(tlm::tlm_command command, uint64_t address, std::vector<uint8_t>& data) {
    tlm::tlm_generic_payload p;
    p.set_command(command);
    p.set_address(address);
    p.set_data_ptr(data.data());
    p.set_data_length(uint32_t(data.size()));
    p.set_streaming_width(uint32_t(data.size()));
    REQUIRE(sm.out->transport_dbg(p) == data.size());
  }
};

struct Bench {
  StatsRegistry stats;
  TwoChannelSystem system{stats};
  GpuStimulus sm0{"sm0", line_bytes};
  GpuStimulus sm1{"sm1", line_bytes};
  Crossbar crossbar{"xbar", crossbar_config(),     sc_core::sc_time(1, sc_core::SC_NS),
                    2,      InterleaveMap{2, 256}, 32,
                    stats};
  SliceStub slice0{"slice0", 0};
  SliceStub slice1{"slice1", 1};

  Bench() {
    sm0.out.bind(*crossbar.in[0]);
    sm1.out.bind(*crossbar.in[1]);
    crossbar.out[0]->bind(slice0.in);
    crossbar.out[1]->bind(slice1.in);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
  }
  uint64_t later() const { return (sc_core::sc_time_stamp().value() / ns + 100) * ns; }
  void run() {
    sc_core::sc_start();
    REQUIRE(sm0.all_answered());
    REQUIRE(sm1.all_answered());
    REQUIRE(crossbar.idle());
    REQUIRE(system.crossbar.idle());
  }
  uint64_t counter(const char* name) const { return stats.find_counter("xbar", name)->value(); }
};

Bench& the_bench() {
  static Bench b;
  return b;
}

}  // namespace

TEST_CASE("packets reach the slice of their memory channel after latency and serialisation",
          "[crossbar]") {
  Bench& b = the_bench();
  b.slice0.arrivals.clear();
  b.slice1.arrivals.clear();
  const uint64_t t0 = b.later();
  // A load request carries no data: it reaches its output port 4 cycles after it entered and
  // takes 1 cycle there. Its 4-sector response: 4 cycles after it entered, then 4 cycles out.
  GpuRequest& load = b.sm0.add(Kind::load, 256 * 3, 0b1111, t0);  // block 3: slice 1
  // A full-line store: END_REQ after its 4 cycles in; 4 cycles out from t0+4; 1-cycle response.
  GpuRequest& store = b.sm1.add(Kind::store, 128, 0b1111, t0);  // block 0: slice 0
  b.run();

  REQUIRE(b.slice1.arrivals.size() == 1);
  CHECK(b.slice1.arrivals[0].time_ps == t0 + 5 * ns);
  CHECK(b.slice1.arrivals[0].address == 768);
  CHECK(load.end_req_ps == t0 + 1 * ns);
  CHECK(load.response_ps == t0 + 15 * ns + 8 * ns);
  for (uint32_t i = 0; i < line_bytes; ++i) CHECK(load.data[i] == byte_at(1, 768 + i));

  REQUIRE(b.slice0.arrivals.size() == 1);
  CHECK(b.slice0.arrivals[0].time_ps == t0 + 8 * ns);
  CHECK(b.slice0.arrivals[0].address == 128);
  CHECK(store.end_req_ps == t0 + 4 * ns);
  CHECK(store.response_ps == t0 + 18 * ns + 5 * ns);
  CHECK(b.counter("request_bytes") == 128);
  CHECK(b.counter("response_bytes") == 128);
}

TEST_CASE("packets to one slice share its output port one after another", "[crossbar]") {
  Bench& b = the_bench();
  b.slice0.arrivals.clear();
  const uint64_t t0 = b.later();
  b.sm0.add(Kind::store, 0, 0b1111, t0);
  b.sm1.add(Kind::store, 512, 0b0011, t0);  // two sectors: 2 cycles
  b.run();
  REQUIRE(b.slice0.arrivals.size() == 2);
  // Both enter at t0 and reach the output at t0+4; the first takes it for its own length.
  const auto& first = b.slice0.arrivals[0];
  const auto& second = b.slice0.arrivals[1];
  const uint64_t first_cycles = first.address == 0 ? 4 : 2;
  CHECK(first.time_ps == t0 + (4 + first_cycles) * ns);
  CHECK(second.time_ps == t0 + (4 + first_cycles + (6 - first_cycles)) * ns);
  CHECK(first.address != second.address);
}

TEST_CASE("a slice that holds END_REQ back fills the output's places and stalls the SM",
          "[crossbar]") {
  Bench& b = the_bench();
  b.slice0.arrivals.clear();
  b.slice0.hold_end_req_ps = 20 * ns;
  const uint64_t stalls_before = b.counter("request_stalls");
  const uint64_t t0 = b.later();
  std::vector<GpuRequest*> r;
  for (int i = 0; i < 8; ++i) r.push_back(&b.sm0.add(Kind::load, 512 * i, 0b0001, t0));  // slice 0
  b.run();
  b.slice0.hold_end_req_ps = 0;
  // The output has 6 places: 4 on the way, 2 waiting. One packet starts a cycle. r0 leaves its
  // place at t0+4, when it starts on the output; it reaches the slice at t0+5 and is held until
  // t0+25. r1..r6 take the places from t0+1 to t0+6; r7 finds none until r1 leaves its place at
  // t0+25. Each arrival then waits for the one before to be released: 21 cycles apart.
  for (int i = 0; i < 7; ++i) CHECK(r[i]->end_req_ps == t0 + uint64_t(i + 1) * ns);
  CHECK(r[7]->end_req_ps == t0 + 26 * ns);
  REQUIRE(b.slice0.arrivals.size() == 8);
  for (int i = 0; i < 8; ++i) CHECK(b.slice0.arrivals[i].time_ps == t0 + uint64_t(5 + 21 * i) * ns);
  CHECK(b.counter("request_stalls") - stalls_before == 1);
}

TEST_CASE("SMs stalled on one output take its freed places in turn", "[crossbar]") {
  Bench& b = the_bench();
  b.slice0.arrivals.clear();
  b.slice0.hold_end_req_ps = 20 * ns;
  const uint64_t t0 = b.later();
  for (int i = 0; i < 8; ++i) {
    b.sm0.add(Kind::load, 512 * i, 0b0001, t0);  // all to slice 0
    b.sm1.add(Kind::load, 512 * (8 + i), 0b0001, t0);
  }
  b.run();
  b.slice0.hold_end_req_ps = 0;
  REQUIRE(b.slice0.arrivals.size() == 16);
  // Which SM sent each (SM 1's lines are 8 to 15); each arrival is held 20 cycles, the next one
  // reaches the slice a cycle after its release.
  std::vector<int> sms;
  for (size_t i = 0; i < 16; ++i) {
    const auto& arrival = b.slice0.arrivals[i];
    CHECK(arrival.time_ps == t0 + (5 + 21 * i) * ns);
    sms.push_back(arrival.address / 512 < 8 ? 0 : 1);
  }
  // The first six fill the output's places as the two inputs offer them; from then on both SMs
  // hold a packet, and each place a held-back arrival frees goes to the other SM.
  for (size_t i = 7; i < sms.size(); ++i) {
    INFO("arrival " << i);
    CHECK(sms[i] != sms[i - 1]);
  }
  CHECK(std::count(sms.begin(), sms.end(), 0) == 8);
}

TEST_CASE("an output keeps one packet a cycle going while its slice takes them", "[crossbar]") {
  Bench& b = the_bench();
  b.slice0.arrivals.clear();
  const uint64_t stalls_before = b.counter("request_stalls");
  const uint64_t t0 = b.later();
  // Twelve one-cycle requests from one SM to one slice: more than the output's 6 places, yet
  // none waits, since each leaves its place one cycle after the one before.
  for (int i = 0; i < 12; ++i) b.sm0.add(Kind::load, 512 * i, 0b0001, t0);
  b.run();
  REQUIRE(b.slice0.arrivals.size() == 12);
  for (int i = 0; i < 12; ++i) CHECK(b.slice0.arrivals[i].time_ps == t0 + uint64_t(5 + i) * ns);
  CHECK(b.counter("request_stalls") == stalls_before);
}

TEST_CASE("an SM that holds END_RESP back delays the responses behind it", "[crossbar]") {
  Bench& b = the_bench();
  b.sm0.hold_end_resp_ps = 10 * ns;
  const uint64_t t0 = b.later();
  GpuRequest& to0 = b.sm0.add(Kind::store, 0, 0b1111, t0);
  GpuRequest& to1 = b.sm0.add(Kind::store, 256, 0b0011, t0 + 4 * ns);
  b.run();
  b.sm0.hold_end_resp_ps = 0;
  // to0 reaches slice 0 at t0+8, is answered at t0+18 and reaches SM 0 at t0+23, which holds
  // END_RESP until t0+33. to1 enters at t0+4 (after to0's END_REQ), reaches slice 1 at t0+10,
  // is answered at t0+20 and is at SM 0's port from t0+24, but waits for it until t0+33.
  CHECK(to0.response_ps == t0 + 23 * ns);
  CHECK(to1.response_ps == t0 + 34 * ns);
}

TEST_CASE("debug accesses are split by interleave block and routed to their slice", "[crossbar]") {
  Bench& b = the_bench();
  std::vector<uint8_t> data(700);
  tlm::tlm_generic_payload p;
  p.set_command(tlm::TLM_READ_COMMAND);
  p.set_address(100);
  p.set_data_ptr(data.data());
  p.set_data_length(uint32_t(data.size()));
  p.set_streaming_width(uint32_t(data.size()));
  CHECK(b.sm0.out->transport_dbg(p) == data.size());
  for (uint32_t i = 0; i < data.size(); ++i) {
    const uint64_t address = 100 + i;
    CHECK(data[i] == byte_at(uint32_t((address / 256) % 2), address));
  }
  CHECK(p.get_address() == 100);
}

TEST_CASE("through the crossbar, slice i keeps exactly the lines of memory channel i",
          "[crossbar]") {
  Bench& b = the_bench();
  TwoChannelSystem& sys = b.system;
  const uint32_t lines = 96;  // 12 KB over two 4 KB slices: evictions and write-backs
  std::vector<uint8_t> shadow(lines * line_bytes);
  for (size_t i = 0; i < shadow.size(); ++i) shadow[i] = uint8_t(mix64(i) >> 7);
  std::vector<uint8_t> preload = shadow;
  sys.debug(tlm::TLM_WRITE_COMMAND, 0, preload);

  Rng rng(7);
  struct Expected {
    GpuRequest* request;
    std::vector<uint8_t> data;
  };
  std::vector<Expected> loads;
  uint64_t t = b.later();
  for (int n = 0; n < 500; ++n) {
    const uint32_t line = uint32_t(rng.below(lines));
    const uint32_t mask = uint32_t(1 + rng.below(15));
    uint8_t* image = shadow.data() + size_t(line) * line_bytes;
    t += rng.below(3) * ns;
    if (rng.below(2) == 0) {
      GpuRequest& r = sys.sm.add(Kind::load, uint64_t(line) * line_bytes, mask, t);
      loads.push_back({&r, std::vector<uint8_t>(image, image + line_bytes)});
      continue;
    }
    GpuRequest& r = sys.sm.add(Kind::store, uint64_t(line) * line_bytes, mask, t);
    for (uint32_t i = 0; i < line_bytes; ++i) {
      r.data[i] = uint8_t(rng.next());
      if ((mask >> (i / 32)) & 1u) image[i] = r.data[i];
    }
  }
  b.run();
  REQUIRE(sys.sm.all_answered());
  for (size_t k = 0; k < loads.size(); ++k) {
    const GpuRequest& r = *loads[k].request;
    for (uint32_t s = 0; s < 4; ++s) {
      if (((r.sector_mask >> s) & 1u) == 0) continue;
      INFO("load " << k << " sector " << s);
      CHECK(std::equal(r.data.begin() + 32 * s, r.data.begin() + 32 * (s + 1),
                       loads[k].data.begin() + 32 * s));
    }
  }
  std::vector<uint8_t> visible(shadow.size());
  sys.debug(tlm::TLM_READ_COMMAND, 0, visible);
  CHECK(visible == shadow);

  int flushed = 0;
  for (auto& slice : sys.slices) slice->flush([&] { ++flushed; });
  b.run();
  CHECK(flushed == 2);
  for (uint64_t block = 0; block < shadow.size() / 256; ++block) {
    const uint64_t global = block * 256;
    const std::vector<uint8_t> stored =
        sys.dram_bytes(sys.map.channel_of(global), sys.map.local_address(global), 256);
    INFO("block " << block);
    CHECK(std::equal(stored.begin(), stored.end(), shadow.begin() + global));
  }
  CHECK(b.stats.find_counter("sys_l2_0", "write_backs")->value() > 0);
  CHECK(b.stats.find_counter("sys_l2_1", "write_backs")->value() > 0);
}
