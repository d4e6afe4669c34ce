#include <catch2/catch.hpp>

#include "tests/unit/ptx_builder.h"

using namespace ptxb;

namespace {

Instruction shfl(ShuffleMode mode, uint32_t b, uint32_t c) {
  Instruction in = make(Opcode::shfl, DataType::b32, {r(0), r(1), imm(b), imm(c), imm(0xffffffff)});
  in.mod.shuffle = mode;
  in.dest_pred = 5;
  return in;
}

void set_lane_ids(Harness& h, uint32_t reg, uint32_t base) {
  for (uint32_t lane = 0; lane < h.warp().warp_size(); ++lane) h.set(reg, lane, base + lane);
}

}  // namespace

TEST_CASE("interp: shfl.sync down/up/bfly/idx with clamp and segments", "[interp]") {
  Harness h;
  set_lane_ids(h, 1, 100);
  h.run(shfl(ShuffleMode::down, 3, 0x1f));
  CHECK(h.get(0, 0) == 103);
  CHECK(h.get(5, 0) == 1);
  CHECK(h.get(0, 28) == 131);
  CHECK(h.get(0, 29) == 129);  // 32 is beyond the clamp: own value, p false
  CHECK(h.get(5, 29) == 0);

  h.run(shfl(ShuffleMode::up, 2, 0));
  CHECK(h.get(0, 1) == 101);
  CHECK(h.get(5, 1) == 0);
  CHECK(h.get(0, 2) == 100);

  h.run(shfl(ShuffleMode::bfly, 1, 0x1f));
  CHECK(h.get(0, 6) == 107);
  CHECK(h.get(0, 7) == 106);

  h.run(shfl(ShuffleMode::idx, 5, 0x1f));
  for (uint32_t lane = 0; lane < 32; ++lane) CHECK(h.get(0, lane) == 105);

  // Width 8 (__shfl_sync(m, v, 3, 8)): c = ((32 - 8) << 8) | 0x1f; each segment reads its lane 3.
  h.run(shfl(ShuffleMode::idx, 3, (24u << 8) | 0x1f));
  CHECK(h.get(0, 0) == 103);
  CHECK(h.get(0, 9) == 111);
  CHECK(h.get(0, 31) == 127);
  // Down by 4 within segments of 8 (c = (24 << 8) | 0x1f): lane 5 stays (9 is in the next segment).
  h.run(shfl(ShuffleMode::down, 4, (24u << 8) | 0x1f));
  CHECK(h.get(0, 2) == 106);
  CHECK(h.get(0, 5) == 105);
  CHECK(h.get(5, 5) == 0);
}

TEST_CASE("interp: shfl in narrow and wide warps", "[interp]") {
  Harness narrow(8);
  set_lane_ids(narrow, 1, 0);
  narrow.run(shfl(ShuffleMode::down, 4, 0x1f));
  CHECK(narrow.get(0, 3) == 7);
  CHECK(narrow.get(0, 4) == 4);  // lane 8 does not exist
  CHECK(narrow.get(5, 4) == 0);

  Harness wide(64);
  set_lane_ids(wide, 1, 0);
  wide.run(shfl(ShuffleMode::bfly, 16, 0x1f));
  CHECK(wide.get(0, 1) == 17);
  CHECK(wide.get(0, 33) == 49);  // each 32-lane half shuffles on its own
  wide.run(shfl(ShuffleMode::idx, 0, 0x1f));
  CHECK(wide.get(0, 40) == 32);
}

TEST_CASE("interp: vote.sync and activemask over the executing lanes", "[interp]") {
  Harness h(8);
  for (uint32_t lane = 0; lane < 8; ++lane) h.set(1, lane, lane < 3 ? 1 : 0);
  Instruction ballot = make(Opcode::vote, DataType::b32, {r(0), r(1), imm(0xffffffff)});
  ballot.mod.vote = VoteMode::ballot;
  h.run(ballot);
  CHECK(h.get(0, 7) == 0x7);
  Instruction any = make(Opcode::vote, DataType::pred, {r(0), r(1), imm(0xffffffff)});
  any.mod.vote = VoteMode::any;
  h.run(any);
  CHECK(h.get(0, 4) == 1);
  Instruction all = any;
  all.mod.vote = VoteMode::all;
  h.run(all);
  CHECK(h.get(0, 4) == 0);
  all.guard_reg = 1;  // only lanes 0..2 vote
  h.run(all);
  CHECK(h.get(0, 0) == 1);
  Instruction uni = any;
  uni.mod.vote = VoteMode::uni;
  h.run(uni);
  CHECK(h.get(0, 0) == 0);
  Instruction negated = make(Opcode::vote, DataType::b32, {r(0), not_r(1), imm(0xffffffff)});
  negated.mod.vote = VoteMode::ballot;
  h.run(negated);
  CHECK(h.get(0, 0) == 0xf8);

  Instruction active = make(Opcode::activemask, DataType::b32, {r(0)});
  h.run(active);
  CHECK(h.get(0, 5) == 0xff);

  Harness partial(32, 20);  // a partial last warp: 20 threads
  partial.run(active);
  CHECK(partial.get(0, 0) == 0xfffff);
  CHECK(partial.warp().valid_lanes() == 0xfffff);
}

