#pragma once

#include <string>
#include <vector>

namespace ohmvp {

// Edit (Levenshtein) distance between two strings.
size_t edit_distance(const std::string& a, const std::string& b);

// The candidate closest to `word`, for "did you mean" hints: within max(2, word.size() / 3) edits,
// or one that `word` abbreviates ("cnt" for "count"), which counts as one edit closer, or one it
// spells in other letter case ("VECADD" for "vecadd"), which counts as none. Returns ""
// when there is none. Ties go to the earlier candidate.
std::string closest_match(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace ohmvp
