#include "modules/common/stats.h"

#include <cmath>
#include <sstream>
#include <stdexcept>
#include <vector>

#include <nlohmann/json.hpp>

#include "modules/common/errors.h"

namespace ohmvp {

namespace {

// Midpoint of a bucket, the value reported for every sample that fell in it.
uint64_t bucket_representative(std::size_t index) {
  if (index < Histogram::exact_limit) return index;
  const unsigned shift = static_cast<unsigned>(index >> Histogram::sub_bucket_bits) - 1;
  const uint64_t mantissa = (index & ((std::size_t{1} << Histogram::sub_bucket_bits) - 1)) |
                            (std::size_t{1} << Histogram::sub_bucket_bits);
  const uint64_t low = mantissa << shift;
  return low + ((uint64_t{1} << shift) >> 1);
}

}  // namespace

void Histogram::merge(const Histogram& other) {
  for (std::size_t i = 0; i < bucket_count; ++i) m_buckets[i] += other.m_buckets[i];
  m_count += other.m_count;
  m_sum += other.m_sum;
  m_min = std::min(m_min, other.m_min);
  m_max = std::max(m_max, other.m_max);
}

uint64_t Histogram::percentile(double p) const {
  if (!(p >= 0.0 && p <= 100.0)) {
    throw std::out_of_range("histogram percentile " + number_text(p) + " is not in [0, 100]");
  }
  if (m_count == 0) return 0;
  // p * count first: exact for integral p, so p99 of 100 samples is rank 99, not 99.0000001.
  uint64_t rank = static_cast<uint64_t>(std::ceil(p * static_cast<double>(m_count) / 100.0));
  if (rank <= 1) return m_min;
  if (rank >= m_count) return m_max;
  uint64_t seen = 0;
  for (std::size_t i = 0; i < bucket_count; ++i) {
    seen += m_buckets[i];
    if (seen >= rank) return std::clamp(bucket_representative(i), m_min, m_max);
  }
  return m_max;
}

void StatsRegistry::add_entry(const std::string& group, const std::string& name,
                              const std::string& unit, const std::string& description, Kind kind,
                              std::size_t index) {
  // Names stay unambiguous as "group.name": a name has no dot, and no "group.name" is also a
  // group (ohmvp compare reads statistics back by that spelling).
  const auto clash = [&](const std::string& why) {
    throw std::logic_error("statistic " + group + "." + name + ": " + why);
  };
  if (name.find('.') != std::string::npos) clash("a statistic's name has no '.'");
  if (m_groups.count(group + "." + name) != 0) clash("the name of a group too");
  if (m_groups.count(group) == 0) {
    for (size_t dot = group.find('.'); dot != std::string::npos; dot = group.find('.', dot + 1)) {
      const auto parent = m_groups.find(group.substr(0, dot));
      if (parent != m_groups.end() && parent->second.count(group.substr(dot + 1)) != 0)
        clash("its group is also a statistic's name");
    }
  }
  auto& names = m_groups[group];
  const bool inserted = names.emplace(name, Entry{kind, index, unit, description}).second;
  if (!inserted) {
    throw std::logic_error("statistic " + group + "." + name + " is registered twice");
  }
}

const StatsRegistry::Entry* StatsRegistry::find_entry(const std::string& group,
                                                      const std::string& name, Kind kind) const {
  const auto names = m_groups.find(group);
  if (names == m_groups.end()) return nullptr;
  const auto entry = names->second.find(name);
  if (entry == names->second.end() || entry->second.kind != kind) return nullptr;
  return &entry->second;
}

Counter& StatsRegistry::counter(const std::string& group, const std::string& name,
                                const std::string& unit, const std::string& description) {
  add_entry(group, name, unit, description, Kind::counter, m_counters.size());
  return m_counters.emplace_back();
}

Average& StatsRegistry::average(const std::string& group, const std::string& name,
                                const std::string& unit, const std::string& description) {
  add_entry(group, name, unit, description, Kind::average, m_averages.size());
  return m_averages.emplace_back();
}

Histogram& StatsRegistry::histogram(const std::string& group, const std::string& name,
                                    const std::string& unit, const std::string& description) {
  add_entry(group, name, unit, description, Kind::histogram, m_histograms.size());
  return m_histograms.emplace_back();
}

Scalar& StatsRegistry::scalar(const std::string& group, const std::string& name,
                              const std::string& unit, const std::string& description) {
  add_entry(group, name, unit, description, Kind::scalar, m_scalars.size());
  return m_scalars.emplace_back();
}

const Counter* StatsRegistry::find_counter(const std::string& group,
                                           const std::string& name) const {
  const Entry* entry = find_entry(group, name, Kind::counter);
  return entry ? &m_counters[entry->index] : nullptr;
}

const Average* StatsRegistry::find_average(const std::string& group,
                                           const std::string& name) const {
  const Entry* entry = find_entry(group, name, Kind::average);
  return entry ? &m_averages[entry->index] : nullptr;
}

const Histogram* StatsRegistry::find_histogram(const std::string& group,
                                               const std::string& name) const {
  const Entry* entry = find_entry(group, name, Kind::histogram);
  return entry ? &m_histograms[entry->index] : nullptr;
}

const Scalar* StatsRegistry::find_scalar(const std::string& group, const std::string& name) const {
  const Entry* entry = find_entry(group, name, Kind::scalar);
  return entry ? &m_scalars[entry->index] : nullptr;
}

nlohmann::json StatsRegistry::to_json() const {
  nlohmann::json result = nlohmann::json::object();
  for (const auto& [group, names] : m_groups) {
    nlohmann::json& group_json = result[group];
    for (const auto& [name, entry] : names) {
      // Member by member: an initializer list builds a json array of pairs first.
      nlohmann::json stat = nlohmann::json::object();
      stat["unit"] = entry.unit;
      stat["description"] = entry.description;
      switch (entry.kind) {
        case Kind::counter:
          stat["value"] = m_counters[entry.index].value();
          break;
        case Kind::scalar:
          stat["value"] = m_scalars[entry.index].value();
          break;
        case Kind::average: {
          const Average& average = m_averages[entry.index];
          stat["count"] = average.count();
          stat["mean"] = average.mean();
          stat["min"] = average.min();
          stat["max"] = average.max();
          break;
        }
        case Kind::histogram: {
          const Histogram& histogram = m_histograms[entry.index];
          stat["count"] = histogram.count();
          stat["mean"] = histogram.mean();
          stat["min"] = histogram.min();
          stat["max"] = histogram.max();
          stat["p50"] = histogram.percentile(50);
          stat["p90"] = histogram.percentile(90);
          stat["p99"] = histogram.percentile(99);
          break;
        }
      }
      group_json[name] = std::move(stat);
    }
  }
  return result;
}

void StatsRegistry::write_text(std::ostream& out) const {
  std::vector<std::pair<std::string, std::string>> lines;
  std::size_t width = 0;
  std::ostringstream value;  // one stream for every line: a stream costs more to make than to use
  for (const auto& [group, names] : m_groups) {
    for (const auto& [name, entry] : names) {
      value.str("");
      switch (entry.kind) {
        case Kind::counter:
          value << m_counters[entry.index].value();
          break;
        case Kind::scalar:
          value << number_text(m_scalars[entry.index].value());
          break;
        case Kind::average: {
          const Average& average = m_averages[entry.index];
          value << "mean " << number_text(average.mean()) << " min " << number_text(average.min())
                << " max " << number_text(average.max());
          break;
        }
        case Kind::histogram: {
          const Histogram& histogram = m_histograms[entry.index];
          value << "mean " << number_text(histogram.mean()) << " p50 " << histogram.percentile(50)
                << " p99 " << histogram.percentile(99) << " max " << histogram.max();
          break;
        }
      }
      if (!entry.unit.empty()) value << ' ' << entry.unit;
      if (entry.kind == Kind::average) value << " (n=" << m_averages[entry.index].count() << ')';
      if (entry.kind == Kind::histogram) {
        value << " (n=" << m_histograms[entry.index].count() << ')';
      }
      std::string full_name = group + "." + name;
      width = std::max(width, full_name.size());
      lines.emplace_back(std::move(full_name), value.str());
    }
  }
  for (const auto& [full_name, value] : lines) {
    out << full_name << std::string(width - full_name.size() + 2, ' ') << value << '\n';
  }
}

}  // namespace ohmvp