TEST_CASE("interp: vote.sync and redux.sync combine only each lane's member lanes", "[interp]") {
  // Tiles of 8 lanes, as cooperative groups' tiled_partition<8> gives them: each lane's member
  // mask is its tile. Lanes 0, 3, 6, ... vote true.
  Harness h;
  for (uint32_t lane = 0; lane < 32; ++lane) {
    h.set(1, lane, lane % 3 == 0);
    h.set(2, lane, uint64_t{0xff} << (lane & ~7u));
    h.set(3, lane, lane + 1);
  }
  Instruction ballot = make(Opcode::vote, DataType::b32, {r(0), r(1), r(2)});
  ballot.mod.vote = VoteMode::ballot;
  h.run(ballot);
  for (uint32_t lane = 0; lane < 32; ++lane) {
    uint64_t expected = 0;
    for (uint32_t other = lane & ~7u; other < (lane & ~7u) + 8; ++other)
      if (other % 3 == 0) expected |= uint64_t{1} << other;
    INFO("lane " << lane);
    CHECK(h.get(0, lane) == expected);
  }
  Instruction sum = make(Opcode::redux, DataType::s32, {r(0), r(3), r(2)});
  sum.mod.atomic = AtomicOp::add;
  h.run(sum);
  CHECK(h.get(0, 0) == 36);    // 1 + ... + 8
  CHECK(h.get(0, 13) == 100);  // 9 + ... + 16
  CHECK(h.get(0, 31) == 228);  // 25 + ... + 32
  Instruction largest = sum;
  largest.mod.atomic = AtomicOp::max;
  h.run(largest);
  CHECK(h.get(0, 17) == 24);

  // The upper half of a 64-lane warp votes among its own lanes.
  Harness wide(64);
  for (uint32_t lane = 0; lane < 64; ++lane) {
    wide.set(1, lane, lane < 40);
    wide.set(4, lane, lane >= 32);
  }
  Instruction all = make(Opcode::vote, DataType::pred, {r(0), r(1), imm(0xffffffff)});
  all.mod.vote = VoteMode::all;
  all.guard_reg = 4;
  wide.run(all);
  CHECK(wide.get(0, 33) == 0);
  Instruction upper_ballot = ballot;
  upper_ballot.operands[2] = imm(0xffffffff);
  upper_ballot.guard_reg = 4;
  wide.run(upper_ballot);
  CHECK(wide.get(0, 50) == 0xff);
}

TEST_CASE("interp: match.sync any and all over the member lanes of each half", "[interp]") {
  Harness h;
  for (uint32_t lane = 0; lane < 32; ++lane) h.set(1, lane, lane % 3);  // keys 0, 1, 2, 0, ...
  Instruction any = make(Opcode::match, DataType::b32, {r(0), r(1), imm(0xffffffff)});
  any.mod.vote = VoteMode::any;
  h.run(any);
  CHECK(h.get(0, 0) == 0x49249249);  // lanes 0, 3, 6, ...
  CHECK(h.get(0, 4) == 0x92492492);
  CHECK(h.get(0, 5) == 0x24924924);
  Instruction all = make(Opcode::match, DataType::b32, {r(0), r(1), imm(0x00000009)});
  all.mod.vote = VoteMode::all;
  all.dest_pred = 5;
  h.run(all);  // lanes 0 and 3 both hold key 0
  CHECK(h.get(0, 0) == 0x9);
  CHECK(h.get(5, 3) == 1);
  all.operands[2] = imm(0xff);  // lanes 0-7 hold keys 0, 1 and 2
  h.run(all);
  CHECK(h.get(0, 2) == 0);
  CHECK(h.get(5, 2) == 0);

  // 64-bit keys that agree in their low words only are different keys.
  Harness wide(64);
  for (uint32_t lane = 0; lane < 64; ++lane) wide.set(1, lane, (uint64_t{lane & 1} << 32) | 7);
  Instruction any64 = make(Opcode::match, DataType::b64, {r(0), r(1), imm(0xffffffff)});
  any64.mod.vote = VoteMode::any;
  wide.run(any64);
  CHECK(wide.get(0, 0) == 0x55555555);
  CHECK(wide.get(0, 33) == 0xaaaaaaaa);  // each 32-lane half matches on its own
  Instruction all64 = any64;
  all64.mod.vote = VoteMode::all;
  all64.dest_pred = 5;
  for (uint32_t lane = 0; lane < 64; ++lane) wide.set(1, lane, lane == 40 ? 99 : 5);
  wide.run(all64);
  CHECK(wide.get(0, 0) == 0xffffffff);
  CHECK(wide.get(5, 31) == 1);
  CHECK(wide.get(0, 33) == 0);
  CHECK(wide.get(5, 33) == 0);

  // Lanes whose guard fails take no part.
  Harness guarded(8);
  for (uint32_t lane = 0; lane < 8; ++lane) {
    guarded.set(1, lane, lane < 4 ? 1 : 2);
    guarded.set(2, lane, lane % 2 == 0);
  }
  Instruction even = all;
  even.operands[2] = imm(0xffffffff);
  even.guard_reg = 2;
  guarded.run(even);
  CHECK(guarded.get(0, 0) == 0);  // lanes 0, 2 hold 1; lanes 4, 6 hold 2
  any.guard_reg = 2;
  guarded.run(any);
  CHECK(guarded.get(0, 2) == 0x5);
  CHECK(guarded.get(0, 6) == 0x50);
}

