#pragma once

#include <cstdint>
#include <string>

namespace ohmvp {

// A kernel run ends (exit 1) when its simulated time reaches this, so that a kernel that never
// ends does not run forever: far beyond any shipped workload (the longest takes milliseconds),
// and hours of host time on an 80-SM GPU.
constexpr uint64_t k_default_time_limit_ps = 1'000'000'000'000;  // 1 s

// `--time-limit` text as picoseconds: a decimal number and a unit (`ps`, `ns`, `us`, `ms`,
// `s`), e.g. `5ms` or `2.5 us`; `none` is 0, no limit. std::invalid_argument, saying what was
// expected, otherwise (a value of 0 or below 1 ps, or above 2^63 ps, too).
uint64_t parse_time_limit_ps(const std::string& text);

// The limit as the messages show it: `1 s`, `250 us`, `2.5 ms`.
std::string time_limit_text(uint64_t ps);

}  // namespace ohmvp
