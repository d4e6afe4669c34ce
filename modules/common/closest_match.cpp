#include "modules/common/closest_match.h"

#include <algorithm>
#include <cctype>
#include <tuple>

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

namespace {

// `word` reads as a short form of `candidate` ("cnt" of "count", "bufs" of "buffers"): the same
// first letter, its letters in order among the candidate's, and at least half as long.
bool is_abbreviation(const std::string& word, const std::string& candidate) {
  if (word.size() < 2 || word.size() >= candidate.size() || word.size() * 2 < candidate.size() ||
      word.front() != candidate.front())
    return false;
  size_t found = 0;
  for (const char c : candidate)
    if (found < word.size() && word[found] == c) ++found;
  return found == word.size();
}

bool same_ignoring_case(const std::string& a, const std::string& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

// A candidate that `word` spells in other letter case is as close as one can be ("VECADD" for
// "vecadd"). An abbreviation counts one edit closer than its distance, and is suggested even beyond
// the limit; among equally close candidates an abbreviation, then the one of the same length wins
// (a transposed word over a word with a letter missing).
std::string closest_match(const std::string& word, const std::vector<std::string>& candidates) {
  const size_t limit = std::max<size_t>(2, word.size() / 3);
  std::string best;
  std::tuple<size_t, bool, size_t> best_rank{limit + 1, true, 0};
  for (const std::string& candidate : candidates) {
    const size_t distance =
        same_ignoring_case(word, candidate) ? 0 : edit_distance(word, candidate);
    const bool abbreviation = is_abbreviation(word, candidate);
    if (distance > limit && !abbreviation) continue;
    const size_t length_gap = candidate.size() > word.size() ? candidate.size() - word.size()
                                                             : word.size() - candidate.size();
    const std::tuple<size_t, bool, size_t> rank{distance - (abbreviation ? 1 : 0), !abbreviation,
                                                length_gap};
    if (best.empty() || rank < best_rank) {
      best = candidate;
      best_rank = rank;
    }
  }
  return best;
}

}  // namespace ohmvp
