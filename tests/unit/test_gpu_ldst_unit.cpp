#include <catch2/catch.hpp>
#include <cstring>
#include <vector>

#include "modules/common/stats.h"
#include "modules/gpu/gpu_config.h"
#include "modules/gpu/ldst_unit.h"
#include "modules/gpu/sm_stats.h"

using namespace ohmvp;
using namespace ohmvp::gpu;

namespace {

constexpr uint64_t k_line = 0x1000;  // sector 0 of a line; k_line + 32 is its sector 1
constexpr uint64_t k_settle = 100;   // cycles for an access to pass the pipeline and the L1

// An LD/ST unit with the default GPU's L1 (128-byte lines of four 32-byte sectors), stepped
// cycle by cycle; what it sends to L2 is kept for the test to answer.
struct LdstBench {
  GpuConfig config;
  StatsRegistry registry;
  SmStats stats{registry, "sm0"};
  LdstUnit unit{0, config, stats};
  std::vector<LdstUnit::Outbound*> sent;
  std::vector<const MemoryOp*> done;
  uint64_t cycle = 0;

  LdstBench() {
    unit.on_send([this](LdstUnit::Outbound& out) { sent.push_back(&out); });
    unit.on_op_done([this](MemoryOp& op, uint64_t) { done.push_back(&op); });
  }

  // One lane's 4-byte access at `address`, issued now (a store writes `value`).
  const MemoryOp& access(MemoryKind kind, uint64_t address, uint32_t value = 0) {
    MemoryOp& op = unit.new_op();
    op.issue_cycle = cycle;
    op.request = MemoryRequest{};
    op.request.kind = kind;
    op.request.lanes = 1;
    op.request.bytes = 4;
    op.request.type = DataType::u32;
    op.request.address[0] = address;
    std::memcpy(op.request.data[0].data(), &value, sizeof value);
    unit.accept(op);
    return op;
  }

  void run(uint64_t cycles) {
    for (const uint64_t end = cycle + cycles; cycle < end; ++cycle) unit.step(cycle);
  }

  // Answers request `i` of those sent; a load's line holds `value` in every word.
  void answer(size_t i, uint32_t value = 0) {
    LdstUnit::Outbound& out = *sent.at(i);
    if (out.is_read())
      for (size_t b = 0; b + 4 <= out.data.size(); b += 4)
        std::memcpy(out.data.data() + b, &value, sizeof value);
    out.set_response_status(tlm::TLM_OK_RESPONSE);
    unit.response(out, cycle);
    run(1);
  }

  // Answers request `i` (a fetch `load` waits for) with `value`, lets the unit settle and gives
  // what `load` read.
  uint32_t completes_with(const MemoryOp& load, size_t i, uint32_t value) {
    answer(i, value);
    run(k_settle);
    REQUIRE(is_done(load));
    return loaded(load);
  }

  bool is_done(const MemoryOp& op) const {
    for (const MemoryOp* d : done)
      if (d == &op) return true;
    return false;
  }
  static uint32_t loaded(const MemoryOp& op) {
    uint32_t value;
    std::memcpy(&value, op.request.data[0].data(), sizeof value);
    return value;
  }
};

}  // namespace

TEST_CASE("ldst: a load waiting for its fetch does not see a later store of its thread",
          "[gpu][ldst]") {
  LdstBench b;
  const MemoryOp& load = b.access(MemoryKind::load, k_line);
  b.run(1);
  b.access(MemoryKind::store, k_line, 7);
  b.run(k_settle);
  REQUIRE(b.sent.size() == 2);  // the load's fetch, then the store
  REQUIRE(b.sent[0]->is_read());
  b.answer(1);
  CHECK(b.completes_with(load, 0, 5) == 5);  // the L2 answered the fetch before the store came

  // The store's sector went stale with the fetch: a load after it reads the L2 again.
  const MemoryOp& after = b.access(MemoryKind::load, k_line);
  b.run(k_settle);
  REQUIRE(b.sent.size() == 3);
  CHECK(b.completes_with(after, 2, 7) == 7);
}

TEST_CASE("ldst: a store on a line with two fetches in flight is not read from the first fill",
          "[gpu][ldst]") {
  LdstBench b;
  const MemoryOp& first = b.access(MemoryKind::load, k_line);
  b.run(1);
  b.access(MemoryKind::load, k_line + 32);  // the same line's next sector: a second fetch
  b.run(1);
  b.access(MemoryKind::store, k_line, 7);
  b.run(1);
  const MemoryOp& after = b.access(MemoryKind::load, k_line);
  b.run(k_settle);
  REQUIRE(b.sent.size() == 3);  // two fetches and the store
  b.answer(2);
  CHECK(b.completes_with(first, 0, 5) == 5);
  CHECK_FALSE(b.is_done(after));  // sector 0 is valid again, but with bytes older than the store
  b.answer(1, 5);
  b.run(k_settle);
  REQUIRE(b.sent.size() == 4);  // the drained line's stale sector fetched again
  CHECK(b.completes_with(after, 3, 7) == 7);
}

TEST_CASE("ldst: after a fence a load does not hit a sector the first of two fills brought",
          "[gpu][ldst]") {
  LdstBench b;
  const MemoryOp& first = b.access(MemoryKind::load, k_line);
  b.run(1);
  b.access(MemoryKind::load, k_line + 32);
  b.run(k_settle);
  REQUIRE(b.sent.size() == 2);
  b.unit.invalidate_for_fence();
  b.completes_with(first, 0, 5);  // answered before the fence: older than what it must show
  const MemoryOp& after = b.access(MemoryKind::load, k_line);
  b.run(k_settle);
  CHECK_FALSE(b.is_done(after));
  b.answer(1, 5);
  b.run(k_settle);
  REQUIRE(b.sent.size() == 3);
  CHECK(b.completes_with(after, 2, 9) == 9);
}

TEST_CASE("ldst: the unit is not idle while an L1 hit is on its way back", "[gpu][ldst]") {
  LdstBench b;
  const MemoryOp& miss = b.access(MemoryKind::load, k_line);
  b.run(k_settle);
  REQUIRE(b.sent.size() == 1);
  CHECK(b.completes_with(miss, 0, 5) == 5);
  CHECK(b.unit.idle());

  const MemoryOp& hit = b.access(MemoryKind::load, k_line);
  uint64_t busy_cycles = 0;
  for (uint64_t end = b.cycle + k_settle; b.cycle < end && !b.is_done(hit); ++b.cycle) {
    b.unit.step(b.cycle);
    if (!b.is_done(hit)) {
      CHECK_FALSE(b.unit.idle());
      ++busy_cycles;
    }
  }
  REQUIRE(b.is_done(hit));
  CHECK(b.sent.size() == 1);  // it hit: nothing more went to the L2
  CHECK(busy_cycles > b.config.l1d.hit_latency);
  CHECK(LdstBench::loaded(hit) == 5);
  CHECK(b.unit.idle());
}
