#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "modules/common/bit_error_injector.h"
#include "modules/common/sparse_store.h"
#include "modules/xpoint/sec_ded.h"

namespace ohmvp {

// The XPoint cells: whole internal lines of physical line index, with their ECC words and a
// write count per line (wear). Purely functional; the controller owns the timing. Bytes never
// written read as zero (with a matching, all-zero ECC word).
class XPointMedia {
 public:
  // line_bytes: a power of two, a multiple of 64. `faults`: raw bit errors of line reads.
  XPointMedia(uint64_t physical_lines, uint32_t line_bytes, bool ecc,
              const FaultInjectionConfig& faults = {});

  // Reads a whole line into `out` (line_bytes), correcting single-bit errors per 64 bytes; the
  // worst outcome of its code words. `bad_chunks`, when given, gets bit c set for each 64-byte
  // chunk c found uncorrectable. With fault injection the bits read (data and ECC words) flip
  // at its BER on their way out of the cells, before the ECC sees them.
  sec_ded::Outcome read_line(uint64_t line, uint8_t* out, uint64_t* bad_chunks = nullptr);
  // Writes a whole line (and its ECC); counts one write of the line. The chunks set in
  // `poisoned` keep bytes that came from an uncorrectable chunk: their code words are stored two
  // bits off, so that they still read as uncorrectable instead of as good data.
  void write_line(uint64_t line, const uint8_t* data, uint64_t poisoned = 0);
  // Gap move: read `from`, write `to` (one read and one write of the media); an uncorrectable
  // chunk stays uncorrectable where it goes.
  void copy_line(uint64_t from, uint64_t to);

  // Test hooks: flip a stored bit behind the ECC's back. `bit` indexes the line's data bits
  // (bit 8*i + b is bit b of byte i) or, for flip_ecc_bit, the ECC word of 64-byte chunk
  // `chunk`.
  void flip_data_bit(uint64_t line, uint32_t bit);
  void flip_ecc_bit(uint64_t line, uint32_t chunk, uint32_t bit);

  // Debug access, without ECC checking or wear: the line's stored data bytes.
  void peek(uint64_t line, uint32_t offset, uint8_t* out, uint32_t length) const;
  // Debug write of part of a line: stores the bytes and re-encodes the ECC, counts no wear.
  void poke(uint64_t line, uint32_t offset, const uint8_t* data, uint32_t length);

  uint64_t physical_lines() const { return m_lines; }
  uint32_t line_bytes() const { return m_line_bytes; }
  uint32_t writes_of(uint64_t line) const;
  uint64_t total_writes() const { return m_total_writes; }
  uint32_t max_writes() const { return m_max_writes; }
  double mean_writes() const {
    return static_cast<double>(m_total_writes) / static_cast<double>(m_lines);
  }
  uint64_t bits_flipped() const { return m_faults ? m_faults->bits_flipped() : 0; }
  uint64_t corrected() const { return m_corrected; }
  uint64_t uncorrectable() const { return m_uncorrectable; }

 private:
  static constexpr unsigned k_chunk_shift = 16;  // wear counters allocated 64 Ki lines at a time

  uint64_t data_address(uint64_t line) const { return line * m_line_bytes; }
  uint64_t ecc_address(uint64_t line, uint32_t chunk) const {
    return (line * m_chunks + chunk) * sizeof(uint64_t);
  }
  void encode_line(uint64_t line, const uint8_t* data, uint64_t poisoned);
  void count_write(uint64_t line);

  uint64_t m_lines;
  uint32_t m_line_bytes;
  uint32_t m_chunks;  // 64-byte ECC chunks per line
  bool m_ecc;
  std::unique_ptr<BitErrorInjector> m_faults;  // null without fault injection
  SparseStore m_data;
  SparseStore m_ecc_words;
  std::vector<std::unique_ptr<uint32_t[]>> m_wear;  // lazily allocated chunks
  uint64_t m_total_writes = 0;
  uint32_t m_max_writes = 0;
  uint64_t m_corrected = 0;
  uint64_t m_uncorrectable = 0;
  std::vector<uint8_t> m_scratch;
};

}  // namespace ohmvp
