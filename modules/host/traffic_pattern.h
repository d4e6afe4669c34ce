#pragma once

#include <cstdint>

#include "modules/common/random.h"
#include "modules/host/memory_request.h"

namespace ohmvp {

class ConfigReader;

enum class TrafficPattern { sequential, strided, random, hot_set };

// A synthetic workload. Addresses stay inside [base, base + range) and are multiples of size.
struct TrafficConfig {
  TrafficPattern pattern = TrafficPattern::sequential;
  uint64_t requests = 100000;
  uint32_t size = 64;           // bytes per request, a power of two
  double read_ratio = 1.0;      // probability that a request is a read
  uint64_t base = 0;            // bytes, aligned to size
  uint64_t range = 1ull << 30;  // bytes, a multiple of size
  uint64_t stride = 64;         // bytes between strided requests, a multiple of size
  // hot_set: a share hot_ratio of the requests falls in a window of hot_bytes that moves on by
  // hot_shift_bytes every hot_shift_every requests (both multiples of size; wraps in the range).
  uint64_t hot_bytes = 4096;
  double hot_ratio = 0.9;
  uint64_t hot_shift_every = 10000;
  uint64_t hot_shift_bytes = 4096;
  uint64_t seed = 1;
  uint32_t max_outstanding = 64;  // for the initiator: requests in flight at once
};

// Keys: pattern ("sequential", "strided", "random", "hot_set"), requests, size, read_ratio, base,
// range, stride, hot_bytes, hot_ratio, hot_shift_every, hot_shift_bytes, seed, max_outstanding.
// Checks ranges and alignment, then rejects unknown keys.
void parse(const ConfigReader& reader, TrafficConfig& config);

// Produces the requests a TrafficConfig describes. All requests may issue at once
// (not_before_ps = 0); the initiator's max_outstanding paces them.
//   sequential: base, base + size, base + 2 size, ... wrapping around inside the range.
//   strided:    base, base + stride, base + 2 stride, ... taken modulo the range.
//   random:     base + size * uniform[0, range / size).
//   hot_set:    with probability hot_ratio base + (window + size * uniform[0, hot_bytes / size))
//               mod range, where the window starts at 0 and moves on by hot_shift_bytes after
//               every hot_shift_every requests; otherwise as random. A moving hot spot: what a
//               migrating memory must keep chasing.
// Reads and writes are drawn independently of addresses, so changing read_ratio leaves the
// address sequence as it was; read_ratio 0 or 1 draws nothing.
class TrafficGenerator : public RequestSource {
 public:
  // Throws ConfigError when `config` breaks the rules parse() enforces.
  explicit TrafficGenerator(const TrafficConfig& config);

  bool next(MemoryRequest& request) override;
  uint64_t total() const override { return m_config.requests; }

 private:
  uint64_t next_offset();
  uint64_t next_hot_set_offset();
  uint64_t uniform_offset();  // size * uniform[0, range / size)
  uint64_t wrapped(uint64_t offset, uint64_t advance) const;
  bool next_is_write();

  TrafficConfig m_config;
  uint64_t m_step;  // offset advance for sequential and strided, below range
  uint64_t m_offset = 0;
  uint64_t m_hot_shift = 0;  // hot_shift_bytes, below range
  uint64_t m_window = 0;     // hot_set: the window's start, below range
  uint64_t m_issued = 0;
  Rng m_address_rng;
  Rng m_operation_rng;
};

}  // namespace ohmvp
