#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include "modules/common/random.h"
#include "modules/interconnect/channel_interleaver.h"

using namespace ohmvp;

// The address math of ChannelInterleaver is inline and pure, but lives in an sc_module. The
// module is built here only for that math: it is destroyed at the end of each test, and no unit
// test calls sc_start, so its unbound sockets never reach elaboration.

TEST_CASE("channel interleaver: global_address undoes channel_of and local_address") {
  const ChannelInterleaver interleaver("interleaver_round_trip", 6, 256);
  Rng rng(6256);
  std::vector<uint64_t> addresses = {0, 1, 255, 256, 1535, 1536, 1537, (uint64_t{1} << 40) + 77};
  for (int i = 0; i < 100000; ++i) addresses.push_back(rng.below(uint64_t{1} << 36));
  for (uint64_t a : addresses) {
    const uint32_t channel = interleaver.channel_of(a);
    const uint64_t local = interleaver.local_address(a);
    if (channel != (a / 256) % 6 || interleaver.global_address(channel, local) != a) {
      FAIL("address " << a << ": channel " << channel << ", local " << local << ", back to "
                      << interleaver.global_address(channel, local));
    }
  }
  CHECK(interleaver.channel_of(256 * 7) == 1);
  CHECK(interleaver.local_address(256 * 7 + 5) == 256 + 5);
  CHECK(interleaver.global_address(1, 256 + 5) == 256 * 7 + 5);
}

TEST_CASE("interleave map: a space that starts at a base maps the base to every channel's 0") {
  // The GPU's device addresses start at 64 KiB: the memory sees them less the base.
  const InterleaveMap map{6, 256, 64 * 1024};
  CHECK(map.channel_of(64 * 1024) == 0);
  CHECK(map.local_address(64 * 1024 + 5) == 5);
  CHECK(map.channel_of(64 * 1024 + 256 * 7) == 1);
  CHECK(map.local_address(64 * 1024 + 256 * 7 + 5) == 256 + 5);
  CHECK(map.global_address(1, 256 + 5) == 64 * 1024 + 256 * 7 + 5);
  const InterleaveMap unbased{6, 256};
  for (uint64_t a = 0; a < 20000; a += 37) {
    CHECK(map.channel_of(64 * 1024 + a) == unbased.channel_of(a));
    CHECK(map.local_address(64 * 1024 + a) == unbased.local_address(a));
  }
}

TEST_CASE("channel interleaver: each channel's local addresses are dense") {
  const uint32_t channels = 6;
  const uint64_t interleave = 256;
  const ChannelInterleaver interleaver("interleaver_dense", channels, interleave);
  // Every byte of [0, channels * span) lands on exactly one (channel, local) with local < span.
  const uint64_t span = 40 * interleave;
  std::vector<uint8_t> hits(channels * span, 0);
  for (uint64_t a = 0; a < channels * span; ++a) {
    const uint32_t channel = interleaver.channel_of(a);
    const uint64_t local = interleaver.local_address(a);
    if (channel >= channels || local >= span) {
      FAIL("address " << a << " maps to channel " << channel << ", local " << local);
    }
    ++hits[channel * span + local];
  }
  CHECK(std::count(hits.begin(), hits.end(), 1) == static_cast<long>(hits.size()));
  // A block stays contiguous within its channel.
  for (uint64_t offset = 1; offset < interleave; ++offset) {
    CHECK(interleaver.local_address(3 * interleave + offset) ==
          interleaver.local_address(3 * interleave) + offset);
  }
}

TEST_CASE("channel interleaver: one channel is the identity") {
  const ChannelInterleaver interleaver("interleaver_single", 1, 256);
  for (uint64_t a : {uint64_t{0}, uint64_t{255}, uint64_t{256}, uint64_t{123456789}}) {
    CHECK(interleaver.channel_of(a) == 0);
    CHECK(interleaver.local_address(a) == a);
    CHECK(interleaver.global_address(0, a) == a);
  }
}
