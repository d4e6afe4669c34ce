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
