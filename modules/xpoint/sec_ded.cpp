#include "modules/xpoint/sec_ded.h"

#include <array>

namespace ohmvp::sec_ded {

namespace {

constexpr unsigned protected_bytes = data_bytes + metadata_bits / 8;  // 66
constexpr unsigned protected_bits = protected_bytes * 8;              // 528
constexpr unsigned hamming_bits = check_bits - 1;                     // 10
constexpr unsigned codeword_bits = protected_bits + hamming_bits;     // positions 1..538

struct Tables {
  // Hamming syndrome contribution of byte b having value v: the XOR of the codeword positions
  // of its set bits.
  std::array<std::array<uint16_t, 256>, protected_bytes> syndrome{};
  // Protected bit index at codeword position p, or -1 for a check position (or none).
  std::array<int16_t, 1u << hamming_bits> bit_at{};

  Tables() {
    bit_at.fill(-1);
    unsigned position = 1;
    for (unsigned bit = 0; bit < protected_bits; ++bit) {
      ++position;
      while ((position & (position - 1)) == 0) ++position;  // skip powers of two
      bit_at[position] = static_cast<int16_t>(bit);
      const unsigned byte = bit / 8, mask = 1u << (bit % 8);
      for (unsigned v = 0; v < 256; ++v) {
        if (v & mask) syndrome[byte][v] ^= static_cast<uint16_t>(position);
      }
    }
  }
};

const Tables& tables() {
  static const Tables instance;
  return instance;
}

unsigned parity(uint64_t v) {
  return static_cast<unsigned>(__builtin_parityll(v));
}

// The Hamming syndrome and the parity of the 528 protected bits.
void scan(const uint8_t* data, uint16_t metadata, unsigned& syndrome, unsigned& bit_parity) {
  const Tables& t = tables();
  unsigned s = 0;
  uint64_t folded = 0;
  for (unsigned i = 0; i < data_bytes; ++i) {
    s ^= t.syndrome[i][data[i]];
    folded ^= data[i];
  }
  s ^= t.syndrome[data_bytes][metadata & 0xff];
  s ^= t.syndrome[data_bytes + 1][metadata >> 8];
  folded ^= metadata;
  syndrome = s;
  bit_parity = parity(folded);
}

}  // namespace

uint64_t encode(const uint8_t* data, uint16_t metadata) {
  unsigned syndrome, bit_parity;
  scan(data, metadata, syndrome, bit_parity);
  // Check bits at the power-of-two positions make the syndrome of the whole codeword zero; the
  // overall parity bit makes its parity even.
  const unsigned overall = bit_parity ^ parity(syndrome);
  return uint64_t{syndrome} | (uint64_t{overall} << hamming_bits) |
         (uint64_t{metadata} << metadata_shift);
}

namespace {

// The code's own decoding: data, metadata and check bits.
Outcome decode_code(uint8_t* data, uint64_t& word) {
  unsigned syndrome, bit_parity;
  scan(data, metadata_of(word), syndrome, bit_parity);
  syndrome ^= static_cast<unsigned>(word & ((1u << hamming_bits) - 1));
  const unsigned odd = bit_parity ^ parity(word & check_mask);
  if (syndrome == 0 && odd == 0) return Outcome::clean;
  if (odd == 0) return Outcome::uncorrectable;  // two errors: syndrome set, parity even
  if (syndrome == 0) {
    word ^= uint64_t{1} << hamming_bits;  // the overall parity bit itself
    return Outcome::corrected;
  }
  if ((syndrome & (syndrome - 1)) == 0) {
    // The check bit at codeword position 2^k is bit k of the word.
    word ^= uint64_t{1} << __builtin_ctz(syndrome);
    return Outcome::corrected;
  }
  if (syndrome > codeword_bits) return Outcome::uncorrectable;  // an odd number >= 3
  const int bit = tables().bit_at[syndrome];
  if (bit < static_cast<int>(data_bytes * 8)) {
    data[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
  } else {
    word ^= uint64_t{1} << (metadata_shift + (bit - data_bytes * 8));
  }
  return Outcome::corrected;
}

}  // namespace

Outcome decode(uint8_t* data, uint64_t& word) {
  const Outcome outcome = decode_code(data, word);
  if (outcome == Outcome::uncorrectable) return outcome;
  // The reserved bits are known zeros: a flip there is seen and undone whatever the code found.
  if ((word & reserved_mask) == 0) return outcome;
  word &= ~reserved_mask;
  return Outcome::corrected;
}

}  // namespace ohmvp::sec_ded
