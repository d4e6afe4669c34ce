#include <catch2/catch.hpp>

#include "modules/gpu/simt/device_launches.h"

using namespace ohmvp::gpu;

TEST_CASE("device launches: buffers from the heap and the launches in order", "[heap]") {
  DeviceHeap heap(0x1000, 256);
  DeviceLaunches launches;
  DeviceLaunch first;
  first.function = 3;
  first.parameter_bytes = 20;
  DeviceLaunch second = first;
  second.function = 5;
  const uint64_t a = launches.prepare(heap, first);
  const uint64_t b = launches.prepare(heap, second);
  const uint64_t unlaunched = launches.prepare(heap, first);
  CHECK(a == 0x1000);
  CHECK(b == 0x1020);  // 20 bytes take a 32-byte block
  CHECK(unlaunched == 0x1040);
  CHECK(heap.allocated_bytes() == 96);
  // Launched in another order than prepared: the launch order is what counts.
  CHECK(launches.launch(b));
  CHECK(launches.launch(a));
  CHECK_FALSE(launches.launch(a));       // launched already
  CHECK_FALSE(launches.launch(0x2000));  // no buffer of a prepare()
  const std::vector<DeviceLaunch> made = launches.take(&heap);
  REQUIRE(made.size() == 2);
  CHECK(made[0].function == 5);
  CHECK(made[0].parameter_buffer == b);
  CHECK(made[1].function == 3);
  CHECK(made[1].parameter_buffer == a);
  // The buffer never launched went back to the heap; the launched ones are the runtime's.
  CHECK(heap.allocated_bytes() == 64);
  CHECK(launches.take(&heap).empty());

  // No room in the heap: NULL, and nothing recorded.
  DeviceLaunch large = first;
  large.parameter_bytes = 1024;
  CHECK(launches.prepare(heap, large) == 0);
  CHECK(launches.take(&heap).empty());
}

TEST_CASE("device launches: at most CUDA's pending launch count a grid", "[heap]") {
  DeviceHeap heap(0x1000, 1 << 20);
  DeviceLaunches launches;
  DeviceLaunch launch;
  launch.parameter_bytes = 8;
  for (uint32_t i = 0; i < DeviceLaunches::max_pending; ++i)
    REQUIRE(launches.launch(launches.prepare(heap, launch)));
  CHECK(launches.prepare(heap, launch) == 0);
  CHECK(launches.take(&heap).size() == DeviceLaunches::max_pending);
  CHECK(launches.prepare(heap, launch) != 0);  // the next grid starts with none
}

TEST_CASE("device launches: a launch that cannot run names both kernels", "[heap]") {
  Module module;
  module.functions.resize(2);
  module.functions[1].name = "_Z5childPiii";
  DeviceLaunch child;
  child.function = 1;
  child.grid[0] = 4;
  child.block[0] = 2048;
  CHECK(device_launch_fault(module, "parent", child, "too many threads") ==
        "kernel 'parent' launched 'child(int*, int, int)' <<<(4,1,1), (2048,1,1)>>> from the "
        "device: too many threads");
}

TEST_CASE("device launches: a thread's last error, read and cleared", "[heap]") {
  DeviceHeap heap(0x1000, 16);
  DeviceLaunches launches;
  DeviceLaunch launch;
  launch.parameter_bytes = 16;
  CHECK(launches.prepare(heap, launch) != 0);
  CHECK(launches.prepare(heap, launch) == 0);  // the heap is full
  launches.set_error(7, DeviceLaunches::pending_count_exceeded);
  CHECK(launches.last_error(6, false) == 0);
  CHECK(launches.last_error(7, false) == 69);  // peek
  CHECK(launches.last_error(7, true) == 69);   // get
  CHECK(launches.last_error(7, true) == 0);    // cleared
  launches.set_error(7, DeviceLaunches::pending_count_exceeded);
  launches.take(&heap);
  CHECK(launches.last_error(7, false) == 0);  // the next grid starts with none
}
