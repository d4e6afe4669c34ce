#include "modules/host/traffic_pattern.h"

#include <optional>
#include <string>

#include "modules/common/config_reader.h"
#include "modules/common/errors.h"
#include "modules/common/power_of_two.h"

namespace ohmvp {

namespace {

constexpr uint64_t max_requests = 1000000000;
constexpr uint32_t max_size = 4096;
constexpr uint32_t max_outstanding_limit = 4096;

struct Problem {
  const char* key;
  std::string text;
};

// The rules that involve more than one key's range, shared by parse() and the generator.
std::optional<Problem> find_problem(const TrafficConfig& c) {
  const std::string size = std::to_string(c.size);
  if (c.requests < 1 || c.requests > max_requests)
    return Problem{"requests", "expected 1 to " + std::to_string(max_requests)};
  if (c.size > max_size || !is_power_of_two(c.size))
    return Problem{"size", "expected a power of two from 1 to " + std::to_string(max_size)};
  if (!(c.read_ratio >= 0.0 && c.read_ratio <= 1.0))
    return Problem{"read_ratio", "expected 0 to 1"};
  if (c.base % c.size != 0) return Problem{"base", "expected a multiple of size (" + size + ")"};
  if (c.range == 0 || c.range % c.size != 0)
    return Problem{"range", "expected a positive multiple of size (" + size + ")"};
  if (c.range - 1 > UINT64_MAX - c.base)
    return Problem{"range", "expected base + range to fit in 64-bit addresses"};
  if (c.pattern == TrafficPattern::hot_set) {
    if (c.hot_bytes == 0 || c.hot_bytes % c.size != 0 || c.hot_bytes > c.range)
      return Problem{"hot_bytes",
                     "expected a positive multiple of size (" + size + ") up to range"};
    if (!(c.hot_ratio >= 0.0 && c.hot_ratio <= 1.0)) return Problem{"hot_ratio", "expected 0 to 1"};
    if (c.hot_shift_every < 1) return Problem{"hot_shift_every", "expected at least 1"};
    if (c.hot_shift_bytes % c.size != 0)
      return Problem{"hot_shift_bytes", "expected a multiple of size (" + size + ")"};
  }
  // Only strided traffic uses the stride, so the default need not suit every size.
  if (c.pattern == TrafficPattern::strided && (c.stride == 0 || c.stride % c.size != 0))
    return Problem{"stride", "expected a positive multiple of size (" + size + ")"};
  if (c.max_outstanding < 1 || c.max_outstanding > max_outstanding_limit)
    return Problem{"max_outstanding", "expected 1 to " + std::to_string(max_outstanding_limit)};
  return std::nullopt;
}

// Separate streams for addresses and operations, both derived from the one configured seed.
constexpr uint64_t operation_stream = 0x6F7065726174696Full;  // "operatio"

}  // namespace

void parse(const ConfigReader& reader, TrafficConfig& c) {
  reader.get_enum("pattern", c.pattern,
                  {{"sequential", TrafficPattern::sequential},
                   {"strided", TrafficPattern::strided},
                   {"random", TrafficPattern::random},
                   {"hot_set", TrafficPattern::hot_set}});
  reader.get("requests", c.requests, 1, max_requests);
  reader.get("size", c.size, 1, max_size);
  reader.get("read_ratio", c.read_ratio, 0.0, 1.0);
  reader.get("base", c.base);
  reader.get("range", c.range, 1, UINT64_MAX);
  reader.get("stride", c.stride, 1, UINT64_MAX);
  reader.get("hot_bytes", c.hot_bytes, 1, UINT64_MAX);
  reader.get("hot_ratio", c.hot_ratio, 0.0, 1.0);
  reader.get("hot_shift_every", c.hot_shift_every, 1, UINT64_MAX);
  reader.get("hot_shift_bytes", c.hot_shift_bytes);
  reader.get("seed", c.seed);
  reader.get("max_outstanding", c.max_outstanding, 1, max_outstanding_limit);
  reader.finish();
  // A key of another pattern would be silently ignored: refused.
  const auto only_for = [&](const char* key, TrafficPattern owner, const char* owner_name) {
    if (c.pattern != owner && reader.has(key))
      reader.fail(key, std::string("only '") + owner_name + "' traffic uses it");
  };
  only_for("stride", TrafficPattern::strided, "strided");
  for (const char* key : {"hot_bytes", "hot_ratio", "hot_shift_every", "hot_shift_bytes"})
    only_for(key, TrafficPattern::hot_set, "hot_set");
  if (auto problem = find_problem(c)) reader.fail(problem->key, problem->text);
}

TrafficGenerator::TrafficGenerator(const TrafficConfig& config)
    : m_config(config),
      m_address_rng(config.seed),
      m_operation_rng(config.seed ^ operation_stream) {
  if (auto problem = find_problem(config))
    throw ConfigError(std::string("traffic: ") + problem->key + ": " + problem->text);
  const uint64_t step = config.pattern == TrafficPattern::strided ? config.stride : config.size;
  m_step = step % config.range;
  m_hot_shift = config.hot_shift_bytes % config.range;
}

bool TrafficGenerator::next(MemoryRequest& request) {
  if (m_issued == m_config.requests) return false;
  ++m_issued;
  request.address = m_config.base + next_offset();
  request.is_write = next_is_write();
  request.size = m_config.size;
  request.not_before_ps = 0;
  return true;
}

uint64_t TrafficGenerator::next_offset() {
  if (m_config.pattern == TrafficPattern::random) return uniform_offset();
  if (m_config.pattern == TrafficPattern::hot_set) return next_hot_set_offset();
  const uint64_t offset = m_offset;
  m_offset = wrapped(m_offset, m_step);
  return offset;
}

uint64_t TrafficGenerator::next_hot_set_offset() {
  const TrafficConfig& c = m_config;
  // m_issued already counts this request: the window moves after every hot_shift_every.
  if (m_issued > 1 && (m_issued - 1) % c.hot_shift_every == 0)
    m_window = wrapped(m_window, m_hot_shift);
  if (m_address_rng.unit() >= c.hot_ratio) return uniform_offset();
  const uint64_t in_window = c.size * m_address_rng.below(c.hot_bytes / c.size);
  return wrapped(m_window, in_window);
}

uint64_t TrafficGenerator::uniform_offset() {
  return m_config.size * m_address_rng.below(m_config.range / m_config.size);
}

uint64_t TrafficGenerator::wrapped(uint64_t offset, uint64_t advance) const {
  // (offset + advance) mod range for offset and advance below range, without overflowing.
  const uint64_t room = m_config.range - offset;
  return advance >= room ? advance - room : offset + advance;
}

bool TrafficGenerator::next_is_write() {
  if (m_config.read_ratio >= 1.0) return false;
  if (m_config.read_ratio <= 0.0) return true;
  return m_operation_rng.unit() >= m_config.read_ratio;
}

}  // namespace ohmvp
