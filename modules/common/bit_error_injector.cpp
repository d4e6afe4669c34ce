#include "modules/common/bit_error_injector.h"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "modules/common/config_reader.h"
#include "modules/common/fnv_hash.h"

namespace ohmvp {

uint64_t stream_seed(uint64_t seed, const std::string& instance) {
  return mix64(mix64(seed) ^ fnv1a64(instance));
}

void parse(const ConfigReader& reader, FaultInjectionConfig& c) {
  reader.get("ber", c.ber, 0.0, 0.5);
  reader.get("seed", c.seed);
  reader.finish();
}

BitErrorInjector::BitErrorInjector(double ber, uint64_t seed) : m_ber(ber), m_rng(seed) {
  if (!(ber >= 0.0 && ber <= 1.0))
    throw std::invalid_argument("BitErrorInjector: ber must be within 0 to 1");
  m_until_flip = next_gap();
}

uint64_t BitErrorInjector::next_gap() {
  if (m_ber <= 0.0) return std::numeric_limits<uint64_t>::max();
  if (m_ber >= 1.0) return 0;
  // Uniform in (0, 1] from 53 random bits; the number of good bits before a flip.
  const double u = (static_cast<double>(m_rng.next() >> 11) + 1.0) * 0x1.0p-53;
  const double gap = std::floor(std::log(u) / std::log1p(-m_ber));
  return gap >= 1.8e19 ? std::numeric_limits<uint64_t>::max() : static_cast<uint64_t>(gap);
}

uint64_t BitErrorInjector::corrupt(uint8_t* bytes, size_t length) {
  const uint64_t bits = uint64_t{length} * 8;
  uint64_t flipped = 0;
  uint64_t position = 0;
  while (position < bits) {
    if (m_until_flip >= bits - position) {
      if (m_until_flip != std::numeric_limits<uint64_t>::max()) m_until_flip -= bits - position;
      break;
    }
    position += m_until_flip;
    bytes[position / 8] ^= static_cast<uint8_t>(1u << (position % 8));
    ++flipped;
    ++position;
    m_until_flip = next_gap();
  }
  m_bits_seen += bits;
  m_bits_flipped += flipped;
  return flipped;
}

}  // namespace ohmvp
