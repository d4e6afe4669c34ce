#include "modules/host/csr_generator.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_set>

#include "modules/common/random.h"

namespace ohmvp {

namespace {

// Floyd's sampling of `count` distinct values from [0, available): for j in [available - count,
// available), take a random t in [0, j]; if t is taken already, take j. Sorted on return.
void sample_row(Rng& rng, uint64_t available, uint64_t count, std::vector<uint64_t>& row,
                std::unordered_set<uint64_t>& taken) {
  row.clear();
  // A linear scan is quicker for a short row; a long one (a dense matrix) needs the set.
  constexpr uint64_t short_row = 64;
  const bool use_set = count > short_row;
  if (use_set) taken.clear();
  for (uint64_t j = available - count; j < available; ++j) {
    const uint64_t t = rng.below(j + 1);
    const bool seen =
        use_set ? taken.count(t) != 0 : std::find(row.begin(), row.end(), t) != row.end();
    const uint64_t pick = seen ? j : t;
    row.push_back(pick);
    if (use_set) taken.insert(pick);
  }
  std::sort(row.begin(), row.end());
}

}  // namespace

std::optional<GeneratedCsr> generate_csr(const CsrShape& shape, uint64_t max_entries) {
  GeneratedCsr csr;
  csr.rows = shape.rows;
  csr.columns = shape.columns;
  csr.row_offsets.push_back(0);
  Rng rng(shape.seed);
  std::vector<uint64_t> row;
  std::unordered_set<uint64_t> taken;
  for (uint64_t r = 0; r < shape.rows; ++r) {
    const bool skip_diagonal = !shape.allow_diagonal && r < shape.columns;
    const uint64_t available = shape.columns - (skip_diagonal ? 1 : 0);
    const uint64_t low = std::min(shape.min_per_row, available);
    const uint64_t high = std::min(shape.max_per_row, available);
    const uint64_t count = low + rng.below(high - low + 1);
    if (count > max_entries - csr.column_indices.size()) return std::nullopt;
    sample_row(rng, available, count, row, taken);
    for (uint64_t column : row) {
      // Columns are drawn from [0, available); past the skipped diagonal they shift up by one.
      csr.column_indices.push_back(skip_diagonal && column >= r ? column + 1 : column);
      csr.values.push_back(shape.value_min + rng.unit() * (shape.value_max - shape.value_min));
    }
    csr.row_offsets.push_back(csr.column_indices.size());
  }
  return csr;
}

GeneratedCsr generate_csr(const CsrShape& shape) {
  return *generate_csr(shape, std::numeric_limits<uint64_t>::max());
}

uint64_t fewest_entries(const CsrShape& shape) {
  // Without the diagonal a row has one column fewer; a graph has no rows past its columns.
  const uint64_t available = shape.columns - (shape.allow_diagonal ? 0 : 1);
  const uint64_t low = std::min(shape.min_per_row, available);
  // rows and low are at most 2^31 each (the loader's limits), so the product fits.
  return shape.rows * low;
}

bool surely_more_entries_than(const CsrShape& shape, uint64_t max_entries) {
  // Every row with the columns of a row that skips the diagonal: the fewer, the fewer entries.
  const uint64_t available = shape.columns - (shape.allow_diagonal ? 0 : 1);
  const long double low = static_cast<long double>(std::min(shape.min_per_row, available));
  const long double high = static_cast<long double>(std::min(shape.max_per_row, available));
  const long double rows = static_cast<long double>(shape.rows);
  const long double mean = rows * (low + high) / 2;
  // exp(-2 t^2 / (rows (high - low)^2)) <= 1e-30 for t = (high - low) sqrt(rows ln(1e30) / 2).
  const long double shortfall = (high - low) * std::sqrt(rows * 69.1L / 2);
  return mean - shortfall > static_cast<long double>(max_entries);
}

}  // namespace ohmvp
