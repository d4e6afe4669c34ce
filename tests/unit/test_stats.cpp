#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <vector>

#include <nlohmann/json.hpp>

#include "modules/common/stats.h"

using ohmvp::Average;
using ohmvp::Counter;
using ohmvp::Histogram;
using ohmvp::StatsRegistry;

TEST_CASE("stats: counter counts exactly") {
  Counter counter;
  CHECK(counter.value() == 0);
  counter.inc();
  counter.inc(41);
  counter.inc(uint64_t{1} << 40);
  CHECK(counter.value() == 42 + (uint64_t{1} << 40));
}

TEST_CASE("stats: average keeps count, sum, mean, min and max") {
  Average average;
  CHECK(average.count() == 0);
  CHECK(average.mean() == 0.0);
  CHECK(average.min() == 0.0);
  CHECK(average.max() == 0.0);

  average.sample(4.0);
  average.sample(-2.0);
  average.sample(10.0);
  CHECK(average.count() == 3);
  CHECK(average.sum() == 12.0);
  CHECK(average.mean() == 4.0);
  CHECK(average.min() == -2.0);
  CHECK(average.max() == 10.0);
}

TEST_CASE("stats: histogram is empty at first") {
  Histogram histogram;
  CHECK(histogram.count() == 0);
  CHECK(histogram.mean() == 0.0);
  CHECK(histogram.min() == 0);
  CHECK(histogram.max() == 0);
  CHECK(histogram.percentile(50) == 0);
}

TEST_CASE("stats: histogram percentiles are exact below 128") {
  Histogram histogram;
  for (uint64_t v = 0; v < 100; ++v) histogram.sample(v);
  CHECK(histogram.count() == 100);
  CHECK(histogram.min() == 0);
  CHECK(histogram.max() == 99);
  CHECK(histogram.mean() == 49.5);
  CHECK(histogram.percentile(0) == 0);
  CHECK(histogram.percentile(1) == 0);
  CHECK(histogram.percentile(50) == 49);
  CHECK(histogram.percentile(90) == 89);
  CHECK(histogram.percentile(99) == 98);
  CHECK(histogram.percentile(100) == 99);
}

TEST_CASE("stats: histogram percentiles are within 2% for large values") {
  Histogram histogram;
  for (uint64_t v = 1; v <= 100000; ++v) histogram.sample(v);
  CHECK(histogram.count() == 100000);
  CHECK(histogram.min() == 1);
  CHECK(histogram.max() == 100000);
  CHECK(histogram.mean() == 50000.5);
  CHECK(histogram.percentile(50) == Approx(50000).epsilon(0.02));
  CHECK(histogram.percentile(90) == Approx(90000).epsilon(0.02));
  CHECK(histogram.percentile(99) == Approx(99000).epsilon(0.02));
  CHECK(histogram.percentile(100) == 100000);
}

TEST_CASE("stats: histogram buckets hold any value within 2%") {
  // With 0 and the maximum around it, a value's own bucket answers p50 and no clamping helps.
  const uint64_t top = std::numeric_limits<uint64_t>::max();
  std::vector<uint64_t> values;
  for (uint64_t v = 128; v <= (top - 7) / 3; v = v * 3 + 7) values.push_back(v);
  for (unsigned e = 7; e < 63; ++e) {
    const uint64_t power = uint64_t{1} << e;
    for (uint64_t v : {power, power + 1, power + power / 2, 2 * power - 1}) values.push_back(v);
  }
  for (uint64_t v : values) {
    Histogram histogram;
    histogram.sample(0);
    histogram.sample(v);
    histogram.sample(top);
    const double got = static_cast<double>(histogram.percentile(50));
    INFO("value " << v);
    CHECK(got == Approx(static_cast<double>(v)).epsilon(0.02));
  }
  Histogram histogram;
  histogram.sample(top);
  CHECK(histogram.percentile(50) == top);
  CHECK(Histogram::bucket_index(top) == Histogram::bucket_count - 1);
}

TEST_CASE("stats: histogram rejects percentiles outside [0, 100]") {
  Histogram histogram;
  histogram.sample(1);
  CHECK_THROWS_AS(histogram.percentile(-1), std::out_of_range);
  CHECK_THROWS_AS(histogram.percentile(100.5), std::out_of_range);
}

TEST_CASE("stats: registry gives JSON grouped per module") {
  StatsRegistry registry;
  Counter& reads = registry.counter("platform.mc0", "reads", "requests", "read requests served");
  ohmvp::Scalar& bandwidth =
      registry.scalar("platform.mc0", "bandwidth", "GB/s", "data bus bandwidth");
  Average& depth = registry.average("platform.mc0", "queue_depth", "requests", "queue depth");
  Histogram& latency =
      registry.histogram("platform.host", "read_latency", "ps", "read request latency");

  reads.inc(3);
  bandwidth.set(12.5);
  depth.sample(1.0);
  depth.sample(3.0);
  latency.sample(10);
  latency.sample(20);

  const nlohmann::json json = registry.to_json();
  const nlohmann::json expected = {
      {"platform.host",
       {{"read_latency",
         {{"unit", "ps"},
          {"description", "read request latency"},
          {"count", 2},
          {"mean", 15.0},
          {"min", 10},
          {"max", 20},
          {"p50", 10},
          {"p90", 20},
          {"p99", 20}}}}},
      {"platform.mc0",
       {{"reads", {{"unit", "requests"}, {"description", "read requests served"}, {"value", 3}}},
        {"bandwidth", {{"unit", "GB/s"}, {"description", "data bus bandwidth"}, {"value", 12.5}}},
        {"queue_depth",
         {{"unit", "requests"},
          {"description", "queue depth"},
          {"count", 2},
          {"mean", 2.0},
          {"min", 1.0},
          {"max", 3.0}}}}}};
  CHECK(json == expected);
  // Sorted keys make the dump byte-for-byte reproducible.
  CHECK(json.dump() == expected.dump());
}

