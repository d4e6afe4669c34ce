#include <vector>

#include <catch2/catch.hpp>

#include "modules/gpu/simt/simt_stack.h"

using namespace ohmvp::gpu;

TEST_CASE("simt stack: divergent branch runs taken lanes first and reconverges", "[simt]") {
  SimtStack stack;
  stack.reset(0, 0xff);
  stack.set_pc(3);
  stack.branch(0x0f, 10, 4, 20);
  REQUIRE(stack.depth() == 3);
  CHECK(stack.pc() == 10);
  CHECK(stack.mask() == 0x0f);
  CHECK(stack.at(0).pc == 20);  // the reconvergence entry
  CHECK(stack.at(1).pc == 4);
  CHECK(stack.at(1).mask == 0xf0);
  stack.set_pc(20);
  stack.reconverge();
  CHECK(stack.pc() == 4);
  CHECK(stack.mask() == 0xf0);
  stack.set_pc(20);
  stack.reconverge();
  CHECK(stack.depth() == 1);
  CHECK(stack.pc() == 20);
  CHECK(stack.mask() == 0xff);
}

TEST_CASE("simt stack: uniform branches do not push", "[simt]") {
  SimtStack stack;
  stack.reset(0, 0x3);
  stack.branch(0x3, 7, 1, 9);
  CHECK(stack.depth() == 1);
  CHECK(stack.pc() == 7);
  stack.branch(0x0, 2, 8, 9);
  CHECK(stack.depth() == 1);
  CHECK(stack.pc() == 8);
}

TEST_CASE("simt stack: nested divergence unwinds inner first", "[simt]") {
  SimtStack stack;
  stack.reset(0, 0xf);
  stack.branch(0x3, 10, 1, 30);   // outer if: lanes 0,1 take
  stack.branch(0x1, 15, 11, 20);  // inner if inside the taken path: lane 0 takes
  CHECK(stack.depth() == 5);
  CHECK(stack.mask() == 0x1);
  stack.set_pc(20);
  stack.reconverge();
  CHECK(stack.mask() == 0x2);
  CHECK(stack.pc() == 11);
  stack.set_pc(20);
  stack.reconverge();
  CHECK(stack.mask() == 0x3);
  CHECK(stack.pc() == 20);
  stack.set_pc(30);
  stack.reconverge();
  CHECK(stack.mask() == 0xc);
  CHECK(stack.pc() == 1);
  stack.set_pc(30);
  stack.reconverge();
  CHECK(stack.depth() == 1);
  CHECK(stack.mask() == 0xf);
}

TEST_CASE("simt stack: exiting lanes leave every entry", "[simt]") {
  SimtStack stack;
  stack.reset(0, 0xf);
  stack.branch(0x5, 10, 1, no_target);  // paths never reconverge (both end in exit)
  stack.remove_lanes(0x5);              // the taken lanes exit
  stack.reconverge();
  CHECK(stack.mask() == 0xa);
  CHECK(stack.pc() == 1);
  stack.remove_lanes(0xa);
  stack.reconverge();
  CHECK(stack.empty());
}

TEST_CASE("simt stack: a loop's back edge keeps iterating lanes on top", "[simt]") {
  SimtStack stack;
  stack.reset(0, 0xf);
  // Loop body 1..4, back edge at 4 to 1, exit at 5 (the reconvergence point).
  uint64_t remaining = 0xf;
  int iterations = 0;
  while (!stack.empty() && stack.pc() != 5) {
    ++iterations;
    remaining &= ~(uint64_t{1} << (iterations - 1));  // lane i leaves after i+1 iterations
    stack.branch(remaining & stack.mask(), 1, 5, 5);
    stack.reconverge();
    CHECK(stack.depth() <= 2);  // the loop does not grow the stack
  }
  CHECK(iterations == 4);
  CHECK(stack.depth() == 1);
  CHECK(stack.mask() == 0xf);
}

