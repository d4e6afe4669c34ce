#include <random>
#include <set>
#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "modules/common/config_reader.h"
#include "modules/common/errors.h"
#include "modules/memory/address_mapper.h"

using namespace ohmvp;
using Catch::Contains;

namespace {

const char* const k_where = "memory.controller.address_mapping";

AddressMapper make_mapper(const AddressMappingConfig& config, DramGeometry geometry = {},
                          uint32_t bus_bytes = 8) {
  return AddressMapper(config, geometry, bus_bytes, k_where);
}

AddressMappingConfig scheme(const std::string& text) {
  AddressMappingConfig config;
  config.scheme = text;
  config.scheme_given = true;
  return config;
}

// The DDR4 x64 "row:bank:column" layout written out as bit lists.
AddressMappingConfig ddr4_bit_lists() {
  AddressMappingConfig config;
  config.scheme.clear();
  for (uint64_t bit = 6; bit <= 12; ++bit) config.column_bits.push_back(bit);
  config.bank_group_bits = {13, 14};
  config.bank_bits = {15, 16};
  for (uint64_t bit = 17; bit <= 32; ++bit) config.row_bits.push_back(bit);
  return config;
}

void check_round_trip(const AddressMapper& mapper, uint64_t seed) {
  std::mt19937_64 random(seed);
  for (int n = 0; n < 100'000; ++n) {
    const uint64_t address = random() & (mapper.capacity_bytes() - 1);
    REQUIRE(mapper.contains(address));
    const uint64_t aligned = address - mapper.burst_offset(address);
    REQUIRE(mapper.encode(mapper.decode(address)) == aligned);
  }
}

AddressMappingConfig parse_json(const char* text) {
  const nlohmann::json node = nlohmann::json::parse(text);
  AddressMappingConfig config;
  parse(ConfigReader(node, k_where), config);
  return config;
}

}  // namespace

TEST_CASE("address mapper: DDR4 row:bank:column bit positions", "[address_mapper]") {
  const AddressMapper mapper = make_mapper(scheme("row:bank:column"));
  CHECK(mapper.burst_bytes() == 64);
  CHECK(mapper.capacity_bytes() == uint64_t{1} << 33);
  CHECK(mapper.contains((uint64_t{1} << 33) - 1));
  CHECK_FALSE(mapper.contains(uint64_t{1} << 33));
  CHECK(mapper.burst_offset(64 + 37) == 37);

  auto check = [&](uint64_t address, uint32_t group, uint32_t bank, uint32_t row, uint32_t column) {
    INFO("address " << address);
    const DramAddress decoded = mapper.decode(address);
    CHECK(index(decoded.rank) == 0);
    CHECK(index(decoded.bank_group) == group);
    CHECK(index(decoded.bank) == bank);
    CHECK(index(decoded.row) == row);
    CHECK(index(decoded.column) == column);
  };
  check(0, 0, 0, 0, 0);
  check(63, 0, 0, 0, 0);  // bits 0-5: offset inside the burst
  check(64, 0, 0, 0, 8);  // bit 6: next burst, column 8
  check(1 << 12, 0, 0, 0, 512);
  check(8192, 1, 4, 0, 0);  // bit 13: bank group 1 = flat bank 4
  check(1 << 14, 2, 8, 0, 0);
  check(1 << 15, 0, 1, 0, 0);  // bits 15-16: bank inside the group
  check(1 << 16, 0, 2, 0, 0);
  check(1 << 17, 0, 0, 1, 0);  // bits 17-32: row
  check(uint64_t{1} << 32, 0, 0, 32768, 0);
  check((uint64_t{1} << 33) - 1, 3, 15, 65535, 1016);

  DramAddress address;
  address.bank = Bank{6};  // group 1, bank 2 inside it
  address.row = Row{3};
  address.column = Column{24};
  CHECK(mapper.encode(address) == (3ull << 17 | 2ull << 15 | 1ull << 13 | 3ull << 6));
  address.column = Column{27};  // a column inside the burst becomes the offset
  CHECK(mapper.encode(address) == (3ull << 17 | 2ull << 15 | 1ull << 13 | 3ull << 6 | 3 * 8));
}

