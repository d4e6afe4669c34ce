#include <catch2/catch.hpp>

#include "modules/host/device_allocator.h"

using ohmvp::DeviceAllocator;

TEST_CASE("device allocator aligns blocks and never returns address 0", "[allocator]") {
  DeviceAllocator allocator(0, 1 << 20);
  const uint64_t first = allocator.allocate(10);
  const uint64_t second = allocator.allocate(300);
  const uint64_t third = allocator.allocate(0);
  CHECK(first == 256);  // [0, 256) stays unused so that null is never valid
  CHECK(second == 512);
  CHECK(third == 1024);
  CHECK(allocator.bytes_in_use() == 256 + 512 + 256);
}

TEST_CASE("device allocator reuses and coalesces freed blocks first fit", "[allocator]") {
  DeviceAllocator allocator(4096, 4096 + 4 * 256);
  const uint64_t a = allocator.allocate(256);
  const uint64_t b = allocator.allocate(256);
  const uint64_t c = allocator.allocate(256);
  allocator.free(a);
  allocator.free(b);
  CHECK(allocator.allocate(512) == a);  // a and b merged into one range
  allocator.free(c);
  CHECK_THROWS_AS(allocator.allocate(1024), ohmvp::OutOfDeviceMemory);
  CHECK(allocator.allocate(512) == c);
}

TEST_CASE("device allocator frees every block but those kept", "[allocator]") {
  DeviceAllocator allocator(4096, 4096 + 4 * 256);
  const uint64_t a = allocator.allocate(256);
  const uint64_t b = allocator.allocate(256);
  allocator.allocate(512);
  allocator.free_all_but({b});
  CHECK(allocator.bytes_in_use() == 256);
  CHECK(allocator.find(b));
  CHECK_FALSE(allocator.find(a));
  CHECK(allocator.allocate(256) == a);
  CHECK(allocator.allocate(512) == b + 256);  // the range after b, merged again
}

TEST_CASE("device allocator finds the block holding an address range", "[allocator]") {
  DeviceAllocator allocator(256, 1 << 16);
  const uint64_t a = allocator.allocate(100);
  REQUIRE(allocator.find(a + 99));
  CHECK(allocator.find(a + 96, 4)->address == a);
  CHECK_FALSE(allocator.find(a + 97, 4));  // runs past the requested bytes
  CHECK_FALSE(allocator.find(a - 1));
  // A range that would wrap past the top of the address space is in no block.
  CHECK_FALSE(allocator.find(0xfffffffffffffffc, 4));
  CHECK_FALSE(allocator.find(0xffffffffffffffff, 1));
}

TEST_CASE("device allocator rejects bad frees and impossible sizes", "[allocator]") {
  DeviceAllocator allocator(256, 1 << 12);
  const uint64_t a = allocator.allocate(1);
  CHECK_THROWS_AS(allocator.free(a + 4), std::invalid_argument);
  allocator.free(a);
  CHECK_THROWS_AS(allocator.free(a), std::invalid_argument);
  CHECK_THROWS_AS(allocator.allocate(uint64_t{1} << 40), ohmvp::OutOfDeviceMemory);
  CHECK_THROWS_AS(DeviceAllocator(0, 1 << 12, 100), std::invalid_argument);
}
