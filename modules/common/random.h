#pragma once

#include <cstdint>

namespace ohmvp {

// splitmix64's finaliser: a strong 64-bit mix, for hashing seeds and addresses into patterns.
inline uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// xoshiro256** (Blackman & Vigna) seeded through splitmix64. Small, fast and, unlike the
// std:: distributions, gives the same stream with every compiler and standard library.
class Rng {
 public:
  explicit Rng(uint64_t seed) {
    for (uint64_t& word : m_state) word = splitmix64(seed);
  }

  uint64_t next() {
    const uint64_t result = rotl(m_state[1] * 5, 7) * 9;
    const uint64_t t = m_state[1] << 17;
    m_state[2] ^= m_state[0];
    m_state[3] ^= m_state[1];
    m_state[1] ^= m_state[2];
    m_state[0] ^= m_state[3];
    m_state[2] ^= t;
    m_state[3] = rotl(m_state[3], 45);
    return result;
  }

  // Uniform in [0, bound), without modulo bias (Lemire's multiply-and-reject). bound > 0.
  uint64_t below(uint64_t bound) {
    uint64_t high;
    uint64_t low = multiply(next(), bound, high);
    if (low < bound) {
      const uint64_t threshold = (0 - bound) % bound;  // 2^64 mod bound
      while (low < threshold) low = multiply(next(), bound, high);
    }
    return high;
  }

  // Uniform in [0, 1), 53 random bits.
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

  static uint64_t splitmix64(uint64_t& x) { return mix64(x += 0x9E3779B97F4A7C15ull); }

  // Full 128-bit product of a and b: returns the low half, stores the high half.
  static uint64_t multiply(uint64_t a, uint64_t b, uint64_t& high) {
#ifdef __SIZEOF_INT128__
    __extension__ typedef unsigned __int128 u128;
    const u128 product = static_cast<u128>(a) * b;
    high = static_cast<uint64_t>(product >> 64);
    return static_cast<uint64_t>(product);
#else
    const uint64_t a_lo = a & 0xFFFFFFFFu, a_hi = a >> 32;
    const uint64_t b_lo = b & 0xFFFFFFFFu, b_hi = b >> 32;
    const uint64_t lo_lo = a_lo * b_lo, hi_lo = a_hi * b_lo;
    const uint64_t lo_hi = a_lo * b_hi, hi_hi = a_hi * b_hi;
    const uint64_t cross = (lo_lo >> 32) + (hi_lo & 0xFFFFFFFFu) + lo_hi;
    high = hi_hi + (hi_lo >> 32) + (cross >> 32);
    return (cross << 32) | (lo_lo & 0xFFFFFFFFu);
#endif
  }

  uint64_t m_state[4];
};

}  // namespace ohmvp
