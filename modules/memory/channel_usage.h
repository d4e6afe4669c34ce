#pragma once

#include <cstdint>
#include <string>

#include "modules/common/stats.h"

namespace ohmvp {

// What a back-end transfer is for: a front request, or moving data between DRAM and XPoint
// (planar swaps; two-level fills and write-backs) over the controller's data route, or on the
// optical channel's memory route between the devices (SWAP-CMD, reverse write).
enum class Traffic : uint8_t { regular = 0, migration = 1, memory_route = 2 };

// Bytes and data-bus time on the channel, split by Traffic. A transfer of up to one burst
// holds the bus for one burst time (the optical channel counts the memory route's exact light
// time, WOM coding included).
struct ChannelUsage {
  Counter* bytes[3];
  Counter* time_ps[3];
  uint64_t burst_ps;

  ChannelUsage(StatsRegistry& r, const std::string& group, uint64_t burst)
      : bytes{&r.counter(group, "regular_bytes", "bytes", "bytes moved for front requests"),
              &r.counter(group, "migration_bytes", "bytes",
                         "bytes moved between DRAM and XPoint (swaps, fills, write-backs)"),
              &r.counter(group, "memory_route_bytes", "bytes",
                         "migration bytes moved on the memory route, device to device")},
        time_ps{
            &r.counter(group, "channel_regular_ps", "ps", "data-bus time taken by front requests"),
            &r.counter(group, "channel_migration_ps", "ps",
                       "data-bus time taken by migration traffic"),
            &r.counter(group, "channel_memory_route_ps", "ps",
                       "memory-route time taken by migration traffic (nominal burst time)")},
        burst_ps(burst) {}

  // `own_burst` false: the bytes went in another transfer's burst (a write the controller
  // merged into a queued one), so they take no bus time of their own.
  void add(Traffic traffic, uint32_t bytes_moved, bool own_burst = true) {
    bytes[static_cast<int>(traffic)]->inc(bytes_moved);
    if (own_burst) time_ps[static_cast<int>(traffic)]->inc(burst_ps);
  }
};

}  // namespace ohmvp
