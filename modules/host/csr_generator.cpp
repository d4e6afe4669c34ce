#include "modules/host/csr_generator.h"

#include <algorithm>

#include "modules/common/random.h"

namespace ohmvp {

GeneratedCsr generate_csr(const CsrShape& shape) {
  GeneratedCsr csr;
  csr.rows = shape.rows;
  csr.columns = shape.columns;
  csr.row_offsets.reserve(shape.rows + 1);
  csr.row_offsets.push_back(0);
  Rng rng(shape.seed);
  std::vector<uint64_t> row;
  for (uint64_t r = 0; r < shape.rows; ++r) {
    const bool skip_diagonal = !shape.allow_diagonal && r < shape.columns;
    const uint64_t available = shape.columns - (skip_diagonal ? 1 : 0);
    const uint64_t low = std::min(shape.min_per_row, available);
    const uint64_t high = std::min(shape.max_per_row, available);
    const uint64_t count = low + rng.below(high - low + 1);
    // Floyd: for j in [available - count, available), take a random t in [0, j]; if taken, j.
    row.clear();
    for (uint64_t j = available - count; j < available; ++j) {
      const uint64_t t = rng.below(j + 1);
      row.push_back(std::find(row.begin(), row.end(), t) == row.end() ? t : j);
    }
    std::sort(row.begin(), row.end());
    for (uint64_t column : row) {
      // Columns are drawn from [0, available); past the skipped diagonal they shift up by one.
      csr.column_indices.push_back(skip_diagonal && column >= r ? column + 1 : column);
      csr.values.push_back(shape.value_min + rng.unit() * (shape.value_max - shape.value_min));
    }
    csr.row_offsets.push_back(csr.column_indices.size());
  }
  return csr;
}

}  // namespace ohmvp
