#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "modules/common/config_reader.h"

namespace ohmvp {

// A whole number a workload step takes: a literal, or {"loop_index": name, "times": a, "plus": b},
// the counter of the enclosing repeat step with that "index" times a plus b (a chunk's first
// element or stream in a loop over chunks).
struct StepNumber {
  int64_t literal = 0;
  std::string loop;  // empty: the literal
  int64_t times = 1;
  int64_t plus = 0;
};

// The repeat steps around the step being parsed, and the values the numbers that follow their
// counters take: each is checked over its loop's every turn before the run.
class LoopScope {
 public:
  // Wide enough for a loop's values (|times x counter + plus| up to 2^63 + 2^40) and their sums.
  using Wide = __int128;

  // A repeat step's turns, named by its "index" (empty: it has none, or is a repeat_until_zero).
  void enter(std::string index, uint64_t count) { m_loops.push_back({std::move(index), count}); }
  void leave() { m_loops.pop_back(); }
  // Whether an enclosing repeat step has that "index" (never for an empty one).
  bool encloses(const std::string& index) const;

  // r[key] (`absent` when it is not there): a whole number in [min, max], or a loop_index object
  // each of whose values over its loop's turns is; ConfigError naming the key otherwise.
  // A u64 argument's values reach 2^64 - 1: the bounds are Wide, a literal's are cut to int64_t.
  StepNumber parse(const ConfigReader& r, const char* key, Wide min, Wide max,
                   int64_t absent) const;
  // The least and greatest value of `number` over its loop's turns (counter 0 to count - 1).
  std::pair<Wide, Wide> range(const StepNumber& number) const;
  // The greatest a + b over the turns: exact when both follow one loop, else the sum of each's.
  Wide greatest_sum(const StepNumber& a, const StepNumber& b) const;

  static std::string text(Wide value);

 private:
  struct Loop {
    std::string index;
    uint64_t count;
  };
  const Loop* find(const std::string& index) const;

  std::vector<Loop> m_loops;  // innermost last
};

}  // namespace ohmvp