TEST_CASE("address mapper: bit lists give the same mapping as the scheme", "[address_mapper]") {
  const AddressMapper from_scheme = make_mapper(scheme("row:bank:column"));
  const AddressMapper from_lists = make_mapper(ddr4_bit_lists());
  std::mt19937_64 random(7);
  for (int n = 0; n < 10'000; ++n) {
    const uint64_t address = random() & (from_scheme.capacity_bytes() - 1);
    const DramAddress a = from_scheme.decode(address);
    const DramAddress b = from_lists.decode(address);
    REQUIRE(index(a.bank_group) == index(b.bank_group));
    REQUIRE(index(a.bank) == index(b.bank));
    REQUIRE(index(a.row) == index(b.row));
    REQUIRE(index(a.column) == index(b.column));
  }

  // "bank" without "bank_group" covers the flat bank field, group bits first.
  AddressMappingConfig combined = ddr4_bit_lists();
  combined.bank_group_bits.clear();
  combined.bank_bits = {13, 14, 15, 16};
  const AddressMapper from_combined = make_mapper(combined);
  CHECK(index(from_combined.decode(1 << 13).bank_group) == 1);
  CHECK(index(from_combined.decode(1 << 16).bank) == 2);
}

TEST_CASE("address mapper: scattered bit lists decode bit by bit", "[address_mapper]") {
  AddressMappingConfig config = ddr4_bit_lists();
  // Swap column bit 0 (address bit 6) with row bit 0 (address bit 17); reverse the bank group.
  config.column_bits[0] = 17;
  config.row_bits[0] = 6;
  config.bank_group_bits = {14, 13};
  const AddressMapper mapper = make_mapper(config);
  CHECK(index(mapper.decode(1 << 6).row) == 1);
  CHECK(index(mapper.decode(1 << 17).column) == 8);
  CHECK(index(mapper.decode(1 << 13).bank_group) == 2);
  CHECK(index(mapper.decode(1 << 14).bank_group) == 1);
  check_round_trip(mapper, 3);
}

TEST_CASE("address mapper: the rank field where each scheme puts it", "[address_mapper]") {
  DramGeometry geometry;
  geometry.ranks = 2;
  // Bits 0-5 a burst's bytes, then 7 column, 2 bank-group, 2 bank and 16 row bits, and the rank.
  const AddressMapper top = make_mapper(scheme("rank:row:bank:column"), geometry);
  CHECK(index(top.decode(uint64_t{1} << 33).rank) == 1);
  CHECK(index(top.decode(uint64_t{1} << 33).row) == 0);
  CHECK(index(top.decode(uint64_t{1} << 32).row) == 1u << 15);
  CHECK(index(top.decode(uint64_t{1} << 32).rank) == 0);
  // Lowest first: bank (bits 6-7), rank (8), bank group (9-10), column (11-17), row (18-33).
  const AddressMapper low = make_mapper(scheme("row:column:bank_group:rank:bank"), geometry);
  CHECK(index(low.decode(1 << 6).bank) == 1);
  CHECK(index(low.decode(1 << 8).rank) == 1);
  CHECK(index(low.decode(1 << 8).bank) == 0);
  CHECK(index(low.decode(1 << 9).bank_group) == 1);
  CHECK(index(low.decode(1 << 11).column) == 8);
  CHECK(index(low.decode(1 << 18).row) == 1);
}

TEST_CASE("address mapper: encode inverts decode", "[address_mapper]") {
  DramGeometry geometry;
  geometry.ranks = 2;
  SECTION("without xor") {
    check_round_trip(make_mapper(scheme("rank:row:bank:column"), geometry), 1);
    check_round_trip(make_mapper(scheme("row:column:bank_group:rank:bank"), geometry), 2);
  }
  SECTION("with xor") {
    AddressMappingConfig config = scheme("rank:row:bank:column");
    config.xor_bits = {{13, 17}, {14, 18}, {15, 19}, {16, 20}, {6, 33}, {7, 25}};
    const AddressMapper mapper = make_mapper(config, geometry);
    check_round_trip(mapper, 4);

    // Row bit 0 flips bank-group bit 0; row bit 8 flips column bit 1.
    const DramAddress decoded = mapper.decode(1 << 17 | 1 << 25);
    CHECK(index(decoded.row) == 257);
    CHECK(index(decoded.bank_group) == 1);
    CHECK(index(decoded.bank) == 4);
    CHECK(index(decoded.column) == 16);
    DramAddress address;
    address.row = Row{1};
    CHECK(mapper.encode(address) == (1u << 17 | 1u << 13));
  }
}

