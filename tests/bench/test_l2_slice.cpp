// Exact timing and data of one L2 slice in front of a real single-channel DDR4-like memory:
// GpuStimulus -> L2Slice -> MemoryController -> ElectricalChannel -> DramDevice. Memory runs
// on a 1 ns clock (DDR4-2400 cycle counts: tRCD 16, tCL 16, burst 4, tCCD_L 6) and so does
// the slice, so every expected instant reads in nanoseconds.
#include <catch2/catch.hpp>

#include "tests/ddr4_cycles.h"

#include <cstring>
#include <memory>
#include <systemc>
#include <vector>

#include "modules/common/random.h"
#include "modules/common/stats.h"
#include "modules/gpu/l2_slice.h"
#include "modules/interconnect/electrical_channel.h"
#include "modules/memory/dram_device.h"
#include "modules/memory/memory_controller.h"
#include "tests/bench/gpu_stimulus.h"

namespace {

using namespace ohmvp;
using namespace ohmvp::gpu;
using bench::GpuRequest;
using bench::GpuStimulus;
using Kind = GpuRequestKind;

constexpr uint64_t ns = 1000;  // ps
constexpr uint32_t line_bytes = 128;

DramTiming memory_timing() {
  DramTiming t = ddr4_2400_cycles();
  t.tCK_ps = 1000;
  t.REFI = 7800, t.RFC = 350;
  return t;
}

ControllerConfig controller_config() {
  ControllerConfig c;
  c.refresh = false;  // nothing ticks: sc_start() returns when the traffic is done
  c.address_mapping.scheme = "row:bank:column";
  return c;
}

L2SliceConfig slice_config() {
  L2SliceConfig c;
  c.cache = SectorCacheGeometry{4096, 2, line_bytes, 32};  // 16 sets
  c.hit_latency = 10;
  c.mshr_entries = 4;
  c.max_merges = 2;
  return c;
}

std::vector<uint8_t> pattern(uint32_t n, uint64_t seed) {
  std::vector<uint8_t> v(n);
  for (uint32_t i = 0; i < n; ++i) v[i] = uint8_t(mix64(seed * 1000003 + i));
  return v;
}

struct Bench {
  StatsRegistry stats;
  GpuStimulus sm{"sm", line_bytes};
  L2Slice slice{
      "l2",  slice_config(), sc_core::sc_time(1, sc_core::SC_NS), InterleaveMap{1, 256}, 0, 64,
      stats, nullptr};
  MemoryController controller{
      "mc", controller_config(), ddr4_geometry(1), memory_timing(), 8, stats, nullptr};
  ElectricalChannel channel{"channel", ElectricalChannelConfig{},
                            memory_timing().ps(memory_timing().RTRS), stats, nullptr};
  DramDevice dram{"dram", ddr4_geometry(1), memory_timing(), 8, stats};

  Bench() {
    sm.out.bind(slice.in);
    slice.out.bind(controller.in);
    controller.out.bind(channel.in);
    channel.out.bind(dram.in);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
  }

  // Byte address of `line` (128 bytes) in `row` of flat bank `bank`.
  uint64_t address(uint32_t bank, uint32_t row, uint32_t line = 0) const {
    DramAddress a;
    a.bank_group = BankGroup{bank / 4};
    a.bank = Bank{bank};
    a.row = Row{row};
    return controller.mapper().encode(a) + uint64_t(line) * line_bytes;
  }

  void memory_access(tlm::tlm_command command, uint64_t address, std::vector<uint8_t>& data) {
    tlm::tlm_generic_payload p;
    p.set_command(command);
    p.set_address(address);
    p.set_data_ptr(data.data());
    p.set_data_length(uint32_t(data.size()));
    p.set_streaming_width(uint32_t(data.size()));
    REQUIRE(controller.transport_dbg(p) == data.size());
  }
  std::vector<uint8_t> dram_bytes(uint64_t address, uint32_t n) {
    std::vector<uint8_t> data(n);
    memory_access(tlm::TLM_READ_COMMAND, address, data);
    return data;
  }
  void preload(uint64_t address, std::vector<uint8_t> data) {
    memory_access(tlm::TLM_WRITE_COMMAND, address, data);
  }
  // What the GPU sees: through the slice, cached dirty bytes included.
  std::vector<uint8_t> visible_bytes(uint64_t address, uint32_t n) {
    std::vector<uint8_t> data(n);
    tlm::tlm_generic_payload p;
    p.set_command(tlm::TLM_READ_COMMAND);
    p.set_address(address);
    p.set_data_ptr(data.data());
    p.set_data_length(n);
    p.set_streaming_width(n);
    REQUIRE(slice.transport_dbg(p) == n);
    return data;
  }

