#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstdint>

#include "modules/common/random.h"
#include "modules/xpoint/sec_ded.h"
#include "modules/xpoint/xpoint_media.h"

using namespace ohmvp;
using sec_ded::Outcome;

namespace {

std::array<uint8_t, 64> random_line(uint64_t seed) {
  std::array<uint8_t, 64> data{};
  Rng rng(seed);
  for (auto& b : data) b = static_cast<uint8_t>(rng.next());
  return data;
}

// Flips bit `bit` of the 539 + 16 stored bits: 0..511 data, 512..527 metadata, 528..538 check.
void flip(std::array<uint8_t, 64>& data, uint64_t& word, unsigned bit) {
  if (bit < 512) {
    data[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
  } else if (bit < 528) {
    word ^= uint64_t{1} << (sec_ded::metadata_shift + bit - 512);
  } else {
    word ^= uint64_t{1} << (bit - 528);
  }
}

}  // namespace

TEST_CASE("SEC-DED corrects every single-bit error, in data, metadata and check bits", "[xpoint]") {
  const auto original = random_line(1);
  const uint16_t metadata = 0xA5;  // e.g. valid, dirty and a tag of the two-level mode
  const uint64_t encoded = sec_ded::encode(original.data(), metadata);
  CHECK((encoded & ~(sec_ded::check_mask | (uint64_t{0xffff} << sec_ded::metadata_shift))) == 0);
  CHECK(sec_ded::metadata_of(encoded) == metadata);
  auto data = original;
  uint64_t word = encoded;
  CHECK(sec_ded::decode(data.data(), word) == Outcome::clean);
  for (unsigned bit = 0; bit < 539; ++bit) {
    data = original;
    word = encoded;
    flip(data, word, bit);
    INFO("bit " << bit);
    REQUIRE(sec_ded::decode(data.data(), word) == Outcome::corrected);
    REQUIRE(data == original);
    REQUIRE(word == encoded);
  }
}

TEST_CASE("SEC-DED clears a flipped reserved bit, alone or beside a corrected one", "[xpoint]") {
  const auto original = random_line(4);
  const uint64_t encoded = sec_ded::encode(original.data(), 0x3C);
  for (unsigned reserved = 0; reserved < 64; ++reserved) {
    const uint64_t bit = uint64_t{1} << reserved;
    if ((bit & sec_ded::reserved_mask) == 0) continue;
    INFO("reserved bit " << reserved);
    auto data = original;
    uint64_t word = encoded ^ bit;
    REQUIRE(sec_ded::decode(data.data(), word) == Outcome::corrected);
    REQUIRE(word == encoded);
    word = encoded ^ bit;
    data[7] ^= 0x10;  // and one data bit
    REQUIRE(sec_ded::decode(data.data(), word) == Outcome::corrected);
    REQUIRE(data == original);
    REQUIRE(word == encoded);
  }
  CHECK(__builtin_popcountll(sec_ded::reserved_mask) == 64 - 11 - 16);
}

TEST_CASE("SEC-DED detects every double-bit error and changes nothing", "[xpoint]") {
  const auto original = random_line(2);
  const uint64_t encoded = sec_ded::encode(original.data(), 3);
  Rng rng(3);
  for (int trial = 0; trial < 20000; ++trial) {
    const unsigned a = static_cast<unsigned>(rng.below(539));
    unsigned b = static_cast<unsigned>(rng.below(538));
    if (b >= a) ++b;
    auto data = original;
    uint64_t word = encoded;
    flip(data, word, a);
    flip(data, word, b);
    const auto corrupted = data;
    const uint64_t corrupted_word = word;
    INFO("bits " << a << " and " << b);
    REQUIRE(sec_ded::decode(data.data(), word) == Outcome::uncorrectable);
    REQUIRE(data == corrupted);
    REQUIRE(word == corrupted_word);
  }
}

TEST_CASE("XPoint media stores lines, counts wear and checks ECC per 64 bytes", "[xpoint]") {
  XPointMedia media(16, 256, true);
  std::array<uint8_t, 256> line{}, out{};
  for (unsigned i = 0; i < 256; ++i) line[i] = static_cast<uint8_t>(i * 3);
  media.write_line(5, line.data());
  media.write_line(5, line.data());
  media.copy_line(5, 6);
  CHECK(media.writes_of(5) == 2);
  CHECK(media.writes_of(6) == 1);
  CHECK(media.max_writes() == 2);
  CHECK(media.mean_writes() == Approx(3.0 / 16));

  media.flip_data_bit(6, 8 * 70 + 2);  // one bit in the second 64-byte chunk
  CHECK(media.read_line(6, out.data()) == Outcome::corrected);
  CHECK(out == line);
  CHECK(media.corrected() == 1);

  media.flip_data_bit(5, 3);
  media.flip_data_bit(5, 9);  // two bits in the first chunk
  CHECK(media.read_line(5, out.data()) == Outcome::uncorrectable);
  CHECK(media.uncorrectable() == 1);

  media.flip_ecc_bit(6, 3, 4);  // a check bit of the last chunk
  CHECK(media.read_line(6, out.data()) == Outcome::corrected);
  CHECK(out == line);

  CHECK(media.read_line(9, out.data()) == Outcome::clean);  // never written: zeros, clean
  CHECK(out == std::array<uint8_t, 256>{});

  // A gap move carries the uncorrectable chunk along as uncorrectable, its good chunks as good.
  media.copy_line(5, 10);
  uint64_t bad_chunks = 0;
  CHECK(media.read_line(10, out.data(), &bad_chunks) == Outcome::uncorrectable);
  CHECK(bad_chunks == 0b0001);
  media.write_line(11, line.data(), 0b0100);
  bad_chunks = 0;
  CHECK(media.read_line(11, out.data(), &bad_chunks) == Outcome::uncorrectable);
  CHECK(bad_chunks == 0b0100);
}

TEST_CASE("XPoint media fault injection flips the bits a read takes, not the cells", "[xpoint]") {
  // 4,000 reads of a 256-byte line and its four ECC words (2,304 bits) at 1e-4: about 922 flips
  // (sd 30). A 64-byte chunk (576 bits) has one flip with probability 0.054 (about 860
  // corrected in all; reserved-bit flips count too) and two or more with 0.0015 (about 24).
  XPointMedia media(4, 256, true, FaultInjectionConfig{1e-4, 11});
  std::array<uint8_t, 256> line{}, out{};
  for (unsigned i = 0; i < 256; ++i) line[i] = static_cast<uint8_t>(i * 7 + 1);
  media.write_line(2, line.data());
  uint64_t bad_reads = 0;
  for (int read = 0; read < 4000; ++read) {
    uint64_t bad_chunks = 0;
    if (media.read_line(2, out.data(), &bad_chunks) == Outcome::uncorrectable) {
      ++bad_reads;
      // The chunks the ECC could correct are whole again.
      for (unsigned c = 0; c < 4; ++c)
        if ((bad_chunks >> c & 1u) == 0)
          REQUIRE(
              std::equal(out.begin() + 64 * c, out.begin() + 64 * (c + 1), line.begin() + 64 * c));
    } else {
      REQUIRE(out == line);
    }
  }
  CHECK(media.bits_flipped() > 830);
  CHECK(media.bits_flipped() < 1010);
  CHECK(media.corrected() > 760);
  CHECK(media.corrected() < 960);
  CHECK(media.uncorrectable() > 8);
  CHECK(media.uncorrectable() < 45);
  CHECK(bad_reads > 0);
  // The cells kept what was written.
  media.peek(2, 0, out.data(), 256);
  CHECK(out == line);
  // Without ECC the flips reach the reader; the same seed flips the same bits.
  XPointMedia bare(4, 256, false, FaultInjectionConfig{1e-2, 5});
  XPointMedia again(4, 256, false, FaultInjectionConfig{1e-2, 5});
  bare.write_line(0, line.data());
  again.write_line(0, line.data());
  std::array<uint8_t, 256> other{};
  CHECK(bare.read_line(0, out.data()) == Outcome::clean);
  again.read_line(0, other.data());
  CHECK(out != line);
  CHECK(out == other);
  CHECK(bare.bits_flipped() == again.bits_flipped());
}