TEST_CASE("address mapper: row:column:bank interleaves bursts over banks", "[address_mapper]") {
  const AddressMapper mapper = make_mapper(scheme("row:column:bank"));
  std::set<uint32_t> banks;
  for (uint32_t burst = 0; burst < 16; ++burst) {
    const DramAddress decoded = mapper.decode(burst * 64);
    CHECK(index(decoded.bank_group) == burst % 4);  // consecutive bursts alternate groups
    CHECK(index(decoded.row) == 0);
    CHECK(index(decoded.column) == 0);
    banks.insert(index(decoded.bank));
  }
  CHECK(banks.size() == 16);
  CHECK(index(mapper.decode(16 * 64).column) == 8);
}

TEST_CASE("address mapper: fields of size one may be left out", "[address_mapper]") {
  DramGeometry geometry;
  geometry.bank_groups = 1;
  const AddressMapper mapper = make_mapper(scheme("row:bank:column"), geometry);
  CHECK(mapper.capacity_bytes() == uint64_t{1} << 31);
  CHECK(index(mapper.decode(1 << 13).bank) == 1);
  CHECK(index(mapper.decode(1 << 13).bank_group) == 0);
  DramGeometry groups_only;
  groups_only.banks_per_group = 1;
  CHECK(index(make_mapper(scheme("row:bank_group:column"), groups_only).decode(1 << 13).bank) == 1);
  CHECK_THROWS_WITH(make_mapper(scheme("row:bank_group:column")),
                    Contains("'row:bank_group:column' lacks field 'bank' (4 values: "
                             "geometry.banks_per_group = 4); expected a scheme that names it, "
                             "such as 'row:bank_group:bank:column'"));
}

TEST_CASE("address mapper: scheme errors", "[address_mapper]") {
  CHECK_THROWS_WITH(make_mapper(scheme("row:bnk:column")),
                    Contains("memory.controller.address_mapping.scheme: unknown field 'bnk'") &&
                        Contains("did you mean 'bank'?"));
  CHECK_THROWS_WITH(make_mapper(scheme("row:column")),
                    Contains("lacks field 'bank' (16 values: geometry.bank_groups x "
                             "geometry.banks_per_group = 4 x 4)") &&
                        Contains("such as 'row:bank:column'"));
  DramGeometry geometry;
  geometry.ranks = 4;
  CHECK_THROWS_WITH(make_mapper(scheme("row:bank:column"), geometry),
                    Contains("lacks field 'rank' (4 values: geometry.ranks = 4)") &&
                        Contains("such as 'row:rank:bank:column'"));
  CHECK_THROWS_WITH(make_mapper(AddressMappingConfig{}, geometry),
                    Contains("the default 'row:bank:column' lacks field 'rank'"));
  CHECK_THROWS_WITH(make_mapper(scheme("row:bank:column:row")), Contains("names 'row' twice"));
  CHECK_THROWS_WITH(make_mapper(scheme("row::bank:column")), Contains("unknown field ''"));
  AddressMappingConfig both = scheme("row:bank:column");
  both.row_bits = {17};
  CHECK_THROWS_WITH(make_mapper(both), Contains("scheme: give either a scheme or bit lists"));
}

TEST_CASE("address mapper: bit list errors", "[address_mapper]") {
  AddressMappingConfig config = ddr4_bit_lists();
  SECTION("wrong bit count") {
    config.column_bits.pop_back();
    CHECK_THROWS_WITH(make_mapper(config),
                      Contains("address_mapping.column: expected 7 bits (log2 of 128), got 6"));
  }
  SECTION("wrong bit count of the combined bank field") {
    config.bank_group_bits.clear();
    CHECK_THROWS_WITH(make_mapper(config),
                      Contains("address_mapping.bank: expected 4 bits (log2 of 16 banks), got 2"));
  }
  SECTION("bit used twice") {
    config.row_bits[3] = 15;
    CHECK_THROWS_WITH(make_mapper(config),
                      Contains("address_mapping.row: bit 15 is also used by 'bank'"));
  }
  SECTION("hole in the bits") {
    config.row_bits.back() = 40;
    CHECK_THROWS_WITH(
        make_mapper(config),
        Contains("row: bit 40 leaves a hole: the mapped bits must be exactly 6 to 32"));
  }
  SECTION("bit inside the burst offset") {
    config.column_bits[0] = 5;
    CHECK_THROWS_WITH(make_mapper(config),
                      Contains("column: bit 5 is inside the burst offset (bits 0 to 5)"));
  }
}

