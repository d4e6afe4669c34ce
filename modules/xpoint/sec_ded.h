#pragma once

#include <cstdint>

namespace ohmvp {

// SEC-DED (extended Hamming) code protecting one 64-byte line plus 16 metadata bits: 528 data
// bits, 10 Hamming check bits and one overall parity bit. Any single flipped bit is corrected;
// any two are detected.
//
// The code lives in the line's 8-byte ECC word (the 12.5% a x72 DIMM carries beside each 64
// bytes), laid out as:
//   bits  0..10  check bits (10 Hamming + overall parity)
//   bits 16..31  metadata, covered by the code. Room for the two-level memory mode's valid bit,
//                dirty bit and 3..6 tag bits, so one access returns data and metadata together.
//   bits 11..15, 32..63  reserved, zero.
// One code over the whole line needs 11 bits where eight (72,64) codes would need all 64, which
// is what frees the metadata room.
namespace sec_ded {

constexpr unsigned data_bytes = 64;
constexpr unsigned metadata_bits = 16;
constexpr unsigned check_bits = 11;
constexpr uint64_t check_mask = (uint64_t{1} << check_bits) - 1;
constexpr unsigned metadata_shift = 16;
constexpr uint64_t reserved_mask = ~(check_mask | (uint64_t{0xffff} << metadata_shift));

enum class Outcome : uint8_t { clean, corrected, uncorrectable };

// The ECC word for `data` (64 bytes) and `metadata`.
uint64_t encode(const uint8_t* data, uint16_t metadata);

// Checks `data` and the metadata held in `word` against the code in `word`. A single-bit error
// is corrected in place (in `data`, or in `word`'s metadata or check bits); two bits are
// reported as uncorrectable and nothing is changed. Flipped reserved bits, which the code does
// not cover, are cleared (they are known to be zero) and make a chunk the code found clean
// `corrected`.
Outcome decode(uint8_t* data, uint64_t& word);

inline uint16_t metadata_of(uint64_t word) {
  return static_cast<uint16_t>(word >> metadata_shift);
}

}  // namespace sec_ded
}  // namespace ohmvp
