#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "modules/common/random.h"

namespace ohmvp {

class ConfigReader;

// A forced bit error rate and the seed of its flips (`fault_injection` of the optical channel and
// of the XPoint media). 0: off.
struct FaultInjectionConfig {
  double ber = 0.0;
  uint64_t seed = 1;
};

// `ber` within 0 to 0.5, `seed`.
void parse(const ConfigReader& reader, FaultInjectionConfig& config);

// The seed of one instance's stream of flips: `seed` mixed with the instance's name
// ("memory.channel0", "memory1.xpc2"), so that no two instances flip alike and seed s + 1 is
// not another instance's seed s.
uint64_t stream_seed(uint64_t seed, const std::string& instance);

// Fault injection at a forced BER: flips each bit of a buffer independently with probability
// `ber`, so ECC detection and correction downstream are exercised. Deterministic for a seed: the
// gaps between flipped bits are drawn geometrically from one seeded stream, so the cost is per
// flip, not per bit.
class BitErrorInjector {
 public:
  BitErrorInjector(double ber, uint64_t seed);

  // Flips bits of `bytes[0 .. length)`; the number flipped.
  uint64_t corrupt(uint8_t* bytes, size_t length);

  double ber() const { return m_ber; }
  uint64_t bits_seen() const { return m_bits_seen; }
  uint64_t bits_flipped() const { return m_bits_flipped; }

 private:
  uint64_t next_gap();

  double m_ber;
  Rng m_rng;
  uint64_t m_until_flip;  // bits to pass before the next flip
  uint64_t m_bits_seen = 0;
  uint64_t m_bits_flipped = 0;
};

}  // namespace ohmvp