  uint64_t counter(const char* name) const { return stats.find_counter("l2", name)->value(); }
  // A clock edge comfortably after everything so far.
  uint64_t later() const { return (sc_core::sc_time_stamp().value() / ns + 100) * ns; }
  void run() {
    sc_core::sc_start();
    REQUIRE(sm.all_answered());
    REQUIRE(slice.idle());
  }
};

Bench& the_bench() {
  static Bench b;
  return b;
}

uint64_t word(const std::vector<uint8_t>& bytes, uint32_t offset, uint32_t size) {
  uint64_t v = 0;
  for (uint32_t i = 0; i < size; ++i) v |= uint64_t(bytes[offset + i]) << (8 * i);
  return v;
}

uint32_t bits_of(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

}  // namespace

TEST_CASE("a miss fetches the missing sectors from DRAM; a hit answers after the hit latency",
          "[l2]") {
  Bench& b = the_bench();
  const uint64_t a = b.address(1, 0);
  const uint64_t c = b.address(2, 0, 3);
  const std::vector<uint8_t> memory_a = pattern(line_bytes, 1);
  const std::vector<uint8_t> memory_c = pattern(line_bytes, 2);
  b.preload(a, memory_a);
  b.preload(c, memory_c);

  const uint64_t t0 = b.later();
  // Closed bank: ACT at t0, the two bursts' RDs at t0+16 and t0+22 (tCCD_L), the second
  // burst's data ends at t0+22+16+4.
  GpuRequest& miss = b.sm.add(Kind::load, a, 0b1111, t0);
  GpuRequest& hit = b.sm.add(Kind::load, a, 0b0110, t0 + 50 * ns);
  // One sector of another closed bank: one RD, data ends at t0+100+16+16+4.
  GpuRequest& sector = b.sm.add(Kind::load, c, 0b0100, t0 + 100 * ns);
  // The next sector of that line misses again, now to an open row: RD at once, +16+4.
  GpuRequest& next_sector = b.sm.add(Kind::load, c, 0b1000, t0 + 200 * ns);
  b.run();

  // A miss is answered the hit latency after its fill, like a hit after its tag check.
  const uint64_t hit_latency = 10 * ns;
  CHECK(miss.end_req_ps == t0);
  CHECK(miss.response_ps == t0 + 42 * ns + hit_latency);
  CHECK_FALSE(miss.extension.l2_hit);
  CHECK(miss.data == memory_a);
  CHECK(hit.response_ps == t0 + 60 * ns);
  CHECK(hit.extension.l2_hit);
  CHECK(std::equal(hit.data.begin() + 32, hit.data.begin() + 96, memory_a.begin() + 32));
  CHECK(sector.response_ps == t0 + 136 * ns + hit_latency);
  CHECK(std::equal(sector.data.begin() + 64, sector.data.begin() + 96, memory_c.begin() + 64));
  CHECK(next_sector.response_ps == t0 + 220 * ns + hit_latency);
  CHECK(std::equal(next_sector.data.begin() + 96, next_sector.data.end(), memory_c.begin() + 96));
  CHECK(b.counter("hits") == 1);
  CHECK(b.counter("misses") == 3);
  CHECK(b.counter("sector_misses") == 6);
  CHECK(b.counter("fill_reads") == 4);
  const Histogram& latency = *b.stats.find_histogram("l2", "latency");
  CHECK(latency.count() == 4);
  CHECK(latency.min() == 10 * ns);
  CHECK(latency.max() == 42 * ns + hit_latency);
  CHECK(latency.mean() == Approx(((42 + 10 + 36 + 20) * ns + 3 * hit_latency) / 4.0));
}

TEST_CASE("requests to a line with a miss outstanding merge, up to the limit, then stall", "[l2]") {
  Bench& b = the_bench();
  const uint64_t line = b.address(3, 0);
  const std::vector<uint8_t> memory = pattern(line_bytes, 3);
  b.preload(line, memory);
  const uint64_t merges_before = b.counter("mshr_merges");
  const uint64_t stalls_before = b.counter("stalls");

  const uint64_t t0 = b.later();
  GpuRequest& first = b.sm.add(Kind::load, line, 0b0001, t0);
  GpuRequest& whole = b.sm.add(Kind::load, line, 0b1111, t0 + 1 * ns);
  GpuRequest& store = b.sm.add(Kind::store, line, 0b0100, t0 + 2 * ns);
  store.data = pattern(line_bytes, 33);
  GpuRequest& after = b.sm.add(Kind::load, line, 0b0100, t0 + 3 * ns);
  b.run();

  // The first fill (one RD, closed bank) ends at t0+36; `first` executes then. `whole` needs
  // sectors 1-3 and misses again: RDs at t0+36 and t0+42 in the open row, data ends at t0+62,
  // when it, the store and the load that had to wait for a merge slot execute. Each is
  // answered the hit latency after it executed.
  const uint64_t hit_latency = 10 * ns;
  CHECK(first.response_ps == t0 + 36 * ns + hit_latency);
  CHECK(whole.end_req_ps == t0 + 1 * ns);
  CHECK(store.end_req_ps == t0 + 2 * ns);
  CHECK(after.end_req_ps == t0 + 36 * ns);  // stalled at the merge limit
  CHECK(whole.response_ps == t0 + 62 * ns + hit_latency);
  CHECK(store.response_ps == t0 + 62 * ns + hit_latency);
  CHECK(after.response_ps == t0 + 62 * ns + hit_latency);
  CHECK(whole.data == memory);  // executed before the store
  CHECK(std::equal(after.data.begin() + 64, after.data.begin() + 96, store.data.begin() + 64));
  CHECK(b.counter("mshr_merges") - merges_before == 4);  // 2, then 2 on the second miss
  CHECK(b.counter("stalls") - stalls_before == 1);
}

TEST_CASE("a partial store allocates without a fetch and its dirty bytes reach DRAM", "[l2]") {
  Bench& b = the_bench();
  // Three lines of one set (same offset in different banks): the third evicts the first.
  const uint64_t dirty = b.address(4, 0, 5);
  const uint64_t other1 = b.address(5, 0, 5);
  const uint64_t other2 = b.address(6, 0, 5);
  const std::vector<uint8_t> memory = pattern(line_bytes, 4);
  b.preload(dirty, memory);
  const uint64_t reads_before = b.counter("fill_reads");
  const uint64_t write_backs_before = b.counter("write_backs");

  const uint64_t t0 = b.later();
  GpuRequest& store = b.sm.add(Kind::store, dirty, 0b0101, t0);
  store.data = pattern(line_bytes, 44);
  store.enables.assign(line_bytes, TLM_BYTE_DISABLED);
  uint32_t enabled = 0;
  for (uint32_t i = 0; i < line_bytes; i += 3) {
    if ((0b0101 >> (i / 32)) & 1u) {
      store.enables[i] = TLM_BYTE_ENABLED;
      ++enabled;
    }
  }
  b.run();
  CHECK(store.response_ps == t0 + 10 * ns);
  CHECK(b.counter("fill_reads") == reads_before);
  std::vector<uint8_t> expected = memory;
  for (uint32_t i = 0; i < line_bytes; ++i) {
    if (store.enables[i] == TLM_BYTE_ENABLED) expected[i] = store.data[i];
  }
  CHECK(b.visible_bytes(dirty, line_bytes) == expected);
  CHECK(b.dram_bytes(dirty, line_bytes) == memory);  // not written back yet

  // A load of the partly written sector fetches it and merges memory under the dirty bytes.
  GpuRequest& load = b.sm.add(Kind::load, dirty, 0b0001, b.later());
  b.run();
  CHECK(std::equal(load.data.begin(), load.data.begin() + 32, expected.begin()));

  b.sm.add(Kind::load, other1, 0b0001, b.later());
  b.sm.add(Kind::load, other2, 0b0001, b.later() + 1 * ns);
  b.run();
  CHECK(b.counter("write_backs") - write_backs_before == 1);
  CHECK(b.dram_bytes(dirty, line_bytes) == expected);
}

TEST_CASE("atomics execute at the slice in lane order and return the old values", "[l2]") {
  Bench& b = the_bench();
  const uint64_t line = b.address(7, 0);
  struct Case {
    AtomicOp op;
    DataType type;
    uint64_t initial;
    std::vector<std::pair<uint64_t, uint64_t>> operands;  // (b, c) per lane
    std::vector<uint64_t> olds;
    uint64_t final_value;
  };
  const uint32_t one_and_half = bits_of(1.5f);
  const std::vector<Case> cases = {
      {AtomicOp::add, DataType::u32, 10, {{1, 0}, {2, 0}, {3, 0}}, {10, 11, 13}, 16},
      {AtomicOp::add,
       DataType::f32,
       one_and_half,
       {{bits_of(0.25f), 0}, {bits_of(0.5f), 0}, {bits_of(2.0f), 0}},
       {one_and_half, bits_of(1.75f), bits_of(2.25f)},
       bits_of(4.25f)},
      {AtomicOp::add,
       DataType::u64,
       uint64_t{1} << 40,
       {{1, 0}, {uint64_t{1} << 40, 0}},
       {uint64_t{1} << 40, (uint64_t{1} << 40) + 1},
       (uint64_t{1} << 41) + 1},
      {AtomicOp::min,
       DataType::s32,
       5,
       {{7, 0}, {uint32_t(-3), 0}, {2, 0}},
       {5, 5, uint32_t(-3)},
       uint32_t(-3)},
      {AtomicOp::max, DataType::u32, 5, {{3, 0}, {9, 0}, {7, 0}}, {5, 5, 9}, 9},
      {AtomicOp::inc, DataType::u32, 2, {{3, 0}, {3, 0}, {3, 0}}, {2, 3, 0}, 1},
      {AtomicOp::dec, DataType::u32, 1, {{5, 0}, {5, 0}, {5, 0}}, {1, 0, 5}, 4},
      {AtomicOp::and_, DataType::b32, 0xff, {{0x0f, 0}, {0x3c, 0}}, {0xff, 0x0f}, 0x0c},
      {AtomicOp::or_, DataType::b32, 1, {{2, 0}, {4, 0}}, {1, 3}, 7},
      {AtomicOp::xor_, DataType::b32, 5, {{3, 0}, {3, 0}}, {5, 6}, 5},
      {AtomicOp::exch, DataType::b32, 7, {{8, 0}, {9, 0}}, {7, 8}, 9},
      {AtomicOp::cas, DataType::b32, 4, {{4, 10}, {4, 11}, {10, 12}}, {4, 10, 10}, 12},
  };
  // Word i of the line at offset 8 * i (room for the 64-bit case).
  std::vector<uint8_t> memory(line_bytes, 0);
  for (uint32_t i = 0; i < cases.size(); ++i) {
    for (uint32_t k = 0; k < 8; ++k) memory[8 * i + k] = uint8_t(cases[i].initial >> (8 * k));
  }
  b.preload(line, memory);
  const uint64_t lanes_before = b.counter("atomics");

  std::vector<GpuRequest*> requests;
  uint64_t t = b.later();
  for (uint32_t i = 0; i < cases.size(); ++i) {
    const uint32_t offset = 8 * i;
    GpuRequest& r = b.sm.add(Kind::atomic, line, 1u << (offset / 32), t);
    for (const auto& [operand_b, operand_c] : cases[i].operands) {
      AtomicLane lane;
      lane.offset = offset;
      lane.type = cases[i].type;
      lane.op = cases[i].op;
      lane.b = operand_b;
      lane.c = operand_c;
      r.extension.lanes.push_back(lane);
    }
    requests.push_back(&r);
    t += 1 * ns;
  }
  b.run();

  uint64_t lanes = 0;
  const std::vector<uint8_t> visible = b.visible_bytes(line, line_bytes);
  for (uint32_t i = 0; i < cases.size(); ++i) {
    INFO("case " << i);
    const Case& c = cases[i];
    const uint32_t size = uint32_t(type_bytes(c.type));
    REQUIRE(requests[i]->extension.lanes.size() == c.olds.size());
    for (size_t l = 0; l < c.olds.size(); ++l) {
      const uint64_t mask = size == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * size)) - 1;
      CHECK(requests[i]->extension.lanes[l].old_value == (c.olds[l] & mask));
    }
    CHECK(word(visible, 8 * i, size) ==
          (c.final_value & ((size == 8) ? ~uint64_t{0} : 0xffffffffu)));
    lanes += c.olds.size();
  }
  CHECK(b.counter("atomics") - lanes_before == lanes);
  CHECK(b.dram_bytes(line, line_bytes) == memory);  // the results are still only in L2

  bool flushed = false;
  uint64_t flushed_at = 0;
  const uint64_t requested = (sc_core::sc_time_stamp().value() + ns - 1) / ns * ns;
  b.slice.flush([&] {
    flushed = true;
    flushed_at = sc_core::sc_time_stamp().value();
  });
  b.run();
  CHECK(flushed);
  // Four dirty sectors, four posted writes; the controller takes one a clock: the first in the
  // clock the flush starts in, the others at the next three edges.
  CHECK(flushed_at == requested + 2 * ns);
  CHECK(b.slice.cache().dirty_lines() == 0);
  CHECK(b.dram_bytes(line, line_bytes) == visible);
}