TEST_CASE("simt stack: a yield runs the lane waiting at a spin loop's exit, then reconverges",
          "[simt]") {
  // while (atomicCAS(lock) != 0) at 1..3 (back edge at 3, exit 4); lane 0 won the lock.
  SimtStack stack;
  stack.reset(3, 0xf);
  stack.branch(0xe, 1, 4, 4);
  REQUIRE(stack.depth() == 2);
  CHECK(stack.mask() == 0xe);
  CHECK_FALSE(stack.yield(1));  // nothing waits above the floor
  REQUIRE(stack.yield());
  CHECK(stack.depth() == 3);
  CHECK(stack.pc() == 4);  // the winner runs the critical section after the loop ...
  CHECK(stack.mask() == 0x1);
  CHECK(stack.top().reconvergence_pc == no_target);
  stack.remove_lanes(0x1);  // ... and exits
  stack.reconverge();
  CHECK(stack.pc() == 1);  // the spinners resume where they were
  CHECK(stack.mask() == 0xe);
  stack.branch(0xc, 1, 4, 4);  // lane 1 wins next: it waits at the exit again
  CHECK(stack.mask() == 0xc);
  CHECK(stack.at(stack.depth() - 2).pc == 4);
  CHECK(stack.at(stack.depth() - 2).mask == 0xe);
  stack.branch(0x0, 1, 4, 4);  // the others win too: they reach the exit and reconverge there
  stack.reconverge();
  CHECK(stack.depth() == 1);
  CHECK(stack.pc() == 4);
  CHECK(stack.mask() == 0xe);
}

TEST_CASE("simt stack: a yielded path waits for its siblings at the reconvergence point",
          "[simt]") {
  // if (lane < 2) { spin until the else path has run } else { ... } at 10 / 1, joining at 30.
  SimtStack stack;
  stack.reset(0, 0xf);
  stack.branch(0x3, 10, 1, 30);
  REQUIRE(stack.yield());
  CHECK(stack.pc() == 1);
  CHECK(stack.mask() == 0xc);
  CHECK(stack.depth() == 3);  // the else entry, left empty, went
  stack.set_pc(30);
  stack.reconverge();  // the else lanes wait at the join ...
  CHECK(stack.pc() == 10);
  CHECK(stack.mask() == 0x3);
  stack.set_pc(30);
  stack.reconverge();  // ... until the spinners get there
  CHECK(stack.depth() == 1);
  CHECK(stack.pc() == 30);
  CHECK(stack.mask() == 0xf);
}

TEST_CASE("simt stack: repeated yields take turns over every waiting path", "[simt]") {
  // Three paths of a switch joining at 40: lane 0 at 10, lane 1 at 20, lane 2 (running) at 30.
  SimtStack stack;
  stack.reset(40, 0x7);
  stack.push({10, 40, 0x1});
  stack.push({20, 40, 0x2});
  stack.push({30, 40, 0x4});
  std::vector<uint64_t> runs;
  for (int turn = 0; turn < 6; ++turn) {
    runs.push_back(stack.mask());
    REQUIRE(stack.yield());
    CHECK(stack.depth() == 4);  // paths move, the stack does not grow
  }
  // Each path runs in turn, the one that waited longest first.
  CHECK(runs == std::vector<uint64_t>{0x4, 0x1, 0x2, 0x4, 0x1, 0x2});
}

TEST_CASE("simt stack: gather joins paths a yield separated once they reach the same point",
          "[simt]") {
  // Two lock winners parked at a barrier (pc 8) in separate entries; the last one gets there.
  SimtStack stack;
  stack.reset(4, 0xc);  // lanes 2, 3 still before the barrier
  stack.push({8, no_target, 0x1});
  stack.push({6, no_target, 0x8});  // another path elsewhere
  stack.push({8, no_target, 0x2});
  stack.gather();
  CHECK(stack.mask() == 0x3);  // the two at the barrier ...
  CHECK(stack.pc() == 8);
  CHECK(stack.depth() == 3);  // ... and their emptied entry went
  CHECK(stack.at(1).mask == 0x8);
  stack.push({8, 20, 0x4});  // same pc, another reconvergence point: stays apart
  stack.gather();
  CHECK(stack.mask() == 0x4);
  CHECK(stack.depth() == 4);
}

TEST_CASE("simt stack: lanes at an entry's own join wait in the entry below it", "[simt]") {
  // {19, 19}: an inner if/else whose join is the outer one's; lane 1 is there, lane 0 runs.
  SimtStack stack;
  stack.reset(19, 0x3);
  stack.push({19, 19, 0x3});
  stack.push({10, 19, 0x1});
  REQUIRE(stack.yield());
  CHECK(stack.pc() == 19);  // lane 1 runs on from the join, with the entry below's join
  CHECK(stack.mask() == 0x2);
  CHECK(stack.top().reconvergence_pc == no_target);
}
