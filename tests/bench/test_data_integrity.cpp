// A million random reads and writes through the whole memory path (controller, channel, DRAM
// device; with two channels also the interleaver), every read checked against a shadow copy.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <systemc>

#include "modules/common/stats.h"
#include "platforms/memory_system.h"
#include "tests/bench/bench_clock.h"
#include "tests/bench/checking_initiator.h"

namespace {

using namespace ohmvp;
using bench::CheckingInitiator;

constexpr uint64_t requests_per_system = 500000;

MemorySystemConfig with_channels(uint32_t channels) {
  MemorySystemConfig config;
  config.channels = channels;
  return config;
}

struct System {
  System(const std::string& name, const MemorySystemConfig& config, uint64_t seed,
         StatsRegistry& stats)
      : config(config),
        memory((name + "_memory").c_str(), config, stats, nullptr),
        traffic((name + "_traffic").c_str(), traffic_config(seed)) {
    memory.bind(traffic.out);
  }

  CheckingInitiator::Config traffic_config(uint64_t seed) const {
    CheckingInitiator::Config c;
    c.requests = requests_per_system;
    c.capacity_bytes = memory.capacity_bytes();
    c.seed = seed;
    return c;
  }

  // Sum of a controller counter over the channels.
  uint64_t controller_counter(const StatsRegistry& stats, const std::string& counter) const {
    uint64_t sum = 0;
    for (uint32_t c = 0; c < config.channels; ++c) {
      const std::string group = std::string(memory.name()) + ".mc" + std::to_string(c);
      const Counter* found = stats.find_counter(group, counter);
      REQUIRE(found != nullptr);
      sum += found->value();
    }
    return sum;
  }

  MemorySystemConfig config;
  MemorySystem memory;
  CheckingInitiator traffic;
};

// Both systems are elaborated before the first sc_start; each runs in its own test case while
// the other idles (refreshing only).
struct Bench {
  StatsRegistry stats;
  System one{"one_channel", with_channels(1), 1, stats};
  System two{"two_channels", with_channels(2), 2, stats};
};

Bench& the_bench() {
  return bench::instance<Bench>();
}

void run_to_completion(const CheckingInitiator& traffic) {
  // Far more simulated time than the requests need; a hang shows up as an unfinished run.
  const sc_core::sc_time limit = sc_core::sc_time_stamp() + sc_core::sc_time(1, sc_core::SC_SEC);
  while (!traffic.done() && sc_core::sc_time_stamp() < limit) {
    sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_US));
  }
}

void check(System& system, const StatsRegistry& stats) {
  run_to_completion(system.traffic);
  const CheckingInitiator& t = system.traffic;
  std::string reports;
  for (const std::string& report : t.reports()) reports += report + '\n';
  INFO(reports);
  INFO("completed " << t.completed() << " of " << requests_per_system << ", reads checked "
                    << t.reads_checked() << " at " << sc_core::sc_time_stamp());
  CHECK(t.done());
  CHECK(t.errors() == 0);
  CHECK(t.mismatches() == 0);
  CHECK(t.reads_checked() > requests_per_system / 3);
  CHECK(system.controller_counter(stats, "forwarded_reads") > 0);
  CHECK(system.controller_counter(stats, "merged_writes") > 0);
  CHECK(system.controller_counter(stats, "backpressure") > 0);
}

}  // namespace

TEST_CASE("data integrity: random partial reads and writes through one channel") {
  Bench& b = the_bench();
  check(b.one, b.stats);
}

TEST_CASE("data integrity: random partial reads and writes through two interleaved channels") {
  Bench& b = the_bench();
  check(b.two, b.stats);
}