TEST_CASE("interp: bar.warp.sync passes without waiting, bar.sync waits", "[interp]") {
  Harness h(8);
  Instruction syncwarp = make(Opcode::bar, DataType::none, {imm(0xffffffff)});
  syncwarp.mod.barrier = BarrierMode::warp;
  const StepResult result = h.run(syncwarp);
  CHECK(result.status != StepStatus::barrier);
  CHECK(result.status != StepStatus::fault);
  CHECK(result.executed_mask == 0xff);
  CHECK(h.warp().pc() == 1);
  Instruction sync = make(Opcode::bar, DataType::none, {imm(0)});
  sync.mod.barrier = BarrierMode::sync;
  CHECK(h.run(sync).status == StepStatus::barrier);
}

TEST_CASE("interp: special registers", "[interp]") {
  Harness h(32, 32);
  h.context.cta = {2, 1, 0};
  h.context.grid = {4, 2, 1};
  h.context.clock = 0x123456789ULL;
  h.context.globaltimer_ns = 5000;
  auto value = [&](SpecialRegister which, uint32_t lane, uint8_t component = 0) {
    h.run(make(Opcode::mov, DataType::u64, {r(0), special(which, component)}));
    return h.get(0, lane);
  };
  CHECK(value(SpecialRegister::tid, 7) == 7);
  CHECK(value(SpecialRegister::ntid, 7) == 32);
  CHECK(value(SpecialRegister::ctaid, 0, 1) == 1);
  CHECK(value(SpecialRegister::nctaid, 0, 0) == 4);
  CHECK(value(SpecialRegister::laneid, 9) == 9);
  CHECK(value(SpecialRegister::clock, 0) == 0x23456789);
  CHECK(value(SpecialRegister::clock64, 0) == 0x123456789ULL);
  CHECK(value(SpecialRegister::globaltimer, 0) == 5000);
  CHECK(value(SpecialRegister::lanemask_lt, 4) == 0xf);
  CHECK(value(SpecialRegister::lanemask_le, 4) == 0x1f);
  CHECK(value(SpecialRegister::lanemask_eq, 4) == 0x10);
  CHECK(value(SpecialRegister::lanemask_gt, 4) == 0xffffffe0);
  CHECK(value(SpecialRegister::lanemask_ge, 31) == 0x80000000);
  CHECK(value(SpecialRegister::warp_sz, 3) == 32);

  // A 64-lane warp is two 32-lane halves: %laneid agrees with the masks of its half.
  Harness wide(64);
  wide.run(make(Opcode::mov, DataType::u32, {r(0), special(SpecialRegister::laneid)}));
  CHECK(wide.get(0, 9) == 9);
  CHECK(wide.get(0, 41) == 9);
  wide.run(make(Opcode::mov, DataType::u32, {r(0), special(SpecialRegister::lanemask_lt)}));
  CHECK(wide.get(0, 41) == 0x1ff);
  wide.run(make(Opcode::mov, DataType::u32, {r(0), special(SpecialRegister::warp_sz)}));
  CHECK(wide.get(0, 41) == 32);
  Harness narrow(16);
  narrow.run(make(Opcode::mov, DataType::u32, {r(0), special(SpecialRegister::warp_sz)}));
  CHECK(narrow.get(0, 5) == 16);
}

TEST_CASE("interp: mov packs and unpacks vectors", "[interp]") {
  Harness h;
  h.set(1, 0, 0x11112222);
  h.set(2, 0, 0x33334444);
  h.run(make(Opcode::mov, DataType::b64, {r(0), vec({1, 2})}));
  CHECK(h.get(0) == 0x3333444411112222ULL);
  h.set(3, 0, 0xaaaabbbbccccddddULL);
  h.run(make(Opcode::mov, DataType::b64, {vec({4, 5}), r(3)}));
  CHECK(h.get(4) == 0xccccdddd);
  CHECK(h.get(5) == 0xaaaabbbb);
  h.run(make(Opcode::mov, DataType::b32, {vec({6, 7}), r(3)}));
  CHECK(h.get(6) == 0xdddd);
  CHECK(h.get(7) == 0xcccc);
}
