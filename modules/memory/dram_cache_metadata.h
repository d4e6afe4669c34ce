#pragma once

#include <cstdint>

#include "modules/common/lazy_table.h"

namespace ohmvp {

// Two-level mode: the metadata of one DRAM cache line (a 64-byte line of a direct-mapped cache
// of XPoint), as it is kept in the line's ECC region: 1 valid bit, 1 dirty bit and up to 6 tag
// bits, one byte beside the ECC check bits (Ohm-GPU: "1 valid bit, 1 dirty bit, and 3~6 tag
// bits along with ECC in the ECC region of each DRAM cache-line").
struct DramCacheMetadata {
  static constexpr uint32_t max_tag_bits = 6;

  bool valid = false;
  bool dirty = false;
  uint8_t tag = 0;

  uint8_t encode() const {
    return static_cast<uint8_t>((valid ? 0x80 : 0) | (dirty ? 0x40 : 0) | (tag & 0x3f));
  }
  static DramCacheMetadata decode(uint8_t bits) {
    return DramCacheMetadata{(bits & 0x80) != 0, (bits & 0x40) != 0,
                             static_cast<uint8_t>(bits & 0x3f)};
  }
  bool operator==(const DramCacheMetadata& o) const {
    return valid == o.valid && dirty == o.dirty && tag == o.tag;
  }
};

// The metadata byte of every DRAM line, stored beside the DRAM's data bytes. The DRAM device
// keeps data only, so the controller's model holds the ECC-region byte here; it is read with
// the line's data burst and written with it, never on its own (no extra DRAM access).
class DramMetadataStore {
 public:
  explicit DramMetadataStore(uint64_t lines) : m_bits(lines, 0) {}
  DramCacheMetadata read(uint64_t line) const { return DramCacheMetadata::decode(m_bits[line]); }
  void write(uint64_t line, const DramCacheMetadata& metadata) {
    m_bits.at(line) = metadata.encode();
  }
  uint64_t lines() const { return m_bits.size(); }

 private:
  LazyTable<uint8_t> m_bits;
};

// Direct-mapped placement of an XPoint line in the DRAM cache.
struct DirectMapping {
  uint64_t dram_lines = 0;

  uint64_t set_of(uint64_t xpoint_line) const { return xpoint_line % dram_lines; }
  uint8_t tag_of(uint64_t xpoint_line) const {
    return static_cast<uint8_t>(xpoint_line / dram_lines);
  }
  uint64_t xpoint_line(uint64_t set, uint8_t tag) const { return uint64_t{tag} * dram_lines + set; }
};

}  // namespace ohmvp
