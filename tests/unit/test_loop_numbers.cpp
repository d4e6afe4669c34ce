// LoopScope: the repeat steps around a workload step and the ranges of the numbers that follow
// their counters.
#include <catch2/catch.hpp>

#include "modules/common/errors.h"
#include "modules/host/loop_numbers.h"

using ohmvp::ConfigReader;
using ohmvp::LoopScope;
using ohmvp::StepNumber;

TEST_CASE("loop numbers: ranges over a loop's turns, sums, and the checked parse", "[workload]") {
  LoopScope loops;
  loops.enter("i", 4);
  loops.enter("", 10);  // a repeat_until_zero: no counter
  loops.enter("j", 3);
  CHECK(loops.encloses("i"));
  CHECK_FALSE(loops.encloses(""));
  CHECK_FALSE(loops.encloses("k"));

  CHECK(loops.range({7, "", 1, 0}) == std::pair<LoopScope::Wide, LoopScope::Wide>{7, 7});
  CHECK(loops.range({0, "i", 8, 1}) == std::pair<LoopScope::Wide, LoopScope::Wide>{1, 25});
  CHECK(loops.range({0, "i", -8, 24}) == std::pair<LoopScope::Wide, LoopScope::Wide>{0, 24});
  // first = 8i, count = 32 - 8i: 32 on every turn; against count 8j + 1 of another loop, the
  // two greatest values add up.
  CHECK(loops.greatest_sum({0, "i", 8, 0}, {0, "i", -8, 32}) == 32);
  CHECK(loops.greatest_sum({0, "i", 8, 0}, {0, "j", 8, 1}) == 24 + 17);
  CHECK(loops.greatest_sum({0, "i", 8, 0}, {5, "", 1, 0}) == 29);
  CHECK(LoopScope::text(-(LoopScope::Wide{1} << 64)) == "-18446744073709551616");
  CHECK(LoopScope::text(0) == "0");

  const nlohmann::json node = nlohmann::json::parse(
      R"({"n": 5, "s": {"loop_index": "j", "times": 2, "plus": 1}, "bad": {"loop_index": "i",
          "times": 10}})");
  const ConfigReader r(node, "step");
  CHECK(loops.parse(r, "n", 0, 9, 0).literal == 5);
  CHECK(loops.parse(r, "absent", 0, 9, 3).literal == 3);
  const StepNumber s = loops.parse(r, "s", 0, 5, 0);
  CHECK(s.loop == "j");
  CHECK(s.times == 2);
  CHECK(s.plus == 1);
  CHECK_THROWS_WITH(loops.parse(r, "s", 0, 4, 0),
                    "step.s: goes from 1 to 5 over the 3 turns of loop 'j'; expected 0 to 4");
  CHECK_THROWS_WITH(loops.parse(r, "bad", 0, 29, 0),
                    "step.bad: goes from 0 to 30 over the 4 turns of loop 'i'; expected 0 to 29");
  // A u64's values pass 2^63 - 1: 2^31 x (2^32 - 1) + 2^40 is within u64, beyond s64.
  LoopScope wide;
  wide.enter("k", uint64_t{1} << 32);
  const nlohmann::json big = nlohmann::json::parse(
      R"({"v": {"loop_index": "k", "times": 2147483648, "plus": 1099511627776}})");
  const ConfigReader rb(big, "arg");
  const LoopScope::Wide u64_max = (LoopScope::Wide{1} << 64) - 1;
  CHECK(wide.parse(rb, "v", 0, u64_max, 0).times == 2147483648);
  CHECK_THROWS_WITH(
      wide.parse(rb, "v", -(LoopScope::Wide{1} << 63), (LoopScope::Wide{1} << 63) - 1, 0),
      Catch::Contains("to 9223373134218919936 over the 4294967296 turns of loop 'k'; "
                      "expected -9223372036854775808 to 9223372036854775807"));
  loops.leave();
  CHECK_THROWS_WITH(loops.parse(r, "s", 0, 9, 0),
                    "step.s.loop_index: no enclosing repeat step has \"index\": \"j\"");
}