TEST_CASE("stats: registry rejects a name registered twice") {
  StatsRegistry registry;
  registry.counter("platform.mc0", "reads", "requests", "");
  CHECK_THROWS_AS(registry.counter("platform.mc0", "reads", "requests", ""), std::logic_error);
  CHECK_THROWS_AS(registry.histogram("platform.mc0", "reads", "ps", ""), std::logic_error);
  CHECK_NOTHROW(registry.counter("platform.mc1", "reads", "requests", ""));
}

TEST_CASE("stats: registry keeps every group.name spelling unambiguous") {
  StatsRegistry registry;
  registry.counter("platform", "mc0", "requests", "");
  // platform.mc0.reads would name both this counter's field and platform.mc0's statistic.
  CHECK_THROWS_WITH(registry.counter("platform.mc0", "reads", "requests", ""),
                    "statistic platform.mc0.reads: its group is also a statistic's name");
  registry.counter("platform.mc1", "reads", "requests", "");
  CHECK_THROWS_WITH(registry.counter("platform", "mc1", "requests", ""),
                    "statistic platform.mc1: the name of a group too");
  CHECK_THROWS_WITH(registry.counter("platform", "a.b", "requests", ""),
                    "statistic platform.a.b: a statistic's name has no '.'");
  CHECK_NOTHROW(registry.counter("platform.mc1", "writes", "requests", ""));
}

TEST_CASE("stats: registry references survive later registrations") {
  StatsRegistry registry;
  Counter& first = registry.counter("g", "c0", "", "");
  Histogram& histogram = registry.histogram("g", "h0", "", "");
  for (int i = 1; i < 1000; ++i) {
    registry.counter("g", "c" + std::to_string(i), "", "");
    registry.histogram("g", "h" + std::to_string(i), "", "");
  }
  first.inc(7);
  histogram.sample(9);
  REQUIRE(registry.find_counter("g", "c0") == &first);
  CHECK(registry.find_counter("g", "c0")->value() == 7);
  CHECK(registry.find_histogram("g", "h0")->max() == 9);

  StatsRegistry moved = std::move(registry);
  CHECK(moved.find_counter("g", "c0") == &first);
}

TEST_CASE("stats: registry finds statistics by group, name and kind") {
  StatsRegistry registry;
  registry.counter("a", "c", "", "");
  registry.average("a", "avg", "", "");
  registry.histogram("a", "h", "", "");
  registry.scalar("a", "s", "", "");
  CHECK(registry.find_counter("a", "c") != nullptr);
  CHECK(registry.find_average("a", "avg") != nullptr);
  CHECK(registry.find_histogram("a", "h") != nullptr);
  CHECK(registry.find_scalar("a", "s") != nullptr);
  CHECK(registry.find_counter("a", "missing") == nullptr);
  CHECK(registry.find_counter("b", "c") == nullptr);
  CHECK(registry.find_scalar("a", "c") == nullptr);
  CHECK(registry.find_counter("a", "h") == nullptr);
}

TEST_CASE("stats: text output lists every statistic aligned") {
  StatsRegistry registry;
  registry.counter("platform.mc0", "reads", "requests", "").inc(42);
  registry.scalar("platform.mc0", "bandwidth", "GB/s", "").set(12.5);
  registry.average("platform.mc0", "queue_depth", "requests", "").sample(2.0);
  Histogram& latency = registry.histogram("platform.host0", "read_latency", "ps", "");
  latency.sample(100);
  latency.sample(300);

  std::ostringstream out;
  registry.write_text(out);
  const std::string expected =
      "platform.host0.read_latency  mean 200 p50 100 p99 300 max 300 ps (n=2)\n"
      "platform.mc0.bandwidth       12.5 GB/s\n"
      "platform.mc0.queue_depth     mean 2 min 2 max 2 requests (n=1)\n"
      "platform.mc0.reads           42 requests\n";
  CHECK(out.str() == expected);
}

TEST_CASE("stats: merged histograms hold both sets of samples") {
  ohmvp::Histogram a, b, empty;
  for (uint64_t v : {5, 7, 9}) a.sample(v);
  for (uint64_t v : {1, 100}) b.sample(v);
  a.merge(b);
  a.merge(empty);
  CHECK(a.count() == 5);
  CHECK(a.min() == 1);
  CHECK(a.max() == 100);
  CHECK(a.mean() == Approx(122.0 / 5));
  CHECK(a.percentile(60) == 7);
}
