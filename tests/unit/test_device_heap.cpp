#include <catch2/catch.hpp>

#include "modules/gpu/simt/device_heap.h"

using ohmvp::gpu::DeviceHeap;

TEST_CASE("device heap: first-fit blocks of 16 bytes, merged again when freed", "[heap]") {
  DeviceHeap heap(0x1000, 256);
  const auto a = heap.allocate(1), b = heap.allocate(40), c = heap.allocate(0);
  REQUIRE(a);
  REQUIRE(b);
  REQUIRE(c);
  CHECK(*a == 0x1000);
  CHECK(*b == 0x1010);  // a took 16 bytes
  CHECK(*c == 0x1040);  // b took 48
  CHECK(heap.allocated_bytes() == 80);
  CHECK_FALSE(heap.allocate(256 - 80 + 1));  // more than is left: malloc's NULL
  CHECK(heap.release(*b));
  CHECK_FALSE(heap.release(*b));      // freed already
  CHECK_FALSE(heap.release(*a + 8));  // no block starts there
  const auto d = heap.allocate(32);   // fits where b was
  REQUIRE(d);
  CHECK(*d == 0x1010);
  CHECK(heap.release(*a));
  CHECK(heap.release(*c));
  CHECK(heap.release(*d));
  CHECK(heap.allocated_bytes() == 0);
  const auto whole = heap.allocate(256);  // the merged blocks are one again
  REQUIRE(whole);
  CHECK(*whole == 0x1000);
  CHECK_FALSE(heap.allocate(1));
}
