#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "modules/memory/dram_config.h"
#include "tlm_protocols/ddr_protocol.h"

namespace ohmvp {

class ConfigReader;

// How a channel's byte addresses are sliced into DRAM coordinates (DRAMSys-style). Either a
// scheme, fields from most to least significant ("row:bank:column"), or explicit bit lists with
// an empty scheme. Bit lists are LSB-first: the first listed address bit becomes bit 0 of the
// field. "bank" without "bank_group" covers the whole flat bank field, bank-group bits lowest.
struct AddressMappingConfig {
  std::string scheme = "row:bank:column";
  bool scheme_given = false;  // the config named the scheme (else it is the default above)
  std::vector<uint64_t> column_bits, bank_bits, bank_group_bits, rank_bits, row_bits;
  // (target, source): address bit target is XORed with address bit source before slicing.
  std::vector<std::pair<uint32_t, uint32_t>> xor_bits;
};

// Keys: "scheme" or the bit lists "column", "bank_group", "bank", "rank", "row"; and "xor", an
// array of [target, source] pairs. Consistency with the geometry is checked by AddressMapper.
void parse(const ConfigReader& reader, AddressMappingConfig& config);

// Maps a byte address inside one channel to DramAddress. The low log2(burst_bytes()) bits are
// the offset inside one burst; the column field above them is the burst index within a row.
class AddressMapper {
 public:
  // `bus_bytes` is the channel width in bytes. Throws ConfigError prefixed with `where` (the
  // mapping's config path) when the mapping does not fit the geometry, naming the geometry's
  // keys under `geometry_where`.
  AddressMapper(const AddressMappingConfig& config, const DramGeometry& geometry,
                uint32_t bus_bytes, const std::string& where = "address_mapping",
                const std::string& geometry_where = "geometry");

  // The column returned is the burst's first column. Unspecified for addresses not contained.
  DramAddress decode(uint64_t address) const {
    if (m_one_run_per_field) return decode_one_run_per_field(address);
    const uint64_t a = apply_xor(address);
    DramAddress result;
    result.rank = Rank{static_cast<uint32_t>(extract(k_rank, a))};
    result.row = Row{static_cast<uint32_t>(extract(k_row, a))};
    result.column = Column{static_cast<uint32_t>(extract(k_column, a) << m_burst_shift)};
    const uint64_t group = extract(k_bank_group, a);
    result.bank_group = BankGroup{static_cast<uint32_t>(group)};
    result.bank =
        Bank{static_cast<uint32_t>((group << m_bank_in_group_bits) | extract(k_bank_in_group, a))};
    return result;
  }

  // The inverse of decode. The bank group is taken from the flat bank; the column's bits below
  // the burst length give the offset inside the burst (in bus_bytes units).
  uint64_t encode(const DramAddress& address) const;

  uint64_t capacity_bytes() const { return m_capacity; }
  bool contains(uint64_t address) const { return address < m_capacity; }
  uint32_t burst_bytes() const { return m_burst_bytes; }
  uint64_t burst_offset(uint64_t address) const { return address & (m_burst_bytes - 1); }

 private:
  enum Field { k_column, k_bank_group, k_bank_in_group, k_rank, k_row, k_field_count };

  // (address >> source_shift) & mask lands at field bit destination_shift.
  struct Run {
    uint32_t source_shift;
    uint32_t destination_shift;
    uint64_t mask;
  };
  struct RunRange {
    uint32_t begin = 0, end = 0;
  };
  // a ^= (a & source_mask) shifted by distance (left when positive) for each distinct distance.
  struct XorStep {
    int32_t distance;
    uint64_t source_mask;
  };

  // decode() of the common mappings (every scheme, e.g. "row:bank:column"): no XOR and each
  // field one contiguous run of address bits, so one shift and mask per field.
  DramAddress decode_one_run_per_field(uint64_t a) const {
    auto field = [&](Field f) { return (a >> m_field_shift[f]) & m_field_mask[f]; };
    DramAddress result;
    result.rank = Rank{static_cast<uint32_t>(field(k_rank))};
    result.row = Row{static_cast<uint32_t>(field(k_row))};
    result.column = Column{static_cast<uint32_t>(field(k_column) << m_burst_shift)};
    const uint64_t group = field(k_bank_group);
    result.bank_group = BankGroup{static_cast<uint32_t>(group)};
    result.bank =
        Bank{static_cast<uint32_t>((group << m_bank_in_group_bits) | field(k_bank_in_group))};
    return result;
  }

  uint64_t extract(Field field, uint64_t a) const {
    const RunRange range = m_ranges[field];
    uint64_t value = 0;
    for (uint32_t i = range.begin; i < range.end; ++i) {
      const Run& run = m_runs[i];
      value |= ((a >> run.source_shift) & run.mask) << run.destination_shift;
    }
    return value;
  }

  // Sources are never targets, so the XOR is its own inverse and order-independent.
  uint64_t apply_xor(uint64_t a) const {
    for (const XorStep& step : m_xor) {
      const uint64_t sources = a & step.source_mask;
      a ^= step.distance >= 0 ? sources << step.distance : sources >> -step.distance;
    }
    return a;
  }

  uint32_t m_burst_bytes = 0;
  uint32_t m_burst_shift = 0;
  uint32_t m_bus_shift = 0;
  uint32_t m_bank_in_group_bits = 0;
  uint64_t m_capacity = 0;
  std::array<RunRange, k_field_count> m_ranges{};
  std::vector<Run> m_runs;
  std::vector<XorStep> m_xor;
  bool m_one_run_per_field = false;  // then m_field_shift/mask describe each field
  std::array<uint32_t, k_field_count> m_field_shift{};
  std::array<uint64_t, k_field_count> m_field_mask{};
};

}  // namespace ohmvp