TEST_CASE("a random mix of loads and stores matches a shadow copy, in L2 and in DRAM", "[l2]") {
  Bench& b = the_bench();
  // 64 lines of one 8 KB row: four times the cache, so lines are evicted and written back.
  const uint64_t base = b.address(8, 0);
  const uint32_t lines = 64;
  std::vector<uint8_t> shadow = pattern(lines * line_bytes, 8);
  b.preload(base, shadow);
  Rng rng(42);
  struct Expected {
    GpuRequest* request;
    std::vector<uint8_t> data;
  };
  std::vector<Expected> loads;
  uint64_t t = b.later();
  for (int n = 0; n < 600; ++n) {
    const uint32_t line = uint32_t(rng.below(lines));
    const uint64_t address = base + uint64_t(line) * line_bytes;
    const uint32_t mask = uint32_t(1 + rng.below(15));
    t += rng.below(4) * ns;
    uint8_t* image = shadow.data() + size_t(line) * line_bytes;
    if (rng.below(2) == 0) {
      GpuRequest& r = b.sm.add(Kind::load, address, mask, t);
      loads.push_back({&r, std::vector<uint8_t>(image, image + line_bytes)});
      continue;
    }
    GpuRequest& r = b.sm.add(Kind::store, address, mask, t);
    r.data = pattern(line_bytes, 1000 + n);
    const bool partial = rng.below(2) == 0;
    if (partial) {
      r.enables.resize(line_bytes);
      for (auto& e : r.enables) e = rng.below(2) ? TLM_BYTE_ENABLED : TLM_BYTE_DISABLED;
    }
    for (uint32_t i = 0; i < line_bytes; ++i) {
      if (((mask >> (i / 32)) & 1u) && (!partial || r.enables[i] == TLM_BYTE_ENABLED)) {
        image[i] = r.data[i];
      }
    }
  }
  b.run();
  for (size_t k = 0; k < loads.size(); ++k) {
    const GpuRequest& r = *loads[k].request;
    for (uint32_t s = 0; s < 4; ++s) {
      if (((r.sector_mask >> s) & 1u) == 0) continue;
      INFO("load " << k << " sector " << s);
      CHECK(std::equal(r.data.begin() + 32 * s, r.data.begin() + 32 * (s + 1),
                       loads[k].data.begin() + 32 * s));
    }
  }
  CHECK(b.visible_bytes(base, lines * line_bytes) == shadow);
  CHECK(b.counter("write_backs") > 0);
  bool flushed = false;
  b.slice.flush([&] { flushed = true; });
  b.run();
  CHECK(flushed);
  CHECK(b.dram_bytes(base, lines * line_bytes) == shadow);
}
