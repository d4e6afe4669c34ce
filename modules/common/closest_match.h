#pragma once

#include <string>
#include <vector>

namespace ohmvp {

// Edit (Levenshtein) distance between two strings.
size_t edit_distance(const std::string& a, const std::string& b);

// The candidate closest to `word`, for "did you mean" hints. Returns "" when no candidate is within
// max(2, word.size() / 3) edits. Ties go to the earlier candidate.
std::string closest_match(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace ohmvp