TEST_CASE("address mapper: xor errors", "[address_mapper]") {
  AddressMappingConfig config = scheme("row:bank:column");
  SECTION("out of range") {
    config.xor_bits = {{13, 33}};
    CHECK_THROWS_WITH(make_mapper(config),
                      Contains("address_mapping.xor: pair [13, 33]: bit 33 is out of range; "
                               "expected 6 to 32"));
    config.xor_bits = {{2, 17}};
    CHECK_THROWS_WITH(make_mapper(config), Contains("bit 2 is out of range"));
  }
  SECTION("same bit") {
    config.xor_bits = {{13, 13}};
    CHECK_THROWS_WITH(make_mapper(config), Contains("target and source are the same bit"));
  }
  SECTION("target also a source") {
    config.xor_bits = {{13, 17}, {17, 20}};
    CHECK_THROWS_WITH(make_mapper(config),
                      Contains("pair [17, 20]: bit 17 is a target here and a source in [13, 17]"));
  }
  SECTION("pair given twice") {
    config.xor_bits = {{13, 17}, {14, 18}, {13, 17}};
    CHECK_THROWS_WITH(make_mapper(config), Contains("pair [13, 17] is given twice"));
  }
}

TEST_CASE("address mapper: geometry errors", "[address_mapper]") {
  CHECK_THROWS_WITH(make_mapper(scheme("row:bank:column"), {}, 6),
                    Contains("bus width 6 bytes is not a power of two"));
  DramGeometry geometry;
  geometry.rows = 1000;
  CHECK_THROWS_WITH(make_mapper(scheme("row:bank:column"), geometry),
                    Contains("geometry rows = 1000 is not a power of two"));
  CHECK_THROWS_WITH(make_mapper(scheme("row:bank:column"), {}, 1u << 31),
                    Contains("a burst of 2147483648 x 8 bytes is too large"));
  geometry.rows = 1 << 24;
  geometry.columns = 1 << 16;
  geometry.bank_groups = 16;
  geometry.banks_per_group = 64;
  geometry.ranks = 16;
  CHECK_THROWS_WITH(make_mapper(scheme("rank:row:bank:column"), geometry, 1u << 10),
                    Contains("needs 64 address bits; at most 63"));
}

TEST_CASE("address mapper: parse", "[address_mapper]") {
  SECTION("defaults") {
    const AddressMappingConfig config = parse_json("{}");
    CHECK(config.scheme == "row:bank:column");
    CHECK(config.xor_bits.empty());
  }
  SECTION("scheme and xor") {
    const AddressMappingConfig config =
        parse_json(R"({"scheme": "row:column:bank", "xor": [[13, 17], [14, 18]]})");
    CHECK(config.scheme == "row:column:bank");
    using Pairs = std::vector<std::pair<uint32_t, uint32_t>>;
    CHECK(config.xor_bits == Pairs{{13, 17}, {14, 18}});
  }
  SECTION("bit lists clear the scheme") {
    const AddressMappingConfig config = parse_json(
        R"({"column": [6, 7, 8, 9, 10, 11, 12], "bank": [13, 14, 15, 16],
            "row": [17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32]})");
    CHECK(config.scheme.empty());
    CHECK(config.bank_bits == std::vector<uint64_t>{13, 14, 15, 16});
    CHECK(make_mapper(config).capacity_bytes() == uint64_t{1} << 33);
  }
  SECTION("errors") {
    CHECK_THROWS_WITH(parse_json(R"({"scheme": "row:bank:column", "row": [17]})"),
                      Contains("address_mapping.scheme: give either 'scheme' or the bit lists"));
    CHECK_THROWS_WITH(parse_json(R"({"sheme": "row:bank:column"})"),
                      Contains("unknown key 'sheme'"));
    CHECK_THROWS_WITH(parse_json(R"({"scheme": 3})"), Contains("scheme: expected string"));
    CHECK_THROWS_WITH(parse_json(R"({"row": [17, -1]})"), Contains("row: expected array"));
    CHECK_THROWS_AS(parse_json(R"({"xor": [[13, 17, 2]]})"), ConfigError);
    CHECK(parse_json(R"({"xor": [[13, 99]]})").xor_bits.at(0).second == 99);
    CHECK_THROWS_WITH(parse_json(R"({"xor": [[13, 17], [14]]})"),
                      Contains("xor: expected an array of [target, source] bit pairs; element 1 "
                               "is [14]"));
    CHECK_THROWS_WITH(parse_json(R"({"xor": 5})"), Contains("xor: expected an array"));
  }
}
