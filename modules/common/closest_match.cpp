#include "modules/common/closest_match.h"

#include <algorithm>

namespace ohmvp {

// Optimal-string-alignment distance: insertions, deletions, substitutions and transpositions of
// two neighbouring characters each cost 1, since swapped letters are the commonest typo.
size_t edit_distance(const std::string& a, const std::string& b) {
  const size_t width = b.size() + 1;
  std::vector<size_t> d((a.size() + 1) * width);
  for (size_t i = 0; i <= a.size(); ++i) d[i * width] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      size_t best = std::min({d[(i - 1) * width + j] + 1, d[i * width + j - 1] + 1,
                              d[(i - 1) * width + j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        best = std::min(best, d[(i - 2) * width + j - 2] + 1);
      }
      d[i * width + j] = best;
    }
  }
  return d[a.size() * width + b.size()];
}

// Among equally close candidates the one of the same length wins (a transposed word over a
// word with a letter missing).
std::string closest_match(const std::string& word, const std::vector<std::string>& candidates) {
  const size_t limit = std::max<size_t>(2, word.size() / 3);
  std::string best;
  size_t best_distance = limit + 1;
  size_t best_length_gap = 0;
  for (const std::string& candidate : candidates) {
    const size_t distance = edit_distance(word, candidate);
    const size_t length_gap = candidate.size() > word.size() ? candidate.size() - word.size()
                                                             : word.size() - candidate.size();
    if (distance < best_distance || (distance == best_distance && length_gap < best_length_gap)) {
      best = candidate;
      best_distance = distance;
      best_length_gap = length_gap;
    }
  }
  return best;
}

}  // namespace ohmvp
