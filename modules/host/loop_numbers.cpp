#include "modules/host/loop_numbers.h"

#include <algorithm>
#include <limits>

namespace ohmvp {

const LoopScope::Loop* LoopScope::find(const std::string& index) const {
  if (index.empty()) return nullptr;
  for (const Loop& loop : m_loops)
    if (loop.index == index) return &loop;
  return nullptr;
}

bool LoopScope::encloses(const std::string& index) const {
  return find(index) != nullptr;
}

StepNumber LoopScope::parse(const ConfigReader& r, const char* key, Wide min, Wide max,
                            int64_t absent) const {
  StepNumber number;
  number.literal = absent;
  const nlohmann::json* node = r.raw(key);
  if (!node || !node->is_object()) {
    const auto narrow = [](Wide value) {
      return static_cast<int64_t>(std::clamp<Wide>(value, std::numeric_limits<int64_t>::min(),
                                                   std::numeric_limits<int64_t>::max()));
    };
    r.get(key, number.literal, narrow(min), narrow(max));
    return number;
  }
  const ConfigReader indexed = r.child(key);
  indexed.finish({"loop_index", "times", "plus"});
  if (!indexed.has("loop_index"))
    indexed.fail("loop_index", "required: the \"index\" of an enclosing repeat step");
  indexed.get("loop_index", number.loop);
  const Loop* loop = find(number.loop);
  if (!loop)
    indexed.fail("loop_index", "no enclosing repeat step has \"index\": \"" + number.loop + "\"");
  indexed.get("times", number.times, -(int64_t{1} << 31), int64_t{1} << 31);
  indexed.get("plus", number.plus, -(int64_t{1} << 40), int64_t{1} << 40);
  const auto [low, high] = range(number);
  if (low < min || high > max)
    r.fail(key, "goes from " + text(low) + " to " + text(high) + " over the " +
                    std::to_string(loop->count) + " turns of loop '" + number.loop +
                    "'; expected " + text(min) + " to " + text(max));
  return number;
}

std::pair<LoopScope::Wide, LoopScope::Wide> LoopScope::range(const StepNumber& number) const {
  if (number.loop.empty()) return {number.literal, number.literal};
  const Wide span = Wide{number.times} * Wide{find(number.loop)->count - 1};
  return {number.plus + std::min<Wide>(0, span), number.plus + std::max<Wide>(0, span)};
}

LoopScope::Wide LoopScope::greatest_sum(const StepNumber& a, const StepNumber& b) const {
  if (!a.loop.empty() && a.loop == b.loop)
    return range({0, a.loop, a.times + b.times, a.plus + b.plus}).second;
  return range(a).second + range(b).second;
}

std::string LoopScope::text(Wide value) {
  if (value < 0) return "-" + text(-value);
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(value % 10)));
    value /= 10;
  } while (value != 0);
  return digits;
}

}  // namespace ohmvp
