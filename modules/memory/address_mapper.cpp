#include "modules/memory/address_mapper.h"

#include <algorithm>
#include <cstdint>

#include "modules/common/closest_match.h"
#include "modules/common/config_reader.h"
#include "modules/common/errors.h"
#include "modules/common/power_of_two.h"

namespace ohmvp {

namespace {

constexpr uint32_t k_max_address_bits = 63;

uint32_t log2_exact(uint64_t v) {
  uint32_t bits = 0;
  while ((uint64_t{1} << bits) < v) ++bits;
  return bits;
}

std::string pair_text(uint64_t target, uint64_t source) {
  return "[" + std::to_string(target) + ", " + std::to_string(source) + "]";
}

// Splits "row : bank:column" into trimmed tokens.
std::vector<std::string> split_scheme(const std::string& scheme) {
  std::vector<std::string> tokens(1);
  for (char c : scheme) {
    if (c == ':')
      tokens.emplace_back();
    else if (c != ' ' && c != '\t')
      tokens.back() += c;
  }
  return tokens;
}

// `tokens` with `missing` put where the usual order (row, rank, bank_group, bank, column; most
// significant first) has it: the fix to suggest for a scheme that lacks a field.
std::string scheme_with(const std::vector<std::string>& tokens, const std::string& missing) {
  const std::vector<std::string> order = {"row", "rank", "bank_group", "bank", "column"};
  const auto rank_of = [&](const std::string& token) {
    return std::find(order.begin(), order.end(), token) - order.begin();
  };
  std::vector<std::string> fixed = tokens;
  auto at = fixed.begin();
  while (at != fixed.end() && rank_of(*at) < rank_of(missing)) ++at;
  fixed.insert(at, missing);
  std::string text;
  for (const std::string& token : fixed) text += (text.empty() ? "" : ":") + token;
  return text;
}

}  // namespace

void parse(const ConfigReader& reader, AddressMappingConfig& config) {
  const bool has_scheme = reader.has("scheme");
  reader.get("scheme", config.scheme);
  if (has_scheme && config.scheme.empty())
    reader.fail("scheme", "is empty; expected fields in order, such as \"row:bank:column\"");
  config.scheme_given = config.scheme_given || has_scheme;
  const std::pair<const char*, std::vector<uint64_t>*> lists[] = {
      {"column", &config.column_bits},
      {"bank_group", &config.bank_group_bits},
      {"bank", &config.bank_bits},
      {"rank", &config.rank_bits},
      {"row", &config.row_bits}};
  bool has_lists = false;
  for (const auto& [key, bits] : lists) {
    if (!reader.has(key)) continue;
    has_lists = true;
    reader.get_u64_list(key, *bits);
  }
  if (has_scheme && has_lists)
    reader.fail("scheme",
                "give either 'scheme' or the bit lists 'column', 'bank_group', 'bank', 'rank', "
                "'row', not both");
  if (has_lists) config.scheme.clear();

  if (const nlohmann::json* pairs = reader.raw("xor")) {
    const std::string expected = "expected an array of [target, source] bit pairs";
    if (!pairs->is_array()) reader.fail("xor", expected);
    config.xor_bits.clear();
    for (size_t i = 0; i < pairs->size(); ++i) {
      const nlohmann::json& pair = (*pairs)[i];
      bool valid = pair.is_array() && pair.size() == 2;
      for (size_t k = 0; valid && k < 2; ++k)
        valid = pair[k].is_number_unsigned() && pair[k].get<uint64_t>() <= UINT32_MAX;
      if (!valid)
        reader.fail("xor", expected + "; element " + std::to_string(i) + " is " + pair.dump());
      config.xor_bits.emplace_back(pair[0].get<uint32_t>(), pair[1].get<uint32_t>());
    }
  }
  reader.finish();
}

AddressMapper::AddressMapper(const AddressMappingConfig& config, const DramGeometry& geometry,
                             uint32_t bus_bytes, const std::string& where,
                             const std::string& geometry_where) {
  auto fail = [&](const std::string& key, const std::string& problem) {
    throw ConfigError(where + (key.empty() ? "" : "." + key) + ": " + problem);
  };

  if (!is_power_of_two(bus_bytes))
    fail("", "bus width " + std::to_string(bus_bytes) + " bytes is not a power of two");
  const std::pair<const char*, uint32_t> sizes[] = {{"ranks", geometry.ranks},
                                                    {"bank_groups", geometry.bank_groups},
                                                    {"banks_per_group", geometry.banks_per_group},
                                                    {"rows", geometry.rows},
                                                    {"columns", geometry.columns},
                                                    {"burst_length", geometry.burst_length}};
  for (const auto& [name, value] : sizes) {
    if (!is_power_of_two(value))
      fail("", std::string("geometry ") + name + " = " + std::to_string(value) +
                   " is not a power of two");
  }
  if (geometry.burst_length > geometry.columns) fail("", "geometry burst_length exceeds columns");

  if (uint64_t{bus_bytes} * geometry.burst_length > (uint64_t{1} << 31))
    fail("", "a burst of " + std::to_string(bus_bytes) + " x " +
                 std::to_string(geometry.burst_length) + " bytes is too large");
  m_burst_shift = log2_exact(geometry.burst_length);
  m_bus_shift = log2_exact(bus_bytes);
  m_burst_bytes = bus_bytes * geometry.burst_length;
  m_bank_in_group_bits = log2_exact(geometry.banks_per_group);
  const uint32_t offset_bits = m_bus_shift + m_burst_shift;

  std::array<uint32_t, k_field_count> widths{};
  widths[k_column] = log2_exact(geometry.columns) - m_burst_shift;
  widths[k_bank_group] = log2_exact(geometry.bank_groups);
  widths[k_bank_in_group] = m_bank_in_group_bits;
  widths[k_rank] = log2_exact(geometry.ranks);
  widths[k_row] = log2_exact(geometry.rows);
  uint32_t total_bits = offset_bits;
  for (uint32_t width : widths) total_bits += width;
  if (total_bits > k_max_address_bits)
    fail("", "the geometry needs " + std::to_string(total_bits) + " address bits; at most " +
                 std::to_string(k_max_address_bits) + " are supported");
  m_capacity = uint64_t{1} << total_bits;

  // Address bit positions of each field, LSB-first.
  std::array<std::vector<uint64_t>, k_field_count> bits;
  // What each field is called in messages ("bank" covers the bank group when it has no field).
  std::array<std::string, k_field_count> names = {"column", "bank_group", "bank", "rank", "row"};

  const bool has_lists = !config.column_bits.empty() || !config.bank_group_bits.empty() ||
                         !config.bank_bits.empty() || !config.rank_bits.empty() ||
                         !config.row_bits.empty();
  if (!config.scheme.empty()) {
    if (has_lists) fail("scheme", "give either a scheme or bit lists, not both");
    const std::vector<std::string> tokens = split_scheme(config.scheme);
    const std::vector<std::string> known = {"row", "rank", "bank", "bank_group", "column"};
    for (const std::string& token : tokens) {
      if (std::count(tokens.begin(), tokens.end(), token) > 1)
        fail("scheme", "'" + config.scheme + "' names '" + token + "' twice");
      if (std::find(known.begin(), known.end(), token) == known.end()) {
        const std::string suggestion = closest_match(token, known);
        fail("scheme", "unknown field '" + token + "' in '" + config.scheme +
                           "'; expected row, rank, bank, bank_group or column" +
                           (suggestion.empty() ? "" : "; did you mean '" + suggestion + "'?"));
      }
    }
    const bool separate_groups =
        std::find(tokens.begin(), tokens.end(), "bank_group") != tokens.end();
    uint32_t next = offset_bits;
    auto assign = [&](Field field) {
      for (uint32_t i = 0; i < widths[field]; ++i) bits[field].push_back(next++);
    };
    for (auto it = tokens.rbegin(); it != tokens.rend(); ++it) {
      if (*it == "column") {
        assign(k_column);
      } else if (*it == "rank") {
        assign(k_rank);
      } else if (*it == "row") {
        assign(k_row);
      } else if (*it == "bank_group") {
        assign(k_bank_group);
      } else {
        if (!separate_groups) assign(k_bank_group);
        assign(k_bank_in_group);
      }
    }
    struct Required {
      Field field;
      const char* token;
      std::string source;  // the geometry that gives the field its values
    };
    const std::string g = geometry_where + ".";
    const Required required[] = {
        {k_column, "column",
         g + "columns / " + g + "burst_length = " + std::to_string(geometry.columns) + " / " +
             std::to_string(geometry.burst_length)},
        {k_bank_in_group, "bank",
         separate_groups ? g + "banks_per_group = " + std::to_string(geometry.banks_per_group)
                         : g + "bank_groups x " + g +
                               "banks_per_group = " + std::to_string(geometry.bank_groups) + " x " +
                               std::to_string(geometry.banks_per_group)},
        {k_rank, "rank", g + "ranks = " + std::to_string(geometry.ranks)},
        {k_row, "row", g + "rows = " + std::to_string(geometry.rows)}};
    for (const Required& r : required) {
      uint64_t values = uint64_t{1} << widths[r.field];
      bool present = bits[r.field].size() == widths[r.field];
      if (r.field == k_bank_in_group && !separate_groups) {
        values <<= widths[k_bank_group];
        present = present && bits[k_bank_group].size() == widths[k_bank_group];
      }
      if (!present)
        fail("scheme", std::string(config.scheme_given ? "" : "the default ") + "'" +
                           config.scheme + "' lacks field '" + r.token + "' (" +
                           std::to_string(values) + " values: " + r.source + "); expected " +
                           "a scheme that names it, such as '" + scheme_with(tokens, r.token) +
                           "'");
    }
  } else {
    bits[k_column] = config.column_bits;
    bits[k_rank] = config.rank_bits;
    bits[k_row] = config.row_bits;
    bits[k_bank_in_group] = config.bank_bits;
    const bool bank_covers_groups = config.bank_group_bits.empty();
    if (bank_covers_groups) {
      const size_t expected = widths[k_bank_group] + widths[k_bank_in_group];
      if (config.bank_bits.size() != expected)
        fail("bank", "expected " + std::to_string(expected) + " bits (log2 of " +
                         std::to_string(geometry.banks()) + " banks), got " +
                         std::to_string(config.bank_bits.size()));
      const auto split = config.bank_bits.begin() + widths[k_bank_group];
      bits[k_bank_group].assign(config.bank_bits.begin(), split);
      bits[k_bank_in_group].assign(split, config.bank_bits.end());
      names[k_bank_group] = "bank";
    } else {
      bits[k_bank_group] = config.bank_group_bits;
    }
    const std::pair<Field, uint32_t> counted[] = {
        {k_column, geometry.columns / geometry.burst_length},
        {k_bank_group, geometry.bank_groups},
        {k_bank_in_group, geometry.banks_per_group},
        {k_rank, geometry.ranks},
        {k_row, geometry.rows}};
    for (const auto& [field, size] : counted) {
      if (bank_covers_groups && field == k_bank_group) continue;
      if (bits[field].size() != widths[field])
        fail(names[field], "expected " + std::to_string(widths[field]) + " bits (log2 of " +
                               std::to_string(size) + "), got " +
                               std::to_string(bits[field].size()));
    }

    // With every count right, distinct in-range bits are exactly the contiguous range.
    std::vector<int> owner(64, -1);
    const std::string range = std::to_string(offset_bits) + " to " + std::to_string(total_bits - 1);
    for (uint32_t field = 0; field < k_field_count; ++field) {
      for (uint64_t bit : bits[field]) {
        if (bit < offset_bits)
          fail(names[field], "bit " + std::to_string(bit) +
                                 " is inside the burst offset (bits 0 to " +
                                 std::to_string(offset_bits - 1) + ")");
        if (bit >= total_bits)
          fail(names[field], "bit " + std::to_string(bit) +
                                 " leaves a hole: the mapped bits must be exactly " + range);
        if (owner[bit] >= 0)
          fail(names[field],
               "bit " + std::to_string(bit) + " is also used by '" + names[owner[bit]] + "'");
        owner[bit] = static_cast<int>(field);
      }
    }
  }

  for (uint32_t field = 0; field < k_field_count; ++field) {
    m_ranges[field].begin = static_cast<uint32_t>(m_runs.size());
    const std::vector<uint64_t>& field_bits = bits[field];
    for (uint32_t i = 0; i < field_bits.size();) {
      uint32_t length = 1;
      while (i + length < field_bits.size() && field_bits[i + length] == field_bits[i] + length)
        ++length;
      m_runs.push_back({static_cast<uint32_t>(field_bits[i]), i, (uint64_t{1} << length) - 1});
      i += length;
    }
    m_ranges[field].end = static_cast<uint32_t>(m_runs.size());
  }

  const std::string range = std::to_string(offset_bits) + " to " + std::to_string(total_bits - 1);
  for (size_t i = 0; i < config.xor_bits.size(); ++i) {
    const auto [target, source] = config.xor_bits[i];
    const std::string pair = "pair " + pair_text(target, source);
    for (uint32_t bit : {target, source}) {
      if (bit < offset_bits || bit >= total_bits)
        fail("xor", pair + ": bit " + std::to_string(bit) + " is out of range; expected " + range);
    }
    if (target == source) fail("xor", pair + ": target and source are the same bit");
    for (size_t k = 0; k < config.xor_bits.size(); ++k) {
      if (k < i && config.xor_bits[k] == config.xor_bits[i]) fail("xor", pair + " is given twice");
      if (config.xor_bits[k].second == target)
        fail("xor", pair + ": bit " + std::to_string(target) +
                        " is a target here and a source in " +
                        pair_text(config.xor_bits[k].first, config.xor_bits[k].second));
    }
    const int32_t distance = static_cast<int32_t>(target) - static_cast<int32_t>(source);
    auto step = std::find_if(m_xor.begin(), m_xor.end(),
                             [&](const XorStep& s) { return s.distance == distance; });
    if (step == m_xor.end()) step = m_xor.insert(m_xor.end(), {distance, 0});
    step->source_mask |= uint64_t{1} << source;
  }

  m_one_run_per_field = m_xor.empty();
  for (uint32_t field = 0; field < k_field_count; ++field) {
    const RunRange range = m_ranges[field];
    if (range.end - range.begin > 1) m_one_run_per_field = false;
    if (range.end - range.begin == 1) {
      m_field_shift[field] = m_runs[range.begin].source_shift;
      m_field_mask[field] = m_runs[range.begin].mask;
    }
  }
}

uint64_t AddressMapper::encode(const DramAddress& address) const {
  const uint32_t bank = index(address.bank);
  const uint64_t values[k_field_count] = {
      index(address.column) >> m_burst_shift, bank >> m_bank_in_group_bits,
      bank & ((uint32_t{1} << m_bank_in_group_bits) - 1), index(address.rank), index(address.row)};
  uint64_t a = 0;
  for (uint32_t field = 0; field < k_field_count; ++field) {
    for (uint32_t i = m_ranges[field].begin; i < m_ranges[field].end; ++i) {
      const Run& run = m_runs[i];
      a |= ((values[field] >> run.destination_shift) & run.mask) << run.source_shift;
    }
  }
  const uint64_t column_in_burst = index(address.column) & ((uint32_t{1} << m_burst_shift) - 1);
  return apply_xor(a) | (column_in_burst << m_bus_shift);
}

}  // namespace ohmvp
