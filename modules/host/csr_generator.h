#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace ohmvp {

// A sparse matrix (or a graph's adjacency, rows = source nodes) in compressed sparse row form.
struct GeneratedCsr {
  uint64_t rows = 0, columns = 0;
  std::vector<uint64_t> row_offsets;     // rows + 1, non-decreasing, from 0 to nnz
  std::vector<uint64_t> column_indices;  // nnz, strictly increasing within a row, < columns
  std::vector<double> values;            // nnz
};

struct CsrShape {
  uint64_t rows = 0, columns = 0;
  uint64_t min_per_row = 0, max_per_row = 0;  // non-zeros (graph: out-degree) per row
  bool allow_diagonal = true;                 // false: no self loops
  double value_min = 0, value_max = 1;        // values drawn uniformly in [min, max)
  uint64_t seed = 1;
};

// Deterministic from `shape` alone. Each row draws its count uniformly in [min, max] (capped at
// the columns available) and then that many distinct columns uniformly (Floyd's sampling).
GeneratedCsr generate_csr(const CsrShape& shape);
// The same, or nothing once it would hold more than `max_entries` entries (checked before each
// row is drawn, so that an oversized shape is refused without being built).
std::optional<GeneratedCsr> generate_csr(const CsrShape& shape, uint64_t max_entries);

// The fewest entries `shape` can produce: every row at its minimum count.
uint64_t fewest_entries(const CsrShape& shape);

// Whether `shape` draws more than `max_entries` entries beyond reasonable doubt, known without
// building it: the row counts are independent draws in [low, high], so by Hoeffding's inequality
// their sum falls short of its mean by t or more with probability at most
// exp(-2 t^2 / (rows (high - low)^2)), which is below 1e-30 for the t used here. Refusing such a
// shape at once (rather than after building up to `max_entries` entries, gigabytes of host
// memory for a mistyped size) refuses one whose draws would have fit with that chance at most.
bool surely_more_entries_than(const CsrShape& shape, uint64_t max_entries);

}  // namespace ohmvp
