#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <iosfwd>
#include <limits>
#include <map>
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace ohmvp {

// The recording operations below run once or more per memory request: keep them inline,
// allocation-free and branch-light.

class Counter {
 public:
  void inc(uint64_t n = 1) { m_value += n; }
  uint64_t value() const { return m_value; }

 private:
  uint64_t m_value = 0;
};

class Average {
 public:
  void sample(double v) {
    ++m_count;
    m_sum += v;
    m_min = std::min(m_min, v);
    m_max = std::max(m_max, v);
  }
  uint64_t count() const { return m_count; }
  double sum() const { return m_sum; }
  double mean() const { return m_count == 0 ? 0.0 : m_sum / static_cast<double>(m_count); }
  double min() const { return m_count == 0 ? 0.0 : m_min; }
  double max() const { return m_count == 0 ? 0.0 : m_max; }

 private:
  uint64_t m_count = 0;
  double m_sum = 0.0;
  double m_min = std::numeric_limits<double>::infinity();
  double m_max = -std::numeric_limits<double>::infinity();
};

// Log-linear (HDR-style) histogram over the whole uint64_t range: values below 128 have a
// bucket each; above, every power of two [2^e, 2^(e+1)) is split into 64 equal sub-buckets,
// so a bucket is at most 1/64 of its lower bound wide and its midpoint is within 0.8%.
// count, sum, min and max are kept exactly. The sum wraps past 2^64 (e.g. 18 million seconds
// of total latency in picoseconds).
class Histogram {
 public:
  static constexpr unsigned sub_bucket_bits = 6;
  static constexpr uint64_t exact_limit = uint64_t{1} << (sub_bucket_bits + 1);  // 128
  // Exponents 7..63 each have 64 sub-buckets, after the 128 exact ones.
  static constexpr std::size_t bucket_count =
      exact_limit + (64 - (sub_bucket_bits + 1)) * (std::size_t{1} << sub_bucket_bits);

  void sample(uint64_t v) {
    ++m_buckets[bucket_index(v)];
    ++m_count;
    m_sum += v;
    m_min = std::min(m_min, v);
    m_max = std::max(m_max, v);
  }
  uint64_t count() const { return m_count; }
  uint64_t sum() const { return m_sum; }
  double mean() const {
    return m_count == 0 ? 0.0 : static_cast<double>(m_sum) / static_cast<double>(m_count);
  }
  uint64_t min() const { return m_count == 0 ? 0 : m_min; }
  uint64_t max() const { return m_count == 0 ? 0 : m_max; }
  // The value at rank ceil(p/100 * count): exact below 128 and at the extremes, otherwise the
  // midpoint of its bucket clamped to [min, max]. 0 when empty. p outside [0,100] throws
  // std::out_of_range.
  uint64_t percentile(double p) const;
  // Adds every sample of `other` (for totals over several modules).
  void merge(const Histogram& other);

  static std::size_t bucket_index(uint64_t v) {
    if (v < exact_limit) return static_cast<std::size_t>(v);
    const unsigned exponent = 63u - static_cast<unsigned>(__builtin_clzll(v));
    const unsigned shift = exponent - sub_bucket_bits;
    // v >> shift keeps the leading one plus 6 bits: a value in [64, 128).
    return (static_cast<std::size_t>(shift) << sub_bucket_bits) +
           static_cast<std::size_t>(v >> shift);
  }

 private:
  std::array<uint64_t, bucket_count> m_buckets{};
  uint64_t m_count = 0;
  uint64_t m_sum = 0;
  uint64_t m_min = std::numeric_limits<uint64_t>::max();
  uint64_t m_max = 0;
};

// A figure derived at the end of a run (bandwidth, rates, ratios).
class Scalar {
 public:
  void set(double v) { m_value = v; }
  double value() const { return m_value; }

 private:
  double m_value = 0.0;
};

// Owns every statistic of a run, grouped by module instance path ("platform.mc0"). Returned
// references stay valid for the registry's lifetime, moves included. Registration is not on
// the hot path: modules register in their constructor and keep the reference.
class StatsRegistry {
 public:
  StatsRegistry() = default;
  StatsRegistry(const StatsRegistry&) = delete;
  StatsRegistry& operator=(const StatsRegistry&) = delete;
  StatsRegistry(StatsRegistry&&) = default;
  StatsRegistry& operator=(StatsRegistry&&) = default;

  // Registering a (group, name) pair twice, whatever the kind, throws std::logic_error.
  Counter& counter(const std::string& group, const std::string& name, const std::string& unit,
                   const std::string& description);
  Average& average(const std::string& group, const std::string& name, const std::string& unit,
                   const std::string& description);
  Histogram& histogram(const std::string& group, const std::string& name, const std::string& unit,
                       const std::string& description);
  Scalar& scalar(const std::string& group, const std::string& name, const std::string& unit,
                 const std::string& description);

  // nullptr when absent or registered as another kind.
  const Counter* find_counter(const std::string& group, const std::string& name) const;
  const Average* find_average(const std::string& group, const std::string& name) const;
  const Histogram* find_histogram(const std::string& group, const std::string& name) const;
  const Scalar* find_scalar(const std::string& group, const std::string& name) const;

  // { "<group>": { "<name>": {"unit", "description", ...values} } }, groups and names sorted.
  nlohmann::json to_json() const;
  // One aligned line per statistic: "group.name  value unit".
  void write_text(std::ostream& out) const;

 private:
  enum class Kind { counter, average, histogram, scalar };
  struct Entry {
    Kind kind;
    std::size_t index;  // into the deque of its kind
    std::string unit;
    std::string description;
  };

  void add_entry(const std::string& group, const std::string& name, const std::string& unit,
                 const std::string& description, Kind kind, std::size_t index);
  const Entry* find_entry(const std::string& group, const std::string& name, Kind kind) const;

  std::map<std::string, std::map<std::string, Entry>> m_groups;
  std::deque<Counter> m_counters;
  std::deque<Average> m_averages;
  std::deque<Histogram> m_histograms;
  std::deque<Scalar> m_scalars;
};

}  // namespace ohmvp
